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

    /**
     * Opens a window editing one customer with the keyboard in its first field once it has loaded, for an operator a
     * script sent there ({@code lockstep edit ID}).
     */
    public static Stage openFocused(EditorServices services, long customerId) {
        Stage stage = open(services, customerId);
        CustomerEditorViewModel viewModel = current(stage).viewModel();
        javafx.beans.value.ChangeListener<Boolean> once = new javafx.beans.value.ChangeListener<>() {
            @Override
            public void changed(javafx.beans.value.ObservableValue<? extends Boolean> obs, Boolean was, Boolean now) {
                if (now) {
                    obs.removeListener(this);
                    stage.requestFocus();
                    current(stage).focusFirstField();
                }
            }
        };
        viewModel.status().editableProperty().addListener(once);
        return stage;
    }

    /**
     * Moves an editor window to other services, keeping its unsaved edits: the database came back after the
     * application started without it (issue 28), and the editor opened on a draft over the unreachable store goes on
     * over the real one. The window stays where it is; its edits, with a merge the draft kept, are restored in a new
     * editor under the same draft ({@link CustomerEditorViewModel#handOver}), which reads the customer as it is now —
     * so Save is the ordinary versioned save from the draft's base — and the field that had the keyboard keeps it.
     * An editor with nothing unsaved loads its customer again. FX thread.
     *
     * @param stage  a window this class opened
     * @param online the services the editor goes on with
     */
    public static void handOver(Stage stage, EditorServices online) {
        CustomerEditorView was = current(stage);
        javafx.scene.Node focused = stage.getScene().getFocusOwner();
        String focusedId = focused == null ? null : focused.getId();
        was.retire(); // the text being typed goes into the buffer first
        CustomerEditorViewModel old = was.viewModel();
        java.util.OptionalLong id = old.customerId();
        Optional<Draft> edits = old.handOver();
        CustomerEditorViewModel next = new CustomerEditorViewModel(online);
        if (edits.isPresent()) {
            next.restore(edits.get());
        } else if (id.isPresent()) {
            next.load(id.getAsLong());
        } else {
            next.startNew();
        }
        CustomerEditorView fresh = new CustomerEditorView(next);
        fresh.usePlaces(online.places());
        stage.getScene().setRoot(fresh.root());
        stage.setUserData(fresh);
        attach(stage, next, c -> {}, gone -> {});
        if (focusedId != null) {
            javafx.scene.Node again = fresh.root().lookup("#" + focusedId);
            if (again != null) {
                again.requestFocus();
            }
        }
    }

    private static Stage show(EditorServices services, CustomerEditorViewModel viewModel,
            Consumer<Customer> onSaved, Consumer<Long> onDeleted) {
        Stage stage = new Stage();
        CustomerEditorView view = new CustomerEditorView(viewModel);
        view.usePlaces(services.places());
        stage.setScene(new Scene(view.root()));
        // A language switch builds the view again over the same view model (its unsaved edits stay), unless the
        // view's merge or delete-conflict dialog is open: that one belongs to the view shown.
        LanguageSwitch.follow(stage, () -> !current(stage).hasOpenDialog(), () -> {
            CustomerEditorView shown = current(stage);
            shown.retire();
            CustomerEditorView fresh = new CustomerEditorView(shown.viewModel());
            fresh.usePlaces(services.places());
            fresh.viewModel().speakAgain();
            stage.getScene().setRoot(fresh.root());
            stage.setUserData(fresh);
        });
        stage.setMinWidth(560);
        stage.setMinHeight(420);
        stage.setUserData(view);
        attach(stage, viewModel, onSaved, onDeleted);
        // The view model shown now, whichever it is (handOver replaces it).
        stage.setOnCloseRequest(e -> confirmClose(stage, current(stage).viewModel(), e));
        // Hidden however it closed (saved and closed, discarded, deleted, closed by the program): let the lease go.
        stage.setOnHidden(e -> current(stage).viewModel().close());
        services.places().show(stage, "editor", null, SCREEN_SHARE, WIDTH, HEIGHT);
        return stage;
    }

    /** What ties {@code viewModel} to the window: its title, the listeners, and closing once the customer is gone. */
    private static void attach(Stage stage, CustomerEditorViewModel viewModel, Consumer<Customer> onSaved,
            Consumer<Long> onDeleted) {
        catchUpWhenDialogsClose(stage, viewModel);
        stage.titleProperty().bind(viewModel.status().titleProperty());
        viewModel.setOnSaved(onSaved);
        viewModel.setOnDeleted(id -> {
            onDeleted.accept(id);
            stage.close();
        });
    }

    private static CustomerEditorView current(Stage stage) {
        return (CustomerEditorView) stage.getUserData();
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
