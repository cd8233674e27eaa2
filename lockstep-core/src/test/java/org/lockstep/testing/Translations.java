package org.lockstep.testing;

import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Stream;
import org.lockstep.text.Language;

/**
 * The languages the desktop speaks, the one source every translated test runs over ({@link InEveryTranslation};
 * with {@link SpeakingTheLanguage}, {@link #everyLanguage()}), and what a test expects to read in each.
 */
public final class Translations {

    private Translations() {
    }

    /** Every language the desktop speaks, English first: for a test that English must pass too (a layout). */
    public static Stream<Language> everyLanguage() {
        return Arrays.stream(Language.values());
    }

    /** Every language but English, the language of the code's own sentences (ADR 0016). */
    public static Stream<Language> languages() {
        return Arrays.stream(Language.values()).filter(l -> l != Language.ENGLISH);
    }

    /**
     * What the test expects in {@code lang}: a text (or a pattern, a value) written out per language, so that a test
     * asserts the words an operator reads, not what the translation files say. A language added to
     * {@link Language} fails here until the test says what it expects in it.
     */
    public static <T> T expect(Language lang, T portugueseBrazil, T spanish) {
        return Objects.requireNonNull(switch (lang) {
            case PORTUGUESE_BRAZIL -> portugueseBrazil;
            case SPANISH -> spanish;
            case ENGLISH -> throw new IllegalArgumentException("English is the code's own text, not a translation");
        });
    }
}
