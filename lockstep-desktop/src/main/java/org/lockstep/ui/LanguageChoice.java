package org.lockstep.ui;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.prefs.Preferences;
import org.lockstep.text.Language;

/**
 * The operator's choice of language in View → Language (issue 16), kept with {@link Preferences} under the key
 * {@value #KEY} of the node {@value #NODE} (beside the theme and the editing preferences) as a {@code --lang} tag:
 * {@code en}, {@code pt-BR} or {@code es}. The desktop reads it at start ({@link #choose}); a choice made while it
 * runs is kept here and applied at once by {@link LanguageSwitch}.
 */
public final class LanguageChoice {

    /** The preference node's path (the editing preferences' and the theme's node). */
    public static final String NODE = "org/lockstep";
    /** The key of the operator's language: a {@link Language#tag()}. */
    public static final String KEY = "language";

    private final Preferences node;

    /**
     * The choice kept in {@code node}.
     *
     * @param node e.g. {@code Preferences.userRoot().node(LanguageChoice.NODE)}; tests give one of their own
     */
    public LanguageChoice(Preferences node) {
        this.node = Objects.requireNonNull(node, "node");
    }

    /** The operator's own choice, in the user's preferences ({@value #NODE}). */
    public static LanguageChoice operators() {
        return new LanguageChoice(Preferences.userRoot().node(NODE));
    }

    /** The language stored, or empty when none is, or when the stored tag is none Lockstep speaks (edited by hand). */
    public Optional<Language> stored() {
        String tag = node.get(KEY, null);
        if (tag == null || tag.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Language.ofTag(tag));
        } catch (IllegalArgumentException unknown) {
            return Optional.empty();
        }
    }

    /** Keeps {@code language} as the operator's choice, for the next start too. */
    public void store(Language language) {
        node.put(KEY, language.tag());
    }

    /**
     * The language the desktop speaks: {@code --lang} when given, else the stored choice, else the operating
     * system's display language when Lockstep speaks it ({@link Language#forLocale}), else English.
     *
     * @param given  the {@code --lang} given, if any
     * @param system the operating system's display locale
     */
    public Language choose(Optional<Language> given, Locale system) {
        return given.or(this::stored).orElseGet(() -> Language.forLocale(system));
    }
}
