package org.lockstep.ui.main;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.ArrayList;
import java.util.List;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.TableView;
import javafx.scene.control.TextInputControl;
import javafx.scene.control.skin.VirtualFlow;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowSessions;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.list.ListIds;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 27: a save in the main window's editor pane re-reads the customer's row, and the list must not jump: the
 * saved row stays selected, in view, and the rows above it where they were. Sixty customers, so that the list
 * scrolls; the operator has scrolled down to the middle and picked a row there.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class ListKeepsItsPlaceTest {

    static final int CUSTOMERS = 60;
    @RegisterExtension
    static final WindowSessions SESSIONS = new WindowSessions();
    static EditorServices zoe;
    static EditorServices zoeLive;
    static final List<Customer> customers = new ArrayList<>();

    @BeforeAll
    static void sixtyCustomers() {
        zoe = SESSIONS.operator("Zoë", SESSIONS.executor(2));
        zoeLive = SESSIONS.live(zoe);
        CustomerRepository setup = SESSIONS.repository("Setup");
        for (int i = 1; i <= CUSTOMERS; i++) {
            customers.add(setup.create(aCustomer().with(CustomerField.EXTERNAL_REF, "PLACE-" + i)
                    .with(CustomerField.COMPANY, String.format("Company %02d", i)).build()));
        }
    }

    @Test
    void aSaveInThePaneKeepsTheSavedRowSelectedInViewAndTheListWhereItWas() {
        MainWindow main = Fx.call(() -> MainWindow.show(new Stage(), zoe));
        Parent root = Fx.call(main::root);
        Fx.await("the list's sixty rows", () -> main.viewModel().list().rows().size() == CUSTOMERS);
        TableView<?> table = Fx.call(() -> (TableView<?>) root.lookup("#" + ListIds.CUSTOMER_TABLE));
        Fx.run(() -> table.scrollTo(25));
        WaitForAsyncUtils.waitForFxEvents(3);
        int first = Fx.call(() -> firstVisible(table));
        int picked = first + 4;
        Customer chosen = customers.get(picked);
        Fx.run(() -> table.getSelectionModel().clearAndSelect(picked));
        Fx.await("the pane on the picked customer", () -> main.viewModel().editor().buffer().baseProperty()
                .get() != null && main.viewModel().editor().buffer().baseProperty().get().id() == chosen.id());
        assertThat(first).as("scrolled down to the middle").isGreaterThan(10);

        Fx.run(() -> {
            ((TextInputControl) root.lookup("#" + EditorIds.field(CustomerField.CITY))).setText("Curitiba");
            ((Button) root.lookup("#" + EditorIds.SAVE_BUTTON)).fire();
        });

        Fx.await("the saved row in the list", () -> main.viewModel().list().rows().get(picked).version() == 2);
        WaitForAsyncUtils.waitForFxEvents(3);
        assertThat(SESSIONS.repository("Reader").find(chosen.id()).orElseThrow().data().city()).isEqualTo("Curitiba");
        assertThat(Fx.call(() -> ((Customer) table.getSelectionModel().getSelectedItem()).id()))
                .as("the saved row still selected").isEqualTo(chosen.id());
        assertThat(Fx.call(() -> table.getSelectionModel().getSelectedIndex())).isEqualTo(picked);
        assertThat(Fx.call(() -> firstVisible(table))).as("the list did not jump").isEqualTo(first);
        assertThat(Fx.call(() -> lastVisible(table))).as("the saved row in view").isGreaterThanOrEqualTo(picked);
    }

    @Test
    void anotherOperatorsSaveOfTheSelectedRowKeepsItSelectedAndTheListWhereItWas() {
        MainWindow main = Fx.call(() -> MainWindow.show(new Stage(), zoeLive, zoeLive.live(), null));
        Parent root = Fx.call(main::root);
        Fx.await("the list's rows", () -> main.viewModel().list().rows().size() >= CUSTOMERS);
        TableView<?> table = Fx.call(() -> (TableView<?>) root.lookup("#" + ListIds.CUSTOMER_TABLE));
        Fx.run(() -> table.scrollTo(25));
        WaitForAsyncUtils.waitForFxEvents(3);
        int first = Fx.call(() -> firstVisible(table));
        int picked = first + 3;
        long chosen = Fx.call(() -> ((Customer) table.getItems().get(picked)).id());
        Fx.run(() -> table.getSelectionModel().clearAndSelect(picked));
        Fx.await("the pane on the picked customer", () -> main.viewModel().editor().buffer().baseProperty()
                .get() != null && main.viewModel().editor().buffer().baseProperty().get().id() == chosen);

        CustomerRepository bob = SESSIONS.repository("Bob");
        Customer before = bob.find(chosen).orElseThrow();
        bob.save(chosen, before.version(), before.data().with(CustomerField.PHONE, "+55 41 3000-2000"));

        Fx.await("Bob's save in the list", () -> ((Customer) table.getItems().get(picked)).version()
                == before.version() + 1);
        WaitForAsyncUtils.waitForFxEvents(3);
        assertThat(Fx.call(() -> table.getSelectionModel().getSelectedIndex())).as("the row still selected")
                .isEqualTo(picked);
        assertThat(Fx.call(() -> main.viewModel().list().selectedProperty().get().version()))
                .isEqualTo(before.version() + 1);
        assertThat(Fx.call(() -> firstVisible(table))).as("the list did not jump").isEqualTo(first);
        Fx.run(() -> ((Stage) root.getScene().getWindow()).close());
    }

    @Test
    void aLanguageSwitchKeepsTheColumnsTheSelectionAndThePlace() {
        Stage stage = Fx.call(Stage::new);
        MainWindow main = Fx.call(() -> MainWindow.show(stage, zoe));
        Fx.await("the list's rows", () -> main.viewModel().list().rows().size() >= CUSTOMERS);
        Fx.run(() -> {
            stage.setWidth(1280);
            stage.setHeight(740);
        });
        WaitForAsyncUtils.waitForFxEvents(3);
        TableView<?> before = Fx.call(() -> (TableView<?>) main.root().lookup("#" + ListIds.CUSTOMER_TABLE));
        Fx.run(() -> before.scrollTo(25));
        WaitForAsyncUtils.waitForFxEvents(3);
        int first = Fx.call(() -> firstVisible(before));
        int picked = first + 2;
        Fx.run(() -> before.getSelectionModel().clearAndSelect(picked));
        WaitForAsyncUtils.waitForFxEvents(3);
        List<String> shown = Fx.call(() -> visibleColumns(before));
        java.util.Map<String, Double> widthsBefore = Fx.call(() -> widths(before));
        assertThat(shown).as("the bookkeeping columns start hidden at 1280 px").doesNotContain("versionColumn");

        try {
            Fx.run(() -> org.lockstep.ui.LanguageSwitch.switchTo(org.lockstep.text.Language.PORTUGUESE_BRAZIL));
            WaitForAsyncUtils.waitForFxEvents(5);
            TableView<?> after = Fx.call(() -> (TableView<?>) main.root().lookup("#" + ListIds.CUSTOMER_TABLE));

            assertThat(after).as("the list rebuilt").isNotSameAs(before);
            assertThat(Fx.call(() -> visibleColumns(after))).as("the same columns, in the same order")
                    .isEqualTo(shown);
            assertThat(Fx.call(() -> after.getSelectionModel().getSelectedIndex())).as("the row still selected")
                    .isEqualTo(picked);
            assertThat(Fx.call(() -> firstVisible(after))).as("the list where it was").isEqualTo(first);
            // As wide as before: the columns sized to the rows once, not the FXML's widths squeezed into the table.
            assertThat(Fx.call(() -> widths(after))).as("the columns' widths")
                    .allSatisfy((id, width) -> assertThat(width).isCloseTo(widthsBefore.get(id),
                            org.assertj.core.data.Offset.offset(2.0)));
        } finally {
            Fx.run(() -> org.lockstep.ui.LanguageSwitch.switchTo(org.lockstep.text.Language.ENGLISH));
            Fx.run(stage::close);
        }
    }

    private static java.util.Map<String, Double> widths(TableView<?> table) {
        java.util.Map<String, Double> widths = new java.util.LinkedHashMap<>();
        table.getColumns().stream().filter(javafx.scene.control.TableColumn::isVisible)
                .forEach(c -> widths.put(c.getId(), c.getWidth()));
        return widths;
    }

    private static List<String> visibleColumns(TableView<?> table) {
        return table.getColumns().stream().filter(javafx.scene.control.TableColumn::isVisible)
                .map(javafx.scene.control.TableColumn::getId).toList();
    }

    private static int firstVisible(TableView<?> table) {
        return cell(table, true).getIndex();
    }

    private static int lastVisible(TableView<?> table) {
        return cell(table, false).getIndex();
    }

    private static IndexedCell<?> cell(TableView<?> table, boolean first) {
        VirtualFlow<?> flow = (VirtualFlow<?>) table.lookup(".virtual-flow");
        return first ? flow.getFirstVisibleCell() : flow.getLastVisibleCell();
    }
}
