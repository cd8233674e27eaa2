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
    static final List<Customer> customers = new ArrayList<>();

    @BeforeAll
    static void sixtyCustomers() {
        zoe = SESSIONS.operator("Zoë", SESSIONS.executor(2));
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
