package org.lockstep.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A test run once in each language the desktop speaks besides English ({@link Translations#languages()}): its
 * {@code Language} parameter says which. {@link SpeakingTheLanguage} does the part every such test shares: it
 * switches the texts to that language around the test alone (its {@code @BeforeEach} and {@code @AfterEach}
 * methods run in English), back to English after it, and fails the test on any text it showed that has no
 * translation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@ParameterizedTest(name = "in {0}")
@MethodSource("org.lockstep.testing.Translations#languages")
@ExtendWith(SpeakingTheLanguage.class)
public @interface InEveryTranslation {
}
