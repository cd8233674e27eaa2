package org.lockstep.ui;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.lockstep.domain.FieldParser;

/**
 * The locale in which the desktop editor reads and shows numbers: the JVM's default format locale
 * ({@link Locale.Category#FORMAT}, which the operating system's regional settings give it and {@code --locale}
 * replaces). So where the decimal separator is a comma (de, es, pt-BR) an operator types and reads {@code 1500,50}.
 * The editor, the merge dialog and the history read and show every value through {@link #fields()}, so that a text
 * the editor shows always parses back to the same value.
 */
public final class EditorLocale {

    private static final Map<Locale, FieldParser> PARSERS = new ConcurrentHashMap<>();

    private EditorLocale() {
    }

    /** The editor's locale now. */
    public static Locale locale() {
        return Locale.getDefault(Locale.Category.FORMAT);
    }

    /** Reads and shows field values in {@link #locale()}. */
    public static FieldParser fields() {
        return PARSERS.computeIfAbsent(locale(), FieldParser::of);
    }
}
