package org.lockstep.text;

import com.ibm.icu.text.MessageFormat;
import com.ibm.icu.text.MessagePattern;
import com.ibm.icu.text.NumberFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The texts the desktop UI shows, in the operator's {@link Language} (issue 16; JabRef's {@code Localization.lang}
 * idea): the English sentence in the code is the key, and its translations live in
 * {@code org/lockstep/text/<area>_pt_BR.properties} and {@code <area>_es.properties}, one pair per area of the UI.
 *
 * <p>Texts are ICU message patterns ({@link MessageFormat}, ICU4J): {@code {0}} is an argument,
 * {@code {0, plural, one {# field} other {# fields}}} chooses by the language's plural rules (CLDR), and
 * {@code {0, number}} writes a number in the language's digits and grouping. A plain {@code {0}} writes an integer
 * as it is ({@code customer 12345}, never {@code 12,345}): ids and versions are names, not quantities. A single
 * apostrophe is literal ({@code it's}); before a brace it quotes, so texts never put {@code '} beside {@code {}.
 *
 * <p>The language is one per process: the desktop app chooses it at start ({@code --lang}, else the operating
 * system's) and View → Language switches it (the desktop's {@code LanguageSwitch} then rebuilds its windows); the
 * command line never changes it, so it stays English. A text without a translation shows in
 * English and is reported once to the {@linkplain #onMissing missing-text listener} (a warning in the log; tests
 * collect them and fail).
 */
public final class Texts {

    /** The areas whose translation files are read, one pair of files each. */
    static final List<String> AREAS = List.of("core", "editor", "list", "merge", "lock", "lab", "report", "timeline",
            "demo", "store");

    private static final Logger LOG = LoggerFactory.getLogger(Texts.class);
    private static final Map<Language, Map<String, String>> TRANSLATIONS = new EnumMap<>(Language.class);
    private static final Map<Language, Map<String, Compiled>> FORMATS = new ConcurrentHashMap<>();
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();
    private static volatile Language language = Language.ENGLISH;
    private static volatile Consumer<String> missing = key -> LOG.warn("No translation for \"{}\"", key);

    private Texts() {
    }

    /**
     * The text {@code english} in the current language, its arguments filled in.
     *
     * @param english the English ICU message pattern, which is also the key of its translations
     * @param args    the pattern's arguments {@code {0}}, {@code {1}} …
     */
    public static String tr(String english, Object... args) {
        return in(language, english, args);
    }

    /** The text {@code english} in {@code lang}, whatever the current language is. */
    public static String in(Language lang, String english, Object... args) {
        Compiled compiled = FORMATS.computeIfAbsent(lang, l -> new ConcurrentHashMap<>())
                .computeIfAbsent(english, key -> compile(lang, key));
        if (compiled.literal != null) {
            return compiled.literal;
        }
        Object[] filled = compiled.plainIntegers(args);
        synchronized (compiled.format) { // a Format is not safe for threads; texts are asked from tasks too
            return compiled.format.format(filled);
        }
    }

    /**
     * Marks {@code english} as a text the UI shows later through {@code tr(key)} — a label kept in an enum or a table
     * — so the check that every text has its translations finds it; returns it unchanged.
     */
    public static String key(String english) {
        return english;
    }

    /** The current language: English unless the desktop app chose another. */
    public static Language language() {
        return language;
    }

    /** The current language's locale (plural rules, month names). */
    public static Locale locale() {
        return language.locale();
    }

    /** Makes {@code lang} the language of every text asked for from now on (the desktop app's start; tests). */
    public static void use(Language lang) {
        language = lang;
    }

    /**
     * Sets who hears of a text without a translation (each key once per process until it is set again) and returns
     * the one before, so a test can collect them and put the old one back.
     */
    public static Consumer<String> onMissing(Consumer<String> listener) {
        Consumer<String> before = missing;
        missing = listener;
        REPORTED.clear();
        return before;
    }

    /** {@code n} with the current language's grouping: {@code 12,300} or {@code 12.300}. */
    public static String number(long n) {
        return NumberFormat.getIntegerInstance(locale()).format(n);
    }

    /**
     * The current language's texts as a {@link ResourceBundle} for {@code FXMLLoader}, so {@code text="%Save"} in
     * FXML shows "Salvar" in Portuguese.
     */
    public static ResourceBundle bundle() {
        return new ResourceBundle() {
            @Override
            protected Object handleGetObject(String key) {
                return tr(key);
            }

            @Override
            public Enumeration<String> getKeys() {
                return Collections.emptyEnumeration();
            }

            // FXMLLoader asks containsKey before getString, and fails a "%text" it is told is missing. Every English
            // text is its own key: an untranslated one shows in English (and is reported), as tr does.
            @Override
            public boolean containsKey(String key) {
                return key != null;
            }
        };
    }

    /** Every translated key of {@code lang} with its translation, from all areas (tests check them). */
    static synchronized Map<String, String> translations(Language lang) {
        return TRANSLATIONS.computeIfAbsent(lang, Texts::load);
    }

    /** The keys of one area file of {@code lang}, in no order; empty when the file is missing. */
    static Properties area(String area, Language lang) {
        Properties p = new Properties();
        String name = area + lang.bundleSuffix() + ".properties";
        try (InputStream in = Texts.class.getResourceAsStream(name)) {
            if (in != null) {
                p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the translations " + name, e);
        }
        return p;
    }

    private static Map<String, String> load(Language lang) {
        Map<String, String> all = new HashMap<>();
        if (lang != Language.ENGLISH) {
            for (String area : AREAS) {
                area(area, lang).forEach((k, v) -> all.put((String) k, (String) v));
            }
        }
        return Map.copyOf(all);
    }

    private static Compiled compile(Language lang, String english) {
        String pattern = english;
        if (lang != Language.ENGLISH) {
            String translated = translations(lang).get(english);
            if (translated != null) {
                pattern = translated;
            } else if (REPORTED.add(lang.tag() + "\u0000" + english)) {
                missing.accept(english);
            }
        }
        return Compiled.of(pattern, lang.locale());
    }

    /**
     * A compiled pattern and the arguments only a plain {@code {n}} writes: their integers are turned into digits,
     * since ICU would group them ({@code 12,345}) — right for quantities ({@code {n, number}}, plurals), wrong for ids.
     * A text without braces or apostrophes reads as itself in ICU's syntax: it is kept as it is ({@code literal}), with
     * no format made for it.
     */
    private record Compiled(String literal, MessageFormat format, Set<Integer> plainOnly) {

        static Compiled of(String source, Locale locale) {
            // Most of what a window shows (menus, buttons, column headers, tooltips) is such text; a MessageFormat
            // parsed and made for each cost the desktop's start several ms (issue 30, docs/benchmarks.md, "phase 6").
            if (source.chars().noneMatch(c -> c == '{' || c == '}' || c == '\'')) {
                return new Compiled(source, null, Set.of());
            }
            Set<Integer> typed = new HashSet<>();
            Set<Integer> plain = new HashSet<>();
            MessagePattern pattern = new MessagePattern(source);
            for (int i = 0; i + 1 < pattern.countParts(); i++) {
                MessagePattern.Part part = pattern.getPart(i);
                MessagePattern.Part name = pattern.getPart(i + 1);
                if (part.getType() == MessagePattern.Part.Type.ARG_START
                        && name.getType() == MessagePattern.Part.Type.ARG_NUMBER) {
                    (part.getArgType() == MessagePattern.ArgType.NONE ? plain : typed).add(name.getValue());
                }
            }
            plain.removeAll(typed);
            return new Compiled(null, new MessageFormat(source, locale), Set.copyOf(plain));
        }

        Object[] plainIntegers(Object[] args) {
            Object[] out = args.clone();
            for (int i = 0; i < out.length; i++) {
                boolean integer = out[i] instanceof Integer || out[i] instanceof Long || out[i] instanceof Short
                        || out[i] instanceof BigInteger;
                if (integer && plainOnly.contains(i)) {
                    out[i] = out[i].toString();
                }
            }
            return out;
        }
    }
}
