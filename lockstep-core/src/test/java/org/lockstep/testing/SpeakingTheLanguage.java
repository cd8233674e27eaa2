package org.lockstep.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;

/**
 * Runs a parameterized test ({@link InEveryTranslation}, or one that registers this extension) in the language of its
 * {@code Language} argument: {@link Texts#use} before
 * the test method, English again after it (whatever happened), and no text shown without a translation
 * ({@link Texts#onMissing}) — a test that passed fails, naming the texts, when one was.
 */
public final class SpeakingTheLanguage implements InvocationInterceptor {

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation,
            ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext)
            throws Throwable {
        Language lang = invocationContext.getArguments().stream().filter(Language.class::isInstance)
                .map(Language.class::cast).findFirst()
                .orElseThrow(
                        () -> new IllegalStateException("A test that speaks a language takes a Language argument"));
        List<String> missing = new CopyOnWriteArrayList<>();
        Consumer<String> before = Texts.onMissing(missing::add);
        Texts.use(lang);
        try {
            invocation.proceed();
        } finally {
            Texts.use(Language.ENGLISH);
            Texts.onMissing(before);
        }
        assertThat(missing).as("texts shown without a translation into %s", lang.tag()).isEmpty();
    }
}
