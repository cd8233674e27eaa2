package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.util.Optional;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
import org.lockstep.domain.Customer;
import org.lockstep.drafts.Draft;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.LanguageSwitch;

/**
 * The customer editor in its own window. The title reads "Acme — Customer #3 — Lockstep — alice", with "•" in
 * front while there are unsaved edits; closing a window with unsaved edits asks Save / Discard / Cancel. The window
 * closes itself once its customer is deleted. However it closes, its lease (if it holds one) is released. Call on
 * the FX thread.
 */
@AllowedToUseEditorViewModel("the window creates the view model it shows and tells it when it closes")
public final class CustomerEditorWindow {

    /** Width and height of a first editor window, in pixels, where the screen has room. */
    static final double WIDTH = 880;
    static final double HEIGHT = 660;
    /** The share of the screen a first editor window takes when that is more. */
    static final double SCREEN_SHARE = 0.5;

    private CustomerEditorWindow() {
    }

    /**
     * Opens a window editing one customer; the record loads in the background.
     *
     * @param services the process's services; the operator's name is shown in the title
     * @return the window, already showing
     */
    public static Stage open(EditorServices services, long customerId) {
        return open(services, customerId, c -> {}, id -> {});
    }

    /**
     * As {@link #open(EditorServices, long)}, telling the caller (e.g. the customer list) about every save and about
     * the delete, on the FX thread.
     */
    public static Stage open(EditorServices services, long customerId, Consumer<Customer> onSaved,
            Consumer<Long> onDeleted) {
        CustomerEditorViewModel viewModel = new CustomerEditorViewModel(services);
        viewModel.load(customerId);
        return show(services, viewModel, onSaved, onDeleted);
    }

    /** Opens a window on a blank new customer; Save creates it. Listeners as in the other {@code open}. */
    public static Stage openNew(EditorServices services, Consumer<Customer> onSaved, Consumer<Long> onDeleted) {
        CustomerEditorViewModel viewModel = new CustomerEditorViewModel(services);
        viewModel.startNew();
        return show(services, viewModel, onSaved, onDeleted);
    }

    /**
     * Opens a window on a draft kept from before the client ended ({@link CustomerEditorViewModel#restore}): its
     * typed text on its base version. Listeners as in the other {@code open}.
     */
    public static Stage restore(EditorServices services, Draft draft, Consumer<Customer> onSaved,
            Consumer<Long> onDeleted) {
        CustomerEditorViewModel viewModel = new CustomerEditorViewModel(services);
        viewModel.restore(draft);
        return show(services, viewModel, onSaved, onDeleted);
    }

    private static Stage show(EditorServices services, CustomerEditorViewModel viewModel,
            Consumer<Customer> onSaved, Consumer<Long> onDeleted) {
        Stage stage = new Stage();
        CustomerEditorView view = new CustomerEditorView(viewModel);
        view.usePlaces(services.places());
        stage.setScene(new Scene(view.root()));
        // A language switch builds the view again over the same view model (its unsaved edits stay), unless the
        // view's merge or delete-conflict dialog is open: that one belongs to the view shown.
        LanguageSwitch.follow(stage, () -> !((CustomerEditorView) stage.getUserData()).hasOpenDialog(), () -> {
            ((CustomerEditorView) stage.getUserData()).retire();
            CustomerEditorView fresh = new CustomerEditorView(viewModel);
            fresh.usePlaces(services.places());
            stage.getScene().setRoot(fresh.root());
            stage.setUserData(fresh);
        });
        catchUpWhenDialogsClose(stage, viewModel);
        stage.setMinWidth(560);
        stage.setMinHeight(420);
        stage.titleProperty().bind(viewModel.status().titleProperty());
        stage.setUserData(view);
        viewModel.setOnSaved(onSaved);
        viewModel.setOnDeleted(id -> {
            onDeleted.accept(id);
            stage.close();
        });
        stage.setOnCloseRequest(e -> confirmClose(stage, viewModel, e));
        // Hidden however it closed (saved and closed, discarded, deleted, closed by the program): let the lease go.
        stage.setOnHidden(e -> viewModel.close());
        services.places().show(stage, "editor", null, SCREEN_SHARE, WIDTH, HEIGHT);
        return stage;
    }

    /**
     * A switch made while the merge or delete-conflict dialog was open left the window in the language before: it
     * speaks the new one as soon as the dialog has closed (later on the FX thread: the view closes its dialog on the
     * same change). For an editor window and for the main window, whose pane's dialog holds it back alike.
     */
    public static void catchUpWhenDialogsClose(Window window, CustomerEditorViewModel viewModel) {
        javafx.beans.value.ChangeListener<Object> closed = (obs, was, now) -> {
            if (now == null) {
                Platform.runLater(() -> LanguageSwitch.catchUp(window));
            }
        };
        viewModel.conflicts().mergeProperty().addListener(closed);
        viewModel.conflicts().deleteConflictProperty().addListener(closed);
    }

    private static void confirmClose(Stage stage, CustomerEditorViewModel viewModel, WindowEvent request) {
        EditorState state = viewModel.stateProperty().get();
        boolean editing = state == EditorState.EDITING || state == EditorState.NEW;
        if (!viewModel.buffer().dirtyProperty().get() || !editing) {
            return;
        }
        request.consume();
        ButtonType save = new ButtonType(tr("Save"), ButtonBar.ButtonData.YES);
        ButtonType discard = new ButtonType(tr("Discard"), ButtonBar.ButtonData.NO);
        ButtonType cancel = new ButtonType(tr("Cancel"), ButtonBar.ButtonData.CANCEL_CLOSE);
        String question = tr("Your changes to {0} are not saved yet.", viewModel.status().displayNameProperty().get());
        Alert alert = new Alert(Alert.AlertType.CONFIRMATION, question, save, discard, cancel);
        alert.setTitle("Lockstep");
        alert.setHeaderText(tr("Save your changes before closing?"));
        alert.initOwner(stage);
        Optional<ButtonType> answer = alert.showAndWait();
        if (answer.isEmpty() || answer.get() == cancel) {
            return;
        }
        if (answer.get() == discard) {
            stage.close();
        } else {
            // Closes once saved; a conflict, an invalid value or an unreachable database keeps the window open.
            viewModel.saves().saveAndThen(stage::close);
        }
    }
}
