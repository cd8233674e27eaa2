package org.lockstep.ui.main;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.ui.main.MainWindowHandle.await;

import java.util.ArrayList;
import java.util.List;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.CustomerBuilder;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.editor.CustomerEditorWindow;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.guihandles.Fx;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * Every control the keyboard can reach in the main window and in an editor window has a name a screen reader can
 * read: its own text (a button's, a check box's), an accessible text, or a label that is {@code labelFor} it.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class AccessibleNamesTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    static Customer customer;

    EditorServices services;

    @BeforeAll
    static void seed() {
        executor = new FxTaskExecutor(2);
        customer = new JdbiCustomerRepository(db.jdbi(), "Setup").create(CustomerBuilder.aCustomer().build());
    }

    @AfterAll
    static void close() {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    @Start
    void start(Stage stage) {
        services = Sessions.services(db, "Ana", executor, Platform::runLater, Sessions.quickLocks());
        MainWindow.show(stage, services);
    }

    @Test
    void everyFocusableControlOfTheMainWindowAndAnEditorWindowHasAName(FxRobot robot) {
        MainWindowHandle main = new MainWindowHandle(robot);
        await(() -> main.rows().size() == 1);
        Fx.run(() -> main.table().getSelectionModel().select(0));
        await(() -> main.shows(main.editorPane(), customer.data().contactName()));

        Parent mainRoot = Fx.call(() -> main.table().getScene().getRoot());
        assertThat(Fx.call(() -> unnamed(mainRoot))).as("unnamed focusable controls of the main window").isEmpty();

        Stage editor = Fx.call(() -> CustomerEditorWindow.open(services, customer.id()));
        try {
            await(() -> Fx.call(() -> editor.getScene()
                    .lookup("#" + EditorIds
                            .field(CustomerField.CONTACT_NAME)) instanceof javafx.scene.control.TextInputControl t
                    && customer.data().contactName().equals(t.getText())));
            Parent editorRoot = Fx.call(() -> editor.getScene().getRoot());
            assertThat(Fx.call(() -> unnamed(editorRoot))).as("unnamed focusable controls of the editor").isEmpty();
        } finally {
            Fx.run(editor::close);
        }
    }

    /** The focusable, shown controls under {@code root} that have no name, as "Class#id". */
    static List<String> unnamed(Parent root) {
        List<Label> labels = new ArrayList<>();
        List<Control> focusable = new ArrayList<>();
        collect(root, labels, focusable);
        List<String> missing = new ArrayList<>();
        for (Control c : focusable) {
            boolean named = (c.getAccessibleText() != null && !c.getAccessibleText().isBlank())
                    || (c instanceof Labeled l && l.getText() != null && !l.getText().isBlank())
                    || labels.stream().anyMatch(l -> l.getLabelFor() == c);
            if (!named) {
                missing.add(c.getClass().getSimpleName() + "#" + c.getId());
            }
        }
        return missing;
    }

    private static void collect(Node node, List<Label> labels, List<Control> focusable) {
        if (!node.isVisible()) {
            return;
        }
        if (node instanceof Label l) {
            labels.add(l);
        }
        if (node instanceof Control c && c.isFocusTraversable() && !c.isDisabled()) {
            focusable.add(c);
        }
        if (node instanceof Parent p) {
            p.getChildrenUnmodifiable().forEach(child -> collect(child, labels, focusable));
        }
    }
}
