package org.lockstep.testing.fx;

import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.testfx.api.FxToolkit;

/**
 * What every window test did by hand: starts the JavaFX toolkit and registers TestFX's primary stage before the
 * class ({@link FxToolkit#registerPrimaryStage()}), and closes every window left open ({@link
 * FxToolkit#cleanupStages()}) after each test — after the test's own {@code @AfterEach} methods — or, with
 * {@link WindowTest#closeWindowsAfterEachTest()} false, only after the class's {@code @AfterAll} methods. Registered
 * by {@link WindowTest}; it works beside TestFX's {@code ApplicationExtension}, which opens a test's {@code @Start}
 * stage itself.
 */
public final class WindowExtension implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) throws TimeoutException {
        FxToolkit.registerPrimaryStage();
    }

    @Override
    public void afterEach(ExtensionContext context) throws TimeoutException {
        boolean eachTest = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), WindowTest.class)
                .map(WindowTest::closeWindowsAfterEachTest).orElse(true);
        if (eachTest) {
            FxToolkit.cleanupStages();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws TimeoutException {
        FxToolkit.cleanupStages();
    }
}
