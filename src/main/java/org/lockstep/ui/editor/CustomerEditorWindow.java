package org.lockstep.ui.editor;

import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.stage.Stage;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.ui.TaskExecutor;

/**
 * One customer in its own window, so that an operator can keep several open, or the same customer twice.
 *
 * <p>Interim version for main-window development; the ui-editor branch provides the full editor with the same API.
 */
public final class CustomerEditorWindow {

    private CustomerEditorWindow() {
    }

    /**
     * Opens and shows a window editing one customer; it loads in the background.
     *
     * @return the window's stage, already showing
     */
    public static Stage open(CustomerRepository repository, TaskExecutor executor, String user, long customerId) {
        CustomerEditorViewModel vm = new CustomerEditorViewModel(repository, executor, user);
        Stage stage = new Stage();
        stage.setTitle("Lockstep — customer " + customerId + " — " + user);
        stage.setScene(new Scene(new CustomerEditorView(vm).root(), 560, 640));
        stage.setMinWidth(360);
        stage.setMinHeight(300);
        vm.baseProperty().addListener((obs, was, now) -> {
            if (now != null) {
                stage.setTitle("Lockstep — " + now.data().displayName() + " — " + user);
            }
        });
        stage.setOnCloseRequest(e -> {
            if (vm.dirtyProperty().get()) {
                Alert ask = new Alert(Alert.AlertType.CONFIRMATION, "This customer has unsaved changes. Close and "
                        + "discard them?", ButtonType.CANCEL, ButtonType.OK);
                ask.initOwner(stage);
                if (ask.showAndWait().orElse(ButtonType.CANCEL) != ButtonType.OK) {
                    e.consume();
                }
            }
        });
        vm.load(customerId);
        stage.show();
        return stage;
    }
}
