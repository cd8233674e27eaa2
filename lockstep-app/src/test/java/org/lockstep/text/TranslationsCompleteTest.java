package org.lockstep.text;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.text.MessagePattern;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every English text the code or an FXML file gives {@code tr}, {@code Texts.key} or {@code %} has a translation in
 * Portuguese and in Spanish, with the same arguments; no translation file keeps a text nobody asks for, and no text is
 * translated in two areas (one would silently win). The check reads the sources, so it sees texts on screens no test
 * opens; {@code TranslatedWindowsTest} sees the ones built at run time.
 */
class TranslationsCompleteTest {

    private static final Pattern CALL = Pattern.compile("\\b(?:tr|key)\\(\\s*\"");
    private static final Pattern FXML_TEXT = Pattern.compile("=\"%([^\"]+)\"");
    private static final List<Language> TRANSLATED = List.of(Language.PORTUGUESE_BRAZIL, Language.SPANISH);

    @Test
    void everyTextOfTheCodeIsTranslatedIntoEachLanguage() {
        Set<String> used = usedTexts();
        assertThat(used).as("texts found in the sources").isNotEmpty();
        for (Language lang : TRANSLATED) {
            Set<String> missing = new TreeSet<>(used);
            missing.removeAll(Texts.translations(lang).keySet());
            assertThat(missing).as("texts without a %s translation", lang.tag()).isEmpty();
        }
    }

    @Test
    void noTranslationIsKeptForATextNobodyAsksFor() {
        Set<String> used = usedTexts();
        for (Language lang : TRANSLATED) {
            Set<String> unused = new TreeSet<>(Texts.translations(lang).keySet());
            unused.removeAll(used);
            assertThat(unused).as("%s translations of texts the code no longer has", lang.tag()).isEmpty();
        }
    }

    @Test
    void eachTranslationTakesTheSameArgumentsAsItsEnglish() {
        List<String> wrong = new ArrayList<>();
        for (Language lang : TRANSLATED) {
            Texts.translations(lang).forEach((english, translated) -> {
                try {
                    if (!arguments(english).equals(arguments(translated))) {
                        wrong.add(lang.tag() + ": \"" + english + "\" → \"" + translated + "\"");
                    }
                } catch (IllegalArgumentException notAPattern) {
                    wrong.add(lang.tag() + ": \"" + translated + "\": " + notAPattern.getMessage());
                }
            });
        }
        assertThat(wrong).as("translations whose arguments differ from the English, or that do not parse").isEmpty();
    }

    @Test
    void aTextIsTranslatedInOneAreaOnly() {
        for (Language lang : TRANSLATED) {
            Map<String, String> firstArea = new TreeMap<>();
            List<String> twice = new ArrayList<>();
            for (String area : Texts.AREAS) {
                for (Object key : Texts.area(area, lang).keySet()) {
                    String before = firstArea.putIfAbsent((String) key, area);
                    if (before != null) {
                        twice.add(lang.tag() + " \"" + key + "\" in " + before + " and " + area);
                    }
                }
            }
            assertThat(twice).isEmpty();
        }
    }

    @Test
    void portugueseAndSpanishHaveTheSameTexts() {
        assertThat(Texts.translations(Language.SPANISH).keySet())
                .containsExactlyInAnyOrderElementsOf(Texts.translations(Language.PORTUGUESE_BRAZIL).keySet());
    }

    /**
     * One word per language for the edit lock, in the operators' texts and the trainer's alike (issue 27): the editor,
     * the lock dialogs, the report, the timeline and the demo say "bloqueo" and "bloqueio"; the timeline once said
     * "concesión" and "concessão" for the same lease.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            SPANISH,           bloqueo,  (?isu).*concesi[óo]n.*
            PORTUGUESE_BRAZIL, bloqueio, (?isu).*concess(ão|ao|ões|oes).*
            """)
    void theLockHasOneWordInEachLanguage(Language lang, String word, String otherWord) {
        List<String> other = new ArrayList<>();
        Texts.translations(lang).forEach((english, translated) -> {
            if (translated.matches(otherWord)) {
                other.add("\"" + english + "\" → \"" + translated + "\"");
            }
        });
        assertThat(other).as("%s texts naming the lock other than \"%s\"", lang.tag(), word).isEmpty();
        assertThat(Texts.translations(lang).get("lease granted: token {0}")).startsWith(word);
    }

    /** The argument numbers a pattern uses. */
    private static Set<Integer> arguments(String pattern) {
        MessagePattern parsed = new MessagePattern(pattern);
        Set<Integer> numbers = new TreeSet<>();
        for (int i = 0; i < parsed.countParts(); i++) {
            if (parsed.getPart(i).getType() == MessagePattern.Part.Type.ARG_NUMBER) {
                numbers.add(parsed.getPart(i).getValue());
            }
        }
        return numbers;
    }

    @Test
    void noApostropheStandsBesideABrace() {
        List<String> quoted = new ArrayList<>();
        for (Language lang : TRANSLATED) {
            Texts.translations(lang).forEach((english, translated) -> {
                for (String text : List.of(english, translated)) {
                    if (text.replace("''", "").matches("(?s).*('[{}#|]|[{}]').*")) {
                        quoted.add(lang.tag() + ": " + text);
                    }
                }
            });
        }
        assertThat(quoted).as("an apostrophe beside a brace quotes it in ICU; write it twice ('') or reword").isEmpty();
    }

    /**
     * The English texts the main sources of every module ask to be translated (this module's tests run in
     * {@code lockstep-app}, beside the others); {@code -Dtexts.only=DIR,DIR} limits the search to some folders (to
     * check one area while the others are being translated).
     */
    static Set<String> usedTexts() {
        Set<String> texts = new TreeSet<>();
        String only = System.getProperty("texts.only");
        List<Path> roots = new ArrayList<>();
        if (only != null) {
            for (String root : only.split(",")) {
                roots.add(Path.of(root.strip()));
            }
        } else {
            try (Stream<Path> modules = Files.list(Path.of(".."))) {
                modules.filter(m -> m.getFileName().toString().startsWith("lockstep-"))
                        .map(m -> m.resolve("src/main")).filter(Files::isDirectory).sorted().forEach(roots::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        roots.forEach(root -> texts.addAll(usedTexts(root)));
        return texts;
    }

    private static Set<String> usedTexts(Path root) {
        Set<String> texts = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (name.endsWith(".java")) {
                    texts.addAll(javaTexts(file, Files.readString(file, StandardCharsets.UTF_8)));
                } else if (name.endsWith(".fxml")) {
                    Matcher m = FXML_TEXT.matcher(Files.readString(file, StandardCharsets.UTF_8));
                    while (m.find()) {
                        texts.add(m.group(1).replace("&amp;", "&").replace("&quot;", "\"").replace("&lt;", "<")
                                .replace("&gt;", ">"));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return texts;
    }

    /**
     * The literal first arguments of {@code tr(…)} and {@code key(…)} in one Java source, joined where the formatter
     * split them with {@code +}; a key built from anything but literals fails the test, since no file can hold it.
     */
    static List<String> javaTexts(Path file, String source) {
        List<String> texts = new ArrayList<>();
        Matcher m = CALL.matcher(source);
        while (m.find()) {
            int at = m.end() - 1;
            StringBuilder text = new StringBuilder();
            while (true) {
                at = literal(source, at, text);
                int next = skipBlank(source, at);
                if (next < source.length() && source.charAt(next) == '+') {
                    int after = skipBlank(source, next + 1);
                    if (after < source.length() && source.charAt(after) == '"') {
                        at = after;
                        continue;
                    }
                    throw new AssertionError(file + ": a text given to tr/key is built at run time, near \""
                            + text + "\"; give the whole sentence as a pattern with arguments");
                }
                break;
            }
            texts.add(text.toString());
        }
        return texts;
    }

    private static int skipBlank(String s, int at) {
        while (at < s.length() && Character.isWhitespace(s.charAt(at))) {
            at++;
        }
        return at;
    }

    /** Reads the Java string literal whose opening quote is at {@code at}; returns the index after its close. */
    private static int literal(String s, int at, StringBuilder out) {
        int i = at + 1;
        while (s.charAt(i) != '"') {
            char c = s.charAt(i);
            if (c == '\\') {
                char e = s.charAt(i + 1);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
                        i += 4;
                    }
                    default -> out.append(e);
                }
                i += 2;
            } else {
                out.append(c);
                i++;
            }
        }
        return i + 1;
    }
}
