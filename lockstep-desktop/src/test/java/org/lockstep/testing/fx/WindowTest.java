package org.lockstep.testing.fx;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that starts the JavaFX toolkit and opens windows: headless, on Monocle, as surefire's argLine sets it
 * up ({@code -Dglass.platform=Monocle -Dmonocle.platform=Headless -Dprism.order=sw}, root pom.xml). It is tagged
 * {@value #TAG}, so that {@code -Dgroups='!ui'} leaves it out (README, "Test it"), and {@link WindowExtension} registers
 * TestFX's primary stage before the class and closes the windows its tests opened. Every test class that starts the
 * toolkit (TestFX's {@code ApplicationExtension}, {@code FxToolkit}, {@code Platform.startup}) carries it; the
 * database, operators, feeds and executors such a class opens come from {@link WindowSessions}, which ends them.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(WindowTest.TAG)
@ExtendWith(WindowExtension.class)
public @interface WindowTest {

    /** The tag of window tests, for surefire's {@code groups} and {@code excludedGroups}. */
    String TAG = "ui";

    /**
     * Whether the windows a test opened are closed after it ({@code true}, the default), or only after the class, for
     * classes whose tests share windows the class opened once (a demo, a main window with its feed).
     */
    boolean closeWindowsAfterEachTest() default true;
}
