package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.scene.control.Labeled;
import javafx.scene.control.TabPane;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowSessions;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.LanguageSwitch;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.guihandles.MergeDialogHandle;
import org.lockstep.ui.main.MainWindow;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 27: a language switch rebuilds the windows over the same view models, and what the operator was doing stays:
 * the tab an editor shows (History), in an editor window and in the main window's pane; and a merge dialog open at
 * the switch keeps the parts the operator chose, and saves them, and the window speaks the new language once the
 * dialog has closed. Through Alice's windows on the real database,
 * switching to Spanish and back to English after each test.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class LanguageSwitchWindowTest {

    static final AtomicInteger REFS = new AtomicInteger();
    @RegisterExtension
    static final WindowSessions SESSIONS = new WindowSessions();
    static EditorServices alice;
    static EditorServices aliceLive;
    static CustomerRepository bob;

    final FxRobot robot = new FxRobot();
    final Locale defaultLocale = Locale.getDefault();
    final Locale formatLocale = Locale.getDefault(Locale.Category.FORMAT);
    Customer stored;

    @BeforeAll
    static void start() {
        alice = SESSIONS.operator("Alice", SESSIONS.executor(2));
        aliceLive = SESSIONS.live(alice);
        bob = SESSIONS.repository("Bob");
    }

    @BeforeEach
    void aCustomerWithTwoVersions() {
        Customer v1 = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LANG-SWITCH-" + REFS.incrementAndGet())
                .build());
        bob.save(v1.id(), v1.version(), v1.data().with(CustomerField.PHONE, "+55 11 4000-1111"));
        stored = bob.find(v1.id()).orElseThrow();
    }

    @AfterEach
    void backToEnglish() {
        Fx.run(() -> LanguageSwitch.switchTo(Language.ENGLISH));
        Locale.setDefault(defaultLocale);
        Locale.setDefault(Locale.Category.FORMAT, formatLocale);
    }

    @Test
    void anEditorWindowShowingHistoryStillShowsItInTheNewLanguage() {
        EditorWindowHandle editor = EditorWindowHandle.open(robot, alice, stored.id(), 0);
        editor.openHistory(2);

        List<Window> left = Fx.call(() -> LanguageSwitch.switchTo(Language.SPANISH));
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(left).isEmpty();
        assertThat(selectedTab(editor.stage())).isEqualTo("Historial");
        Fx.await("the rebuilt History tab's versions", () -> editor.historyVersions().size() == 2);
        assertThat(editor.historyVersions().get(0)).startsWith("2 Bob ");
    }

    @Test
    void theMainWindowsEditorPaneShowingHistoryStillShowsItInTheNewLanguage() {
        MainWindow main = Fx.call(() -> MainWindow.show(new Stage(), alice));
        Fx.await("the list", () -> main.viewModel().list().rows().stream().anyMatch(r -> r.id() == stored.id()));
        Fx.run(() -> main.viewModel().list().select(stored.id()));
        Fx.await("the pane on the customer", () -> main.viewModel().editor().buffer().baseProperty().get() != null
                && main.viewModel().editor().buffer().baseProperty().get().id() == stored.id());
        Stage stage = Fx.call(() -> (Stage) main.root().getScene().getWindow());
        Fx.run(() -> tabs(stage).getSelectionModel().select(tab(tabs(stage), "History")));
        assertThat(selectedTab(stage)).isEqualTo("History");

        Fx.run(() -> LanguageSwitch.switchTo(Language.SPANISH));
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(Fx.call(() -> tabs(stage).getTabs().get(0).getText())).as("the pane rebuilt in Spanish")
                .isNotEqualTo("Details");
        assertThat(selectedTab(stage)).isEqualTo("Historial");
    }

    /** The list rebuilt in the new language keeps the order the operator chose, with its arrow. */
    @Test
    void theMainWindowsListKeepsItsOrderThroughTheSwitch() {
        MainWindow main = Fx.call(() -> MainWindow.show(new Stage(), alice));
        Fx.await("the list", () -> main.viewModel().list().rows().stream().anyMatch(r -> r.id() == stored.id()));
        Stage stage = Fx.call(() -> (Stage) main.root().getScene().getWindow());
        Fx.run(() -> {
            javafx.scene.control.TableView<?> table = customerTable(stage);
            javafx.scene.control.TableColumn<?, ?> city = table.getColumns().stream()
                    .filter(c -> "City".equals(c.getText())).findFirst().orElseThrow();
            city.setSortType(javafx.scene.control.TableColumn.SortType.DESCENDING);
            // As a click on the header does: the column becomes the table's sort order.
            ((javafx.collections.ObservableList<javafx.scene.control.TableColumn<?, ?>>) (Object) table
                    .getSortOrder()).setAll(List.of(city));
        });
        Fx.await("the list by city, descending", () -> main.viewModel().list().sortProperty().get()
                == org.lockstep.domain.CustomerSort.CITY && main.viewModel().list().descendingProperty().get());

        Fx.run(() -> LanguageSwitch.switchTo(Language.SPANISH));
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(Fx.call(() -> main.viewModel().list().sortProperty().get()))
                .isEqualTo(org.lockstep.domain.CustomerSort.CITY);
        assertThat(Fx.call(() -> main.viewModel().list().descendingProperty().get())).isTrue();
        assertThat(Fx.call(() -> customerTable(stage).getSortOrder().stream()
                .map(c -> c.getText() + " " + c.getSortType()).toList()))
                .as("the arrow on the rebuilt list's header").containsExactly(Texts.tr("City") + " DESCENDING");
    }

    private static javafx.scene.control.TableView<?> customerTable(Stage stage) {
        return (javafx.scene.control.TableView<?>) stage.getScene()
                .lookup("#" + org.lockstep.ui.list.ListIds.CUSTOMER_TABLE);
    }

    @Test
    void aMergeDialogOpenAtTheSwitchKeepsThePartsChosenAndSavesThem() {
        EditorWindowHandle editor = EditorWindowHandle.open(robot, alice, stored.id(), 0);
        editor.type(CustomerField.CITY, "Curitiba");
        bob.save(stored.id(), stored.version(), stored.data().with(CustomerField.CITY, "Santos"));
        MergeDialogHandle merge = editor.clickSave().awaitMerge();
        merge.click("use-mine-city");
        assertThat(merge.result(CustomerField.CITY)).isEqualTo("Curitiba");

        List<Window> left = Fx.call(() -> LanguageSwitch.switchTo(Language.SPANISH));
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(left).as("the window whose dialog is open waits").containsExactly(editor.stage());
        assertThat(merge.isOpen()).isTrue();
        assertThat(merge.result(CustomerField.CITY)).isEqualTo("Curitiba");
        assertThat(merge.enabled("save-merged")).isTrue();
        assertThat(editor.text(CustomerField.CITY)).isEqualTo("Curitiba");
        assertThat(Texts.language()).isEqualTo(Language.SPANISH);

        merge.clickAndAwaitClose("save-merged");

        Fx.await("the merge saved", () -> bob.find(stored.id()).orElseThrow().version() == 4);
        assertThat(bob.find(stored.id()).orElseThrow().data().city()).isEqualTo("Curitiba");
        assertThat(bob.find(stored.id()).orElseThrow().updatedBy()).isEqualTo("Alice");
        Fx.await("the window in Spanish once its dialog closed", () -> "Guardar".equals(((Labeled) editor.stage()
                .getScene().getRoot().lookup("#" + EditorIds.SAVE_BUTTON)).getText()));
        assertThat(editor.text(CustomerField.CITY)).isEqualTo("Curitiba");
    }

    /**
     * The texts a window says from what happens (the editor's version line and lock, the list's count, the feed's
     * status) are said in the new language at the switch, not when they next change: before, a window switched to
     * Portuguese went on saying "versión 5 · guardada por bob" and "En vivo" (seen by hand). And news told before the
     * switch ("Saved version 2") is not told again in the language left behind.
     */
    @Test
    void whatTheWindowsSayFromWhatHappensSpeaksTheNewLanguageAtOnce() {
        EditorServices live = aliceLive;
        new org.lockstep.store.JdbiLeaseRepository(SESSIONS.db().jdbi(), "Bob", "Bob-elsewhere")
                .acquire(stored.id(), 120_000);
        Stage stage = Fx.call(Stage::new);
        MainWindow main = Fx.call(() -> MainWindow.show(stage, live, live.live(), null));
        Fx.await("the list", () -> main.viewModel().list().rows().stream().anyMatch(r -> r.id() == stored.id()));
        Fx.run(() -> main.viewModel().list().select(stored.id()));
        Fx.await("Bob's lock told", () -> text(stage, EditorIds.LOCK_MESSAGE).startsWith("Bob is editing"));
        Fx.await("the count and the feed", () -> text(stage, "status").endsWith("customers")
                && "Live".equals(text(stage, "live-status")));
        assertThat(text(stage, EditorIds.VERSION_LINE)).startsWith("version 2 · saved by Bob at ");

        try {
            Fx.run(() -> LanguageSwitch.switchTo(Language.SPANISH));
            WaitForAsyncUtils.waitForFxEvents();

            assertThat(text(stage, EditorIds.VERSION_LINE)).startsWith("versión 2 · guardada por Bob · ");
            assertThat(text(stage, EditorIds.LOCK_MESSAGE)).startsWith("Bob está editando este cliente");
            assertThat(text(stage, "live-status")).isEqualTo("En vivo");
            assertThat(text(stage, "status")).endsWith("clientes");
        } finally {
            new org.lockstep.store.JdbiLeaseRepository(SESSIONS.db().jdbi(), "Bob", "Bob-elsewhere")
                    .breakLease(stored.id());
            Fx.run(stage::close);
        }
    }

    @Test
    void newsToldBeforeTheSwitchIsNotToldAgainInTheOldLanguage() {
        EditorWindowHandle editor = EditorWindowHandle.open(robot, alice, stored.id(), 0);
        editor.type(CustomerField.CITY, "Curitiba").clickSave();
        Fx.await("the save told", () -> bob.find(stored.id()).orElseThrow().version() == 3);
        Fx.await("the news shown", () -> editor.stage().getScene().getRoot().lookup("#" + EditorIds.TOAST)
                .isVisible());

        Fx.run(() -> LanguageSwitch.switchTo(Language.SPANISH));
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(Fx.call(() -> editor.stage().getScene().getRoot().lookup("#" + EditorIds.TOAST).isVisible()))
                .as("\"Saved version 3\" not shown again by the rebuilt view").isFalse();
    }

    private static String text(Stage stage, String id) {
        return Fx.call(() -> stage.getScene().getRoot().lookup("#" + id) instanceof Labeled l
                && l.getText() != null ? l.getText() : "");
    }

    private static TabPane tabs(Stage stage) {
        return (TabPane) stage.getScene().getRoot().lookup("#" + EditorIds.TABS);
    }

    private static javafx.scene.control.Tab tab(TabPane pane, String text) {
        return pane.getTabs().stream().filter(t -> text.equals(t.getText())).findFirst().orElseThrow();
    }

    private static String selectedTab(Stage stage) {
        return Fx.call(() -> tabs(stage).getSelectionModel().getSelectedItem().getText());
    }
}
