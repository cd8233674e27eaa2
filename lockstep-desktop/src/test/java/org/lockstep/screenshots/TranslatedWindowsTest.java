package org.lockstep.screenshots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.application.Platform;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiConflictReports;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.SpeakingTheLanguage;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Sessions;
import org.lockstep.text.Language;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.WindowPlaces;
import org.lockstep.ui.demo.DemoSession;
import org.lockstep.ui.demo.OpenDemo;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.guihandles.MergeDialogHandle;
import org.lockstep.ui.main.MainWindow;
import org.lockstep.ui.report.ConflictReportWindow;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 16's languages, window by window: in English, Brazilian Portuguese and Spanish, on a 1366×768 screen, the
 * main window with the editor beside the list and each of its tabs, an editor on a customer another operator has
 * locked, the merge dialog, the contention lab after a run, the conflict report and the trainer demo's three
 * windows. Every text they ask for has a translation (none falls back to English), and no label, button, tab or
 * column header is elided. The Portuguese main window and merge dialog are written as pictures
 * ({@code main-window-pt-BR.png}, {@code merge-dialog-pt-BR.png}, {@code trainer-panel-pt-BR.png}, {@code demo-operator-pt-BR.png}) to {@code -Dlockstep.screenshots=DIR}, else
 * target/screenshots.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
@Timeout(400)
class TranslatedWindowsTest {

    static final double SCREEN_WIDTH = 1366;
    static final double SCREEN_HEIGHT = 768;

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    static final Preferences NODE = Preferences.userRoot().node("org/lockstep/test/" + UUID.randomUUID());
    static List<Customer> customers;

    final FxRobot robot = new FxRobot();
    final List<String> clipped = new ArrayList<>();
    Stage primary;

    @BeforeAll
    static void seed() {
        executor = new FxTaskExecutor(4);
        EditorServices setup = Sessions.services(db, "Setup", executor, Platform::runLater, Sessions.quickLocks());
        customers = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            customers.add(setup.customers().create(aCustomer().with(CustomerField.EXTERNAL_REF, "T" + i)
                    .with(CustomerField.COMPANY, "Tremblay Équipements " + i)
                    .with(CustomerField.CONTACT_NAME, "François Tremblay").with(CustomerField.CITY, "Montréal")
                    .with(CustomerField.COUNTRY, "Canada").build()));
        }
    }

    @AfterAll
    static void close() throws BackingStoreException {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
        NODE.removeNode();
    }

    @Start
    void start(Stage stage) {
        primary = stage;
    }

    @ParameterizedTest(name = "in {0}")
    @MethodSource("org.lockstep.testing.Translations#everyLanguage")
    @ExtendWith(SpeakingTheLanguage.class)
    void everyWindowSpeaksTheLanguageInFullAt1366x768(Language language) throws Exception {
        int first = language.ordinal() * 3;
        EditorServices ana = services("Ana");
        EditorServices alice = services("Alice");
        EditorServices bob = services("Bob");

        // The main window with the editor beside the list, Bob's padlock on a customer; then each editor tab.
        new JdbiLeaseRepository(db.jdbi(), "Bob", "Bob-" + UUID.randomUUID()).acquire(customers.get(first + 1).id(),
                120_000);
        MainWindow main = Fx.call(() -> {
            MainWindow shown = MainWindow.show(primary, ana.toBuilder().places(WindowPlaces.forOperator(NODE,
                    "Ana-" + language.tag())).build());
            primary.setWidth(SCREEN_WIDTH);
            primary.setHeight(SCREEN_HEIGHT);
            return shown;
        });
        Fx.await("the list and its padlock", () -> primary.getScene().getRoot().lookup(".padlock") != null);
        Fx.run(() -> main.viewModel().list().select(customers.get(first).id()));
        Fx.await("the editor beside the list", () -> primary.getScene().getRoot().lookup(".tab-pane") != null);
        check("main window", primary);
        shootIfPortuguese(language, "main-window", primary);
        TabPane tabs = (TabPane) Fx.call(() -> primary.getScene().getRoot().lookup(".tab-pane"));
        for (Tab tab : Fx.call(() -> List.copyOf(tabs.getTabs()))) {
            Fx.run(() -> tabs.getSelectionModel().select(tab));
            WaitForAsyncUtils.waitForFxEvents();
            check("main window, tab " + Fx.call(tab::getText), primary);
        }
        // A field the editor refuses: the reason it cannot save shares its row with Delete, Revert and Save, which
        // were squeezed to "…" in Portuguese beside the list.
        Fx.run(() -> tabs.getSelectionModel().select(0));
        TextInputControl email = (TextInputControl) Fx.call(() -> primary.getScene().getRoot()
                .lookup("#" + EditorIds.field(CustomerField.EMAIL)));
        String emailBefore = Fx.call(email::getText);
        Fx.run(() -> email.setText("not an email"));
        Fx.await("the reason it cannot save", () -> {
            Label reason = (Label) primary.getScene().getRoot().lookup("#" + EditorIds.SAVE_BLOCKED_REASON);
            return reason.isVisible() && !reason.getText().isEmpty();
        });
        check("main window, editor refusing a field", primary);
        // The size a first start opens at on this screen: the editor's fields must not scroll sideways there either.
        Fx.run(() -> primary.setWidth(MainWindow.WIDTH));
        check("main window at its first size, editor refusing a field", primary);
        Fx.run(() -> {
            email.setText(emailBefore);
            primary.setWidth(SCREEN_WIDTH);
        });

        // An editor on the customer Alice holds: Bob reads who holds it.
        EditorWindowHandle aliceEditor = EditorWindowHandle.open(robot, alice, customers.get(first + 2).id(), 0);
        aliceEditor.chooseLockForEditing().type(CustomerField.CITY, "Lund");
        Fx.await("Alice's lock", () -> aliceEditor.lockMessage() != null);
        EditorWindowHandle bobEditor = EditorWindowHandle.open(robot, bob, customers.get(first + 2).id(), 640);
        Fx.await("Bob reads who holds the lock", () -> bobEditor.lockMessage() != null
                && bobEditor.lockMessage().contains("Alice"));
        check("Alice's editor holding the lock", fit(aliceEditor.stage()));
        // As narrow as the editor beside the list when the main window opens at its first size: one column of fields
        // that must fit without scrolling sideways (seen in pt under Xvfb; Monocle's font metrics did not
        // reproduce it).
        Fx.run(() -> aliceEditor.stage().setWidth(430));
        check("Alice's editor, 430 px wide", aliceEditor.stage());
        check("Bob's editor on Alice's lock", fit(bobEditor.stage()));
        Fx.run(() -> {
            aliceEditor.stage().close();
            bobEditor.stage().close();
        });

        // Both save one customer: Bob's save opens the merge dialog.
        long id = customers.get(first).id();
        EditorWindowHandle a = EditorWindowHandle.open(robot, alice, id, 0);
        EditorWindowHandle b = EditorWindowHandle.open(robot, bob, id, 640);
        a.type(CustomerField.CITY, "Laval").type(CustomerField.PHONE, "+1 (514) 555-0199").clickSave();
        Fx.await("Alice's save", () -> alice.customers().find(id).orElseThrow().version() == 2
                && !a.viewModel().busyProperty().get());
        b.type(CustomerField.CITY, "Longueuil").type(CustomerField.EMAIL, "sales@example.com").clickSave();
        MergeDialogHandle merge = b.awaitMerge();
        check("merge dialog", fit(merge.stage()));
        shootIfPortuguese(language, "merge-dialog", merge.stage());
        Fx.run(() -> {
            merge.stage().close();
            a.stage().close();
            b.stage().close();
        });

        // The contention lab after a run.
        Stage lab = LabAfterARun.open(primary, db, executor);
        check("contention lab", fit(lab));
        Fx.run(lab::close);

        // The conflict report, once it has read its counts.
        Stage report = Fx.call(() -> ConflictReportWindow.open(primary, new JdbiConflictReports(db.jdbi()),
                executor));
        Fx.await("the report's table", () -> report.getScene().lookup("#conflict-report-table") != null
                && !((TableView<?>) report.getScene().lookup("#conflict-report-table")).getItems().isEmpty());
        check("conflict report", fit(report));
        Fx.run(report::close);

        // The trainer demo's three windows, after its first step.
        DemoSession demo = OpenDemo.open(db, executor, Duration.ofSeconds(60));
        Fx.await("the operators' lists", () -> !demo.alice().window().viewModel().list().rows().isEmpty()
                && !demo.bob().window().viewModel().list().rows().isEmpty());
        Fx.call(() -> demo.trainer().runNext()).get(60, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        check("demo: Alice", fit(demo.alice().stage()));
        check("demo: Bob", fit(demo.bob().stage()));
        check("demo: Trainer panel", fit(demo.trainerStage()));
        shootIfPortuguese(language, "trainer-panel", demo.trainerStage());
        shootIfPortuguese(language, "demo-operator", demo.bob().stage());
        OpenDemo.close(demo);
        // The main window's editor ends with the window, its timers too (the application exits at that point).
        Fx.run(() -> {
            main.viewModel().editor().close();
            primary.hide();
        });

        assertThat(clipped).as("labels elided in %s at 1366×768", language.nativeName()).isEmpty();
    }

    private static EditorServices services(String user) {
        return Sessions.services(db, user, executor, Platform::runLater, Sessions.quickLocks());
    }

    /** A window no larger than the 1366×768 screen, as the window manager would keep it. */
    private static Stage fit(Stage stage) {
        Fx.run(() -> {
            stage.setWidth(Math.min(stage.getWidth(), SCREEN_WIDTH));
            stage.setHeight(Math.min(stage.getHeight(), SCREEN_HEIGHT));
        });
        return stage;
    }

    private void check(String window, Stage stage) {
        WaitForAsyncUtils.waitForFxEvents();
        // Laid out and read in one turn of the FX thread: a label whose text a live read changes between the two
        // (a list's "Counting…" becoming "1 of 10 match") would otherwise be read at its old width.
        for (String label : Fx.call(() -> {
            stage.getScene().getRoot().layout();
            return ClippedTexts.in(stage.getScene().getRoot());
        })) {
            clipped.add(window + ": " + label);
        }
    }

    private static void shootIfPortuguese(Language language, String name, Stage stage) throws Exception {
        if (language != Language.PORTUGUESE_BRAZIL) {
            return;
        }
        Path dir = Path.of(System.getProperty("lockstep.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
        Path file = dir.resolve(name + "-pt-BR.png");
        ImageIO.write(Screens.image(Fx.call(() -> stage.getScene().snapshot(null))), "png", file.toFile());
        assertThat(Files.size(file)).isPositive();
    }
}
