package org.lockstep.ui.theme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.css.Declaration;
import javafx.css.Rule;
import javafx.css.Stylesheet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The compiled stylesheet of each look, which the build makes (lockstep-desktop/pom.xml), holds exactly the rules of
 * its sources as {@link Themes.Look} names them — AtlantaFX's theme, the look's palette, then {@code lockstep.css} —
 * compiled here again from those sources by JavaFX's public {@link Stylesheet#convertToBinary}: a source the build
 * left out, a stale file or a list in the pom that no longer matches the enum fails here, rule by rule, values and
 * all. Both sides are read back the same way, since a parsed and a decoded value print differently.
 */
class ThemesStylesheetTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Themes.Look.class)
    void theCompiledStylesheetHoldsEveryRuleOfItsSourcesInOrder(Themes.Look look) throws IOException {
        Path css = dir.resolve("sources.css");
        Files.writeString(css, read(look.theme) + "\n" + read(look.palette) + "\n" + read("lockstep.css"));
        Path expected = dir.resolve("expected.bss");
        Stylesheet.convertToBinary(css.toFile(), expected.toFile());
        Path shared = dir.resolve("shared.css");
        Files.writeString(shared, read("lockstep.css"));
        Path sharedOnly = dir.resolve("shared.bss");
        Stylesheet.convertToBinary(shared.toFile(), sharedOnly.toFile());

        List<String> shipped = rules(new URL(Themes.stylesheet(look)));
        List<String> fromSources = rules(expected.toUri().toURL());

        assertThat(fromSources).hasSizeGreaterThan(1_000); // AtlantaFX's theme alone has about 1,050
        assertThat(shipped).containsExactlyElementsOf(fromSources);
        // The shared rules come last, after the theme's and the palette's.
        List<String> last = rules(sharedOnly.toUri().toURL());
        assertThat(shipped.subList(shipped.size() - last.size(), shipped.size())).isEqualTo(last);
    }

    /** Each rule's selectors and declarations, values included; a url(…) value's base (the sheet itself) left out. */
    private static List<String> rules(URL sheet) throws IOException {
        return Stylesheet.loadBinary(sheet).getRules().stream()
                .map(r -> describe(r).replace(sheet.toExternalForm(), "(this sheet)"))
                .toList();
    }

    private static String describe(Rule rule) {
        // Rule.toString leaves out the declarations a binary stylesheet has not decoded yet: ask for them.
        StringBuilder s = new StringBuilder(rule.getSelectors().toString()).append(" {");
        for (Declaration d : rule.getDeclarations()) {
            s.append(' ').append(d.getProperty()).append(": ").append(d.getParsedValue())
                    .append(d.isImportant() ? " !important;" : ";");
        }
        return s.append(" }").toString();
    }

    private static String read(String name) throws IOException {
        try (InputStream in = Themes.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
