package org.lockstep.ui.list;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.concurrent.TimeoutException;
import javafx.scene.Scene;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.ColumnWidths;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.guihandles.Fx;
import org.testfx.api.FxToolkit;

/**
 * The list's first column is the Name (issue 27): a customer who is a person without a company shows their name
 * there, not a blank, and the column is as wide as the widest name it shows.
 */
@WindowTest
@DatabaseTest
@Timeout(60)
class CustomerListNameColumnTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    static Customer person;
    static Customer company;

    @BeforeAll
    static void seed() {
        executor = new FxTaskExecutor(2);
        JdbiCustomerRepository repository = new JdbiCustomerRepository(db.jdbi(), "Alice");
        person = repository.create(aCustomer().with(CustomerField.EXTERNAL_REF, "P-1").with(CustomerField.COMPANY, null)
                .with(CustomerField.CONTACT_NAME, "Luísa Carvalho").build());
        company = repository.create(aCustomer().with(CustomerField.EXTERNAL_REF, "C-1")
                .with(CustomerField.COMPANY, "Embraer - Empresa Brasileira de Aeronáutica S.A.")
                .with(CustomerField.CONTACT_NAME, "Eduardo Martins").build());
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    @AfterEach
    void closeTheWindow() throws TimeoutException {
        FxToolkit.cleanupStages();
    }

    @Test
    void theFirstColumnShowsTheContactsNameForACustomerWithoutACompany() {
        TableView<Customer> table = Fx.call(() -> {
            CustomerListViewModel vm = new CustomerListViewModel(
                    new JdbiCustomerRepository(db.jdbi(), "Alice"), executor);
            CustomerListView view = new CustomerListView(vm);
            Stage stage = new Stage();
            stage.setScene(new Scene(view.root(), 900, 400));
            stage.show();
            vm.start();
            @SuppressWarnings("unchecked") TableView<Customer> t =
                    (TableView<Customer>) view.root().lookup("#" + ListIds.CUSTOMER_TABLE);
            return t;
        });
        Fx.await("both rows shown", () -> Fx.call(() -> shownText(table, person.id()) != null
                && shownText(table, company.id()) != null));

        TableColumn<Customer, ?> first = Fx.call(() -> table.getVisibleLeafColumns().stream()
                .filter(TableColumn::isResizable).findFirst().orElseThrow());
        assertThat(Fx.call(first::getId)).isEqualTo(ListIds.NAME_COLUMN);
        assertThat(Fx.call(first::getText)).isEqualTo("Name");
        assertThat(Fx.call(() -> shownText(table, person.id()))).isEqualTo("Luísa Carvalho");
        assertThat(Fx.call(() -> shownText(table, company.id())))
                .isEqualTo("Embraer - Empresa Brasileira de Aeronáutica S.A.");
        // Sized to its content: the widest name fits (within the list's bounds), and no fixed width of the FXML.
        double widest = Fx.call(() -> ColumnWidths.textWidth("Embraer - Empresa Brasileira de Aeronáutica S.A.",
                javafx.scene.text.Font.getDefault()));
        assertThat(Fx.call(first::getPrefWidth)).isGreaterThan(Math.min(widest, 260 - 24)).isNotEqualTo(180.0);
    }

    /**
     * Issue 27, "remember the sort across restarts", tried for real: Name descending was kept in the preferences, but
     * after a restart the list came up by id and wrote ID back over the kept order. The list, built over a view model
     * that remembers Name descending, shows and keeps that order.
     */
    @Test
    void theOrderKeptFromTheLastRunIsTheOrderShownAndStaysKept() throws Exception {
        java.util.prefs.Preferences node = java.util.prefs.Preferences.userRoot()
                .node("org/lockstep/test/" + java.util.UUID.randomUUID());
        try {
            node.put(CustomerListViewModel.SORT_KEY, org.lockstep.domain.CustomerSort.NAME.name());
            node.putBoolean(CustomerListViewModel.DESCENDING_KEY, true);
            CustomerListViewModel vm = Fx.call(() -> {
                CustomerListViewModel model = new CustomerListViewModel(
                        new JdbiCustomerRepository(db.jdbi(), "Alice"), executor);
                model.rememberSort(node);
                CustomerListView view = new CustomerListView(model);
                Stage stage = new Stage();
                stage.setScene(new Scene(view.root(), 900, 400));
                stage.show();
                model.start();
                return model;
            });
            Fx.await("the rows", () -> Fx.call(() -> vm.rows().size() >= 2));
            org.testfx.util.WaitForAsyncUtils.waitForFxEvents();

            assertThat(Fx.call(() -> vm.sortProperty().get())).isEqualTo(org.lockstep.domain.CustomerSort.NAME);
            assertThat(Fx.call(() -> vm.descendingProperty().get())).isTrue();
            assertThat(Fx.call(() -> vm.rows().get(0).id())).isEqualTo(person.id()); // "Luísa …" after "Embraer …"
            assertThat(node.get(CustomerListViewModel.SORT_KEY, null)).isEqualTo("NAME");
            assertThat(node.getBoolean(CustomerListViewModel.DESCENDING_KEY, false)).isTrue();
        } finally {
            node.removeNode();
        }
    }

    /** The text the Name column's cell shows in the row of customer {@code id}, or null when no such row shows. */
    private static String shownText(TableView<Customer> table, long id) {
        table.layout();
        for (var node : table.lookupAll(".table-row-cell")) {
            if (node instanceof TableRow<?> row && row.getItem() instanceof Customer c && c.id() == id) {
                for (var child : row.getChildrenUnmodifiable()) {
                    if (child instanceof TableCell<?, ?> cell && cell.getTableColumn() != null
                            && ListIds.NAME_COLUMN.equals(cell.getTableColumn().getId())) {
                        return cell.getText();
                    }
                }
            }
        }
        return null;
    }
}
