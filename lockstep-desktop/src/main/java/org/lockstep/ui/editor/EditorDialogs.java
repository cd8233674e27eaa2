package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

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
        TextInputDialog dialog = new TextInputDialog(tr("Please save, I need this customer"));
        dialog.setTitle(tr("Message {0}", holder));
        dialog.setHeaderText(tr("Send {0} a short message (at most {1} characters)", holder, Message.MAX_LENGTH));
        dialog.getDialogPane().setId(EditorIds.MESSAGE_HOLDER);
        if (owner != null) {
            dialog.initOwner(owner);
        }
        return dialog.showAndWait();
    }
}
