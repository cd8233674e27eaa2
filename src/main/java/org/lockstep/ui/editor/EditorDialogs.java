package org.lockstep.ui.editor;

import java.util.Optional;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.TextInputDialog;
import javafx.stage.Window;
import org.lockstep.domain.Message;

/** The editor's small modal questions, owned by its window (none when the editor is in no window yet). */
final class EditorDialogs {

    private EditorDialogs() {
    }

    /** Asks {@code question}; true when the operator chose {@code yes}. */
    static boolean confirm(Window owner, String question, String yes, String no) {
        ButtonType confirm = new ButtonType(yes, ButtonBar.ButtonData.OK_DONE);
        ButtonType cancel = new ButtonType(no, ButtonBar.ButtonData.CANCEL_CLOSE);
        Alert alert = new Alert(Alert.AlertType.CONFIRMATION, question, confirm, cancel);
        alert.setHeaderText(null);
        alert.setTitle("Lockstep");
        alert.initOwner(owner);
        Optional<ButtonType> answer = alert.showAndWait();
        return answer.isPresent() && answer.get() == confirm;
    }

    /** "Message the holder…": the short message the operator wants to send {@code holder}, unless cancelled. */
    static Optional<String> askMessage(Window owner, String holder) {
        TextInputDialog dialog = new TextInputDialog("Please save, I need this customer");
        dialog.setTitle("Message " + holder);
        dialog.setHeaderText("Send " + holder + " a short message (at most " + Message.MAX_LENGTH + " characters)");
        dialog.getDialogPane().setId(EditorIds.MESSAGE_HOLDER);
        if (owner != null) {
            dialog.initOwner(owner);
        }
        return dialog.showAndWait();
    }
}
