package org.lockstep.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No screen text is left in English for every language: in the views, view models and the shell, a literal with words
 * given straight to a label, button, menu, tab, column, tooltip, prompt, title, accessible name or dialog is a text
 * that {@code tr} never sees, and an FXML {@code text="Save"} without {@code %} is the same. (A translation that is
 * missing for a text {@code tr} sees is {@code lockstep-app}'s {@code TranslationsCompleteTest}'s business.)
 */
class NoUntranslatedLiteralsTest {

    private static final Pattern JAVA = Pattern.compile("(?:\\.set(?:Text|Title|PromptText|AccessibleText"
            + "|AccessibleHelp|HeaderText|ContentText)|new (?:Label|Button|MenuItem|Menu|CheckBox|RadioButton"
            + "|RadioMenuItem|CheckMenuItem|Tab|Tooltip|Hyperlink|ToggleButton|TitledPane)|new TableColumn<[^>]*>)"
            + "\\(\\s*\"([^\"]*\\p{L}{2}[^\"]*)\"");
    private static final Pattern FXML = Pattern.compile("\\b(?:text|promptText|accessibleText|accessibleHelp|title)"
            + "=\"([^\"%$][^\"]*\\p{L}{2}[^\"]*)\"");
    private static final List<String> SCREENS = List.of("src/main/java/org/lockstep/ui",
            "src/main/java/org/lockstep/shell", "src/main/resources/org/lockstep/ui");

    @Test
    void everyScreenTextGoesThroughTr() throws IOException {
        List<String> found = new ArrayList<>();
        for (String root : SCREENS) {
            try (Stream<Path> files = Files.walk(Path.of(root))) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    String name = file.getFileName().toString();
                    Pattern pattern = name.endsWith(".java") ? JAVA : name.endsWith(".fxml") ? FXML : null;
                    if (pattern != null) {
                        Matcher m = pattern.matcher(Files.readString(file, StandardCharsets.UTF_8));
                        while (m.find()) {
                            if (m.group(1).equals("Lockstep")) {
                                continue; // the product's name is the same in every language
                            }
                            found.add(file.getFileName() + ": \"" + m.group(1) + "\"");
                        }
                    }
                }
            }
        }
        assertThat(found).as("screen texts given as plain English literals (wrap them in tr, or %key in FXML)")
                .isEmpty();
    }
}
