package org.lockstep.shell;

import static org.lockstep.text.Texts.tr;

import java.util.Optional;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.layout.VBox;

/**
 * Asks for the password of the operator's login on a team server, when none came from the URL, {@code PGPASSWORD}
 * or {@code ~/.pgpass} (issue 26). What is typed goes to the connection and nowhere else: not to a file, the
 * preferences or the log. Shown without blocking: {@code onSignIn} gets the password, {@code onCancel} runs when
 * the operator gives up.
 */
final class SignInDialog {

    /** The dialog pane's id, for tests. */
    static final String ID = "sign-in";

    private SignInDialog() {
    }

    /**
     * Shows the dialog.
     *
     * @param login    the login the server asked about, or {@code null} when the URL names none
     * @param refused  whether a password was just refused (the dialog says so)
     * @param onSignIn receives the typed password
     * @param onCancel runs when the operator cancels or closes the dialog
     */
    static void show(String login, boolean refused, Consumer<String> onSignIn, Runnable onCancel) {
        Dialog<String> dialog = new Dialog<>();
        dialog.setTitle(tr("Lockstep — sign in"));
        dialog.setHeaderText(login == null ? tr("Sign in to the team''s database")
                : tr("Sign in to the team''s database as {0}", login));
        ButtonType signIn = new ButtonType(tr("Sign in"), ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(signIn, ButtonType.CANCEL);
        dialog.getDialogPane().setId(ID);

        PasswordField password = new PasswordField();
        password.setId("sign-in-password");
        password.setPromptText(tr("Password"));
        Label why = new Label(refused ? tr("The server did not accept that password. Try again.")
                : tr("The server asks for your password; it is used for this session only and kept nowhere."));
        why.setId("sign-in-reason");
        why.setWrapText(true);
        VBox content = new VBox(8, why, password);
        content.setPadding(new Insets(4, 0, 0, 0));
        content.setPrefWidth(380);
        dialog.getDialogPane().setContent(content);
        dialog.getDialogPane().lookupButton(signIn).disableProperty().bind(password.textProperty().isEmpty());
        dialog.setResultConverter(b -> b == signIn ? password.getText() : null);
        // The starting window stays open behind: with no window open, JavaFX would exit.
        dialog.setOnShown(e -> Platform.runLater(password::requestFocus));
        dialog.setOnHidden(e -> {
            Optional<String> typed = Optional.ofNullable(dialog.getResult());
            password.clear();
            typed.ifPresentOrElse(onSignIn, onCancel);
        });
        dialog.show();
    }
}
