package org.lockstep.ui.main;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.ui.main.MainWindowHandle.await;

import java.util.List;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.DialogPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseOutage;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.editor.EditorState;
import org.lockstep.ui.list.ListIds;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The main window on a real database holding a handful of customers with accented names. */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class MainWindowTest {

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository repository;
    static FxTaskExecutor executor;
    static List<Customer> customers;

    MainWindow window;

    @BeforeAll
    static void seed() {
        repository = new JdbiCustomerRepository(db.jdbi(), "Zoë");
        executor = new FxTaskExecutor(2);
        customers = List.of(
                repository.create(customer("Müller & Söhne GmbH", "Jürgen Müller", "Zürich", "Switzerland")),
                repository.create(customer("Café Łódź", "Agnieszka Wójcik", "Łódź", "Poland")),
                repository.create(customer("Société Générale d'Équipement", "Hélène Leclerc", "Montréal", "Canada")),
                repository.create(customer("Niño Pérez S.L.", "José Niño", "Málaga", "Spain")),
                repository.create(customer("Ærø Fisk ApS", "Søren Ødegaard", "Ærøskøbing", "Denmark")),
                repository.create(customer(null, "Đặng Thị Hà", "Hà Nội", "Việt Nam")));
    }

    private static CustomerData customer(String company, String contact, String city, String country) {
        String mailbox = contact.split(" ")[0].toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z]", "x");
        return new CustomerData(null, company, contact, null, mailbox + "@example.com", null, null, null, city, null,
                null, country, null, null);
    }

    @AfterAll
    static void close() {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    @Start
    void start(Stage stage) {
        window = MainWindow.show(stage, Sessions.services(db, "Zoë", executor, Platform::runLater,
                Sessions.quickLocks()));
    }

    @Test
    void showsTheCustomersTheCountsAndTheOperatorInTheTitle(FxRobot robot) {
        MainWindowHandle main = new MainWindowHandle(robot);

        await(() -> main.rows().size() == customers.size() && main.status().equals("6 customers"));

        assertThat(main.rows()).containsExactlyElementsOf(customers);
        Stage stage = (Stage) main.table().getScene().getWindow();
        assertThat(stage.getTitle()).isEqualTo("Lockstep — Zoë");
        assertThat(stage.getWidth()).isLessThanOrEqualTo(1280);
        assertThat(stage.getHeight()).isLessThanOrEqualTo(800);
    }

    @Test
    void typingInTheFilterNarrowsTheTable(FxRobot robot) {
        MainWindowHandle main = new MainWindowHandle(robot);
        await(() -> main.rows().size() == customers.size());

        robot.clickOn(main.filter()).write("łódź");

        await(() -> main.rows().size() == 1 && main.status().equals("1 of 6 match 'łódź'"));
        assertThat(main.rows().get(0).data().company()).isEqualTo("Café Łódź");

        robot.eraseText(4).write("hà");
        await(() -> main.rows().size() == 1 && main.rows().get(0).data().contactName().equals("Đặng Thị Hà"));
    }

    @Test
    void selectingARowShowsThatCustomerInTheEditorPane(FxRobot robot) {
        MainWindowHandle main = new MainWindowHandle(robot);
        await(() -> main.rows().size() == customers.size());

        main.clickCell("Société Générale d'Équipement");

        Customer societe = customers.get(2);
        await(() -> main.shows(main.editorPane(), "Hélène Leclerc"));
        assertThat(window.viewModel().editor().buffer().baseProperty().get()).isEqualTo(societe);
        assertThat(main.shows(main.editorPane(), "Montréal")).isTrue();
        assertThat(main.shows(main.editorPane(), "Société Générale d'Équipement")).isTrue();
    }

    @Test
    void untilACustomerIsChosenTheEditorSideSaysHowToChooseOneAndHasNoForm(FxRobot robot) {
        MainWindowHandle main = new MainWindowHandle(robot);
        await(() -> main.rows().size() == customers.size());

        assertThat(labels(robot, main.editorPane())).containsExactly("No customer selected",
                "Choose a customer in the list to edit it here, or press Ctrl+N for a new one.");
        assertThat(robot.from(main.editorPane()).lookup((Node n) -> n instanceof TextInputControl).queryAll())
                .isEmpty();

        main.clickCell("Café Łódź");

        await(() -> main.shows(main.editorPane(), "Agnieszka Wójcik"));
        assertThat(robot.from(main.editorPane()).lookup(".editor-note").queryAll()).isEmpty();
    }

    @Test
    void aCustomerThatCannotBeReadShowsWhyInTheEditorNotTheNote(FxRobot robot) {
        MainWindowHandle main = new MainWindowHandle(robot);
        await(() -> main.rows().size() == customers.size());
        long id = customers.get(3).id();
        DatabaseOutage outage = DatabaseOutage.of(db);
        outage.cut();
        try {
            robot.interact(() -> window.viewModel().editor().load(id));

            await(() -> window.viewModel().editor().noticeProperty().get() != null);
            assertThat(window.viewModel().editor().stateProperty().get()).isEqualTo(EditorState.EMPTY);
            assertThat(labels(robot, main.editorPane()))
                    .contains("Can't reach the database — Customer #" + id + " could not be loaded.");
            assertThat(robot.from(main.editorPane()).lookup(".editor-note").queryAll()).isEmpty();
        } finally {
            outage.restore();
        }
    }

    /** The texts of the visible labels under {@code root}, in scene order. */
    private static List<String> labels(FxRobot robot, Node root) {
        return robot.from(root).lookup((Node n) -> n instanceof Label l && l.isVisible() && l.getText() != null
                && !l.getText().isEmpty()).queryAllAs(Label.class).stream().map(Label::getText).toList();
    }

    @Test
    void openInNewWindowOpensASecondStageOnThatCustomer(FxRobot robot) {
        MainWindowHandle main = new MainWindowHandle(robot);
        await(() -> main.rows().size() == customers.size());
        main.clickCell("Ærø Fisk ApS");

        robot.clickOn("#open-window");

        await(() -> main.windows().size() == 2);
        Window second = main.windows().stream().filter(w -> w != main.table().getScene().getWindow())
                .findFirst().orElseThrow();
        assertThat(second).isInstanceOf(Stage.class);
        await(() -> main.shows(second.getScene().getRoot(), "Søren Ødegaard"));
        assertThat(((Stage) second).getTitle()).contains("Lockstep");

        // The same customer again, in a third window: an operator may open one customer twice.
        robot.interact(() -> {
            ((Stage) main.table().getScene().getWindow()).toFront();
            main.table().requestFocus();
        });
        robot.type(javafx.scene.input.KeyCode.ENTER);
        await(() -> main.windows().size() == 3);
        robot.interact(() -> main.windows().stream().filter(w -> w != main.table().getScene().getWindow())
                .toList().forEach(Window::hide));
    }

    @Test
    void changingTheSelectionWithUnsavedEditsAsksAndCanKeepThem(FxRobot robot) {
        MainWindowHandle main = new MainWindowHandle(robot);
        await(() -> main.rows().size() == customers.size());
        main.clickCell("Niño Pérez S.L.");
        await(() -> main.shows(main.editorPane(), "José Niño"));
        TextInputControl contact = main.findText(main.editorPane(), "José Niño").orElseThrow();
        robot.clickOn(contact);
        robot.interact(contact::end);
        robot.write(" Jr.");
        await(() -> window.viewModel().editor().buffer().dirtyProperty().get());

        main.clickCell("Café Łódź");
        await(() -> robot.lookup(".dialog-pane").tryQuery().isPresent());
        DialogPane dialog = robot.lookup(".dialog-pane").queryAs(DialogPane.class);
        assertThat(dialog.getContentText()).contains("Niño Pérez S.L.").contains("Café Łódź");
        robot.clickOn((Button) dialog.lookupButton(dialog.getButtonTypes().stream()
                .filter(b -> b.getText().equals("Keep editing")).findFirst().orElseThrow()));

        await(() -> main.table().getSelectionModel().getSelectedItem() != null
                && main.table().getSelectionModel().getSelectedItem().id() == customers.get(3).id());
        assertThat(window.viewModel().editor().buffer().baseProperty().get().id()).isEqualTo(customers.get(3).id());
        assertThat(window.viewModel().editor().buffer().dirtyProperty().get()).isTrue();
        assertThat(window.viewModel().editor().buffer().text(org.lockstep.domain.CustomerField.CONTACT_NAME).get())
                .isEqualTo("José Niño Jr.");
    }

    @Test
    void aLockForEditingHeldByAnotherSessionShowsInTheLockColumnUntilItEnds(FxRobot robot) {
        MainWindowHandle main = new MainWindowHandle(robot);
        await(() -> main.rows().size() == customers.size());
        Customer cafe = customers.get(1);
        JdbiLeaseRepository carol = new JdbiLeaseRepository(db.jdbi(), "Carol", "Carol-" + java.util.UUID.randomUUID());
        long token = ((AcquireOutcome.Granted) carol.acquire(cafe.id(), 60_000)).lease().token();
        try {
            // No reload of the list: the lock column's own poll finds the lease.
            await(() -> lockCell(main, cafe).equals("Carol"));
            assertThat(lockCell(main, customers.get(0))).isEmpty();
        } finally {
            carol.release(cafe.id(), token);
        }
        await(() -> lockCell(main, cafe).isEmpty());
    }

    @SuppressWarnings("unchecked")
    private static String lockCell(MainWindowHandle main, Customer customer) {
        return org.lockstep.ui.guihandles.Fx.call(() -> {
            TableColumn<Customer, String> lock = (TableColumn<Customer, String>) main.table().getColumns().stream()
                    .filter(c -> ListIds.LOCK_COLUMN.equals(c.getId())).findFirst().orElseThrow();
            int row = main.table().getItems().indexOf(main.table().getItems().stream()
                    .filter(c -> c.id() == customer.id()).findFirst().orElseThrow());
            return lock.getCellData(row);
        });
    }
}
