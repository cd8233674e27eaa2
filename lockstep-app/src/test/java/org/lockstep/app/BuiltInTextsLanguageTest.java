package org.lockstep.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * JavaFX's own texts (an alert's title and its OK/Cancel buttons) speak the language the windows speak, whatever the
 * operating system's locale, and the format locale the editor reads numbers in stays the one the system (or
 * {@code --locale}) gave.
 */
@WindowTest
@ExtendWith(ApplicationExtension.class)
class BuiltInTextsLanguageTest {

    private Locale before;
    private Locale beforeFormat;
    private Locale beforeDisplay;

    @BeforeEach
    void systemInGerman() {
        before = Locale.getDefault();
        beforeFormat = Locale.getDefault(Locale.Category.FORMAT);
        beforeDisplay = Locale.getDefault(Locale.Category.DISPLAY);
        Locale.setDefault(Locale.GERMANY);
    }

    @AfterEach
    void restore() {
        Texts.use(Language.ENGLISH);
        Locale.setDefault(before);
        Locale.setDefault(Locale.Category.FORMAT, beforeFormat);
        Locale.setDefault(Locale.Category.DISPLAY, beforeDisplay);
    }

    @ParameterizedTest
    @CsvSource({"ENGLISH, Confirmation, Cancel, Error", "PORTUGUESE_BRAZIL, Confirmação, Cancelar, Erro",
            "SPANISH, Confirmación, Cancelar, Error"})
    void alertsTitlesAndButtonsFollowTheChosenLanguage(Language language, String confirmTitle, String cancel,
            String errorTitle) throws Exception {
        DesktopApp.speak(language);

        List<String> shown = WaitForAsyncUtils.asyncFx(() -> {
            Alert confirm = new Alert(Alert.AlertType.CONFIRMATION, "?");
            Button cancelButton = (Button) confirm.getDialogPane().lookupButton(ButtonType.CANCEL);
            Alert error = new Alert(Alert.AlertType.ERROR, "!");
            return List.of(confirm.getTitle(), cancelButton.getText(), error.getTitle());
        }).get(10, TimeUnit.SECONDS);

        assertThat(shown).containsExactly(confirmTitle, cancel, errorTitle);
        assertThat(Texts.language()).isEqualTo(language);
        assertThat(Locale.getDefault(Locale.Category.FORMAT)).isEqualTo(Locale.GERMANY);
    }
}
