package org.lockstep.ui.main;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.TextInputControl;
import javafx.stage.Window;
import org.lockstep.domain.Customer;
import org.lockstep.ui.list.ListIds;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The main window as a test sees it: the filter, the table, the editor pane and the status bar, found by their ids
 * and roles. The editor pane is read through its text controls only, so these tests hold for any editor that shows
 * a customer's values in text fields.
 */
final class MainWindowHandle {

    static final long TIMEOUT_S = 15;

    private final FxRobot robot;

    MainWindowHandle(FxRobot robot) {
        this.robot = robot;
    }

    TextField filter() {
        return robot.lookup("#" + ListIds.CUSTOMER_FILTER).queryAs(TextField.class);
    }

    @SuppressWarnings("unchecked")
    TableView<Customer> table() {
        return robot.lookup("#" + ListIds.CUSTOMER_TABLE).queryAs(TableView.class);
    }

    List<Customer> rows() {
        return List.copyOf(table().getItems());
    }

    String status() {
        return robot.lookup("#status").queryAs(Label.class).getText();
    }

    Node editorPane() {
        return robot.lookup(".split-pane").queryAs(SplitPane.class).getItems().get(1);
    }

    /** Whether a text control in {@code root} shows exactly {@code text}. */
    boolean shows(Node root, String text) {
        return findText(root, text).isPresent();
    }

    Optional<TextInputControl> findText(Node root, String text) {
        return robot.from(root).lookup((Node n) -> n instanceof TextInputControl t && text.equals(t.getText()))
                .tryQueryAs(TextInputControl.class);
    }

    /** Clicks the table cell showing {@code text}. */
    void clickCell(String text) {
        robot.clickOn(
                robot.from(table()).lookup(".table-cell").lookup((Node n) -> n instanceof javafx.scene.control.Labeled l
                        && text.equals(l.getText())).queryAs(Node.class));
    }

    List<Window> windows() {
        return robot.listTargetWindows();
    }

    static void await(java.util.concurrent.Callable<Boolean> condition) {
        try {
            WaitForAsyncUtils.waitFor(TIMEOUT_S, TimeUnit.SECONDS, condition);
        } catch (TimeoutException e) {
            throw new AssertionError("Condition not met within " + TIMEOUT_S + " s", e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }
}
