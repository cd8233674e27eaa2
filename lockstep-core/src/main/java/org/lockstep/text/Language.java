package org.lockstep.text;

import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/**
 * A language the desktop UI speaks (issue 16): English, Brazilian Portuguese and Spanish. English is the source: the
 * texts in the code are English, and the other two are translations of them ({@link Texts}). Each language also says
 * how dates are written in it, so a Brazilian operator reads {@code 01/12/2026 10:07} and a Spanish one
 * {@code 1 dic 2026}; amounts keep following the operating system's format locale (or {@code --locale}).
 */
public enum Language {

    /** English, the language of the code and of the command line. Dates as ISO 8601 ({@code 2026-12-01 10:07}). */
    ENGLISH("en", Locale.ENGLISH, "English", "yyyy-MM-dd", "d MMM", "d MMM yyyy"),

    /** Brazilian Portuguese ({@code pt-BR}). Dates day first ({@code 01/12/2026}, {@code 1 de dez. de 2026}). */
    PORTUGUESE_BRAZIL("pt-BR", Locale.forLanguageTag("pt-BR"), "Português (Brasil)", "dd/MM/yyyy", "d 'de' MMM",
            "d 'de' MMM 'de' yyyy"),

    /** Spanish ({@code es}). Dates day first ({@code 01/12/2026}, {@code 1 dic 2026}). */
    SPANISH("es", Locale.forLanguageTag("es"), "Español", "dd/MM/yyyy", "d MMM", "d MMM yyyy");

    private final String tag;
    private final Locale locale;
    private final String nativeName;
    private final String numericDate;
    private final String dayMonth;
    private final String dayMonthYear;

    Language(String tag, Locale locale, String nativeName, String numericDate, String dayMonth, String dayMonthYear) {
        this.tag = tag;
        this.locale = locale;
        this.nativeName = nativeName;
        this.numericDate = numericDate;
        this.dayMonth = dayMonth;
        this.dayMonthYear = dayMonthYear;
    }

    /** The BCP 47 tag {@code --lang} takes: {@code en}, {@code pt-BR} or {@code es}. */
    public String tag() {
        return tag;
    }

    /** The locale of its texts, plural rules and month names. */
    public Locale locale() {
        return locale;
    }

    /** Its name in itself, as a language menu lists it: "Português (Brasil)". */
    public String nativeName() {
        return nativeName;
    }

    /** The suffix of its translation files, {@code _pt_BR}; empty for English, whose texts are the keys. */
    String bundleSuffix() {
        return this == ENGLISH ? "" : "_" + locale.toString();
    }

    /**
     * A date and time in numbers, as tables show them: {@code 2026-12-01 10:07:33} in English,
     * {@code 01/12/2026 10:07:33} in Portuguese and Spanish.
     *
     * @param seconds whether to show the seconds
     */
    public DateTimeFormatter numericDateTime(boolean seconds) {
        return DateTimeFormatter.ofPattern(numericDate + (seconds ? " HH:mm:ss" : " HH:mm"), locale);
    }

    /** A date in numbers, as tables show a day: {@code 2026-12-01} in English, {@code 01/12/2026} in the others. */
    public DateTimeFormatter numericDate() {
        return DateTimeFormatter.ofPattern(numericDate, locale);
    }

    /**
     * A day and month in numbers, as a chart's axis shows them: {@code 12-01} in English (ISO's order, as
     * {@link #numericDate()}), {@code 01/12} in Portuguese and Spanish.
     */
    public DateTimeFormatter numericDayMonth() {
        return DateTimeFormatter.ofPattern(numericDate.startsWith("yyyy") ? "MM-dd" : "dd/MM", locale);
    }

    /** A day and a short month name: {@code 1 Dec}, {@code 1 de dez.}, {@code 1 dic}. */
    public DateTimeFormatter dayMonth() {
        return DateTimeFormatter.ofPattern(dayMonth, locale);
    }

    /** A day, a short month name and the year: {@code 1 Dec 2026}, {@code 1 de dez. de 2026}, {@code 1 dic 2026}. */
    public DateTimeFormatter dayMonthYear() {
        return DateTimeFormatter.ofPattern(dayMonthYear, locale);
    }

    /**
     * Reads a {@code --lang} value: {@code en}, {@code pt-BR} (also {@code pt}, {@code pt_BR}) or {@code es},
     * in any case.
     *
     * @throws IllegalArgumentException naming the languages there are, when {@code tag} is none of them
     */
    public static Language ofTag(String tag) {
        String t = tag.strip().replace('_', '-');
        for (Language l : values()) {
            if (l.tag.equalsIgnoreCase(t)) {
                return l;
            }
        }
        return forLanguageOf(Locale.forLanguageTag(t)).orElseThrow(() -> new IllegalArgumentException(
                "--lang " + tag + ": Lockstep speaks en (English), pt-BR (Português) and es (Español)"));
    }

    /**
     * The language for the operating system's locale: Portuguese for any {@code pt}, Spanish for any {@code es},
     * else English.
     */
    public static Language forLocale(Locale locale) {
        return forLanguageOf(locale).orElse(ENGLISH);
    }

    private static Optional<Language> forLanguageOf(Locale locale) {
        return switch (locale.getLanguage()) {
            case "en" -> Optional.of(ENGLISH);
            case "pt" -> Optional.of(PORTUGUESE_BRAZIL);
            case "es" -> Optional.of(SPANISH);
            default -> Optional.empty();
        };
    }
}
