package org.lockstep.ui.lock;

import static org.lockstep.text.Texts.tr;

import javafx.event.ActionEvent;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextArea;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import org.lockstep.domain.Message;

/**
 * "Ask a supervisor…": the request's text, prefilled and editable, with Send and Cancel. Send starts the request's
 * send and keeps the dialog open while it runs (busy, Send disabled); it closes once the request went out, and says
 * why not otherwise, keeping the text. Binds to one {@link SupervisorAsk.Request}; decides nothing itself.
 */
public final class AskSupervisorDialog {

    /** The dialog pane's node id. */
    public static final String ID = "askSupervisorDialog";
    /** The request's text area. */
    public static final String TEXT_ID = "askSupervisorText";
    /** Why the send failed. */
    public static final String ERROR_ID = "askSupervisorError";

    private AskSupervisorDialog() {
    }

    /** Opens the dialog for {@code request}, owned by {@code owner} when it has one; returns at once. */
    public static Dialog<ButtonType> open(Window owner, SupervisorAsk.Request request) {
        Dialog<ButtonType> dialog = new Dialog<>();
        dialog.setTitle(tr("Ask a supervisor"));
        dialog.setHeaderText(tr("Only a supervisor can break this lock. Your request goes to the "
                + "supervisors (at most {0} characters).", Message.MAX_LENGTH));
        ButtonType send = new ButtonType(tr("Send"), ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(send, ButtonType.CANCEL);
        dialog.getDialogPane().setId(ID);

        TextArea text = new TextArea();
        text.setId(TEXT_ID);
        text.setWrapText(true);
        text.setPrefRowCount(3);
        text.setPrefColumnCount(40);
        text.textProperty().bindBidirectional(request.textProperty());
        text.disableProperty().bind(request.busyProperty());
        ProgressIndicator busy = new ProgressIndicator();
        busy.setPrefSize(16, 16);
        Label sending = new Label(tr("Sending…"), busy);
        sending.visibleProperty().bind(request.busyProperty());
        sending.managedProperty().bind(sending.visibleProperty());
        Label error = new Label();
        error.setId(ERROR_ID);
        error.getStyleClass().add("ask-supervisor-error");
        error.setWrapText(true);
        error.textProperty().bind(request.errorProperty());
        error.visibleProperty().bind(request.errorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        VBox content = new VBox(8, text, new HBox(8, sending), error);
        dialog.getDialogPane().setContent(content);

        Button sendButton = (Button) dialog.getDialogPane().lookupButton(send);
        sendButton.disableProperty().bind(request.canSendProperty().not());
        // Send must not close the dialog: it closes once the request went out, and stays (with the text) if not.
        sendButton.addEventFilter(ActionEvent.ACTION, e -> {
            e.consume();
            request.send();
        });
        request.sentProperty().addListener((obs, was, now) -> {
            if (now) {
                dialog.setResult(send);
                dialog.close();
            }
        });
        if (owner != null) {
            dialog.initOwner(owner);
        }
        dialog.setResizable(true);
        dialog.show();
        text.requestFocus();
        text.end();
        return dialog;
    }
}
