package org.lockstep.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.DraftFile;
import org.lockstep.drafts.DraftJournal;
import org.lockstep.ui.editor.CustomerEditorView;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.domain.CustomerField;
import org.lockstep.testing.db.DatabaseOutage;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.UiContext;
import org.lockstep.server.Database;
import org.lockstep.server.PostgresClient;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.TeamServer;
import org.lockstep.testing.db.TestDatabases;
import org.lockstep.ui.list.ListIds;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** Starting the desktop application: the database opens in the background, or its failure is shown. */
@WindowTest
@DatabaseTest
class LockstepApplicationTest {

    final FxRobot robot = new FxRobot();
    LockstepApplication app;

    private static void await(java.util.concurrent.Callable<Boolean> condition) throws TimeoutException {
        // Evaluated on the FX thread: the scene graph is its own, and a lookup from the test thread while a page arrives
        // walked a child list as it changed (IndexOutOfBoundsException, seen on CI in LockstepApplicationTest).
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> Fx.call(condition));
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void showsThatTheDatabaseIsStartingThenTheMainWindowAndClosesTheDatabaseAtExit(Database db) throws Exception {
        CountDownLatch releaseDatabase = new CountDownLatch(1);
        AtomicInteger shutdowns = new AtomicInteger();
        new JdbiCustomerRepository(db.jdbi(), "seed").create(new org.lockstep.domain.CustomerData(null, "Ångström AB",
                "Åsa Lind", null, null, null, null, null, "Uppsala", null, null, "Sweden", null, null));
        LockstepApplication.useContext(new UiContext("Åsa", () -> {
            // Hold the "database" until the test has seen the starting window, as a slow embedded start would.
            releaseDatabase.await(20, TimeUnit.SECONDS);
            return UiContext.Backend.of(PostgresClient.of(db, "Åsa", () -> {
                shutdowns.incrementAndGet();
                db.close();
            }), java.time.Duration.ofSeconds(60), java.time.Duration.ofMinutes(15), null);
        }));

        app = (LockstepApplication) FxToolkit.setupApplication(LockstepApplication::new);

        await(() -> robot.lookup("#starting-database").tryQuery().isPresent());
        assertThat(robot.lookup("#starting-database").queryAs(Label.class).getText()).isEqualTo("Starting database…");
        releaseDatabase.countDown();
        await(() -> robot.lookup("#" + ListIds.CUSTOMER_TABLE).tryQuery().isPresent()
                && robot.lookup("#" + ListIds.CUSTOMER_TABLE).queryAs(TableView.class).getItems().size() == 1);
        Window main = robot.lookup("#" + ListIds.CUSTOMER_TABLE).query().getScene().getWindow();
        assertThat(((Stage) main).getTitle()).isEqualTo("Lockstep — Åsa");
        // Live updates: the feed connects on its own connection, and another operator's save reaches the list.
        await(() -> robot.lookup("#live-status").tryQuery().map(n -> "Live".equals(((Label) n).getText()))
                .orElse(false));
        JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob");
        org.lockstep.domain.Customer seeded = bob.page(org.lockstep.domain.CustomerPageRequest.first("")).get(0);
        bob.save(seeded.id(), seeded.version(), seeded.data().with(org.lockstep.domain.CustomerField.CITY, "Lund"));
        await(() -> robot.lookup("#" + ListIds.CUSTOMER_TABLE).queryAs(TableView.class).getItems().stream()
                .anyMatch(c -> ((org.lockstep.domain.Customer) c).data().city().equals("Lund")));
        await(() -> robot.lookup("#starting-database").tryQuery().isEmpty());

        FxToolkit.cleanupApplication(app);

        assertThat(shutdowns).hasValue(1);
        assertThat(LockstepApplication.exitCode()).isEqualTo(LockstepApplication.OK);
    }

    @Test
    void withAllowUnsafeTheEditorOffersLastWriteWinsAndWithoutItNot(Database db) throws Exception {
        for (boolean allowUnsafe : new boolean[]{true, false}) {
            LockstepApplication.useContext(new UiContext("Åsa", () -> backend(db, "Åsa"), allowUnsafe));
            app = (LockstepApplication) FxToolkit.setupApplication(LockstepApplication::new);
            await(() -> robot.lookup("#new-customer").tryQuery().isPresent());
            robot.clickOn("#new-customer"); // the main window shows its editor once it has a customer (EditorPane)
            await(() -> robot.lookup("#" + ListIds.CUSTOMER_TABLE).tryQuery().isPresent()
                    && robot.lookup("#unsafeMode").tryQuery().isPresent());

            assertThat(robot.lookup("#unsafeMode").query().isVisible()).as("--allow-unsafe " + allowUnsafe)
                    .isEqualTo(allowUnsafe);
            FxToolkit.cleanupApplication(app);
            FxToolkit.cleanupStages();
        }
    }

    @Test
    void theDraftsAnEndedClientLeftAreOfferedAtStartAndRestoredAndTheJournalIsLetGoAtExit(Database db,
            @TempDir Path dataDir) throws Exception {
        org.lockstep.domain.Customer stored = new JdbiCustomerRepository(db.jdbi(), "Åsa").create(
                org.lockstep.testing.CustomerBuilder.aCustomer().with(CustomerField.EXTERNAL_REF, "DRAFT-1").build());
        Draft left = new Draft("editor-1", OptionalLong.of(stored.id()), stored.version(), stored.data(),
                Map.of(CustomerField.CITY, "Curitiba"), ConcurrencyMode.OPTIMISTIC, OptionalLong.of(9), "Åsa",
                Instant.now(), Optional.empty());
        try (DraftJournal ended = DraftJournal.open(DraftJournal.under(dataDir))) {
            ended.save(left); // a client that ended with it unsaved; its close() leaves it for the next start
        }
        LockstepApplication.useContext(new UiContext("Åsa", () -> backend(db, "Åsa"), false, null, dataDir));

        app = (LockstepApplication) FxToolkit.setupApplication(LockstepApplication::new);

        await(() -> robot.lookup("#drafts-headline").tryQuery().isPresent());
        assertThat(robot.lookup("#drafts-headline").queryAs(Label.class).getText())
                .isEqualTo("Unsaved changes to 1 customer from before Lockstep closed");
        robot.clickOn("#restore-draft-editor-1");
        await(() -> Window.getWindows().stream().anyMatch(w -> w.getUserData() instanceof CustomerEditorView));
        Stage window = (Stage) Window.getWindows().stream()
                .filter(w -> w.getUserData() instanceof CustomerEditorView).findFirst().orElseThrow();
        EditorWindowHandle editor = EditorWindowHandle.of(robot, window);
        assertThat(editor.text(CustomerField.CITY)).isEqualTo("Curitiba");
        assertThat(robot.lookup("#drafts-offer").query().isVisible()).isFalse();

        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();

        // Closed without a word from the operator (no Save, no Discard): the draft is kept, its client ended.
        List<DraftFile> kept = DraftJournal.listAll(DraftJournal.under(dataDir));
        assertThat(kept).hasSize(1);
        assertThat(kept.get(0).ownerRunning()).isFalse();
        assertThat(kept.get(0).draft().orElseThrow().typed()).containsEntry(CustomerField.CITY, "Curitiba");
    }

    /**
     * {@code lockstep edit ID} (issue 28): the main window opens with the customer's editor window beside it, the
     * keyboard in its first field; a customer that is not there is said so over the main window, deleted or never.
     */
    @Test
    void editOpensTheCustomersEditorWithTheFirstFieldFocusedAndSaysSoForOneThatIsNotThere(Database db)
            throws Exception {
        JdbiCustomerRepository asa = new JdbiCustomerRepository(db.jdbi(), "Åsa");
        org.lockstep.domain.Customer wanted = asa.create(org.lockstep.testing.CustomerBuilder.aCustomer()
                .with(CustomerField.EXTERNAL_REF, "EDIT-1").build());
        org.lockstep.domain.Customer gone = asa.create(org.lockstep.testing.CustomerBuilder.aCustomer()
                .with(CustomerField.EXTERNAL_REF, "EDIT-2").build());
        asa.delete(gone.id(), gone.version());

        LockstepApplication.useContext(new UiContext("Åsa", () -> backend(db, "Åsa")).editing(wanted.id()));
        app = (LockstepApplication) FxToolkit.setupApplication(LockstepApplication::new);
        await(() -> editorWindow().map(w -> focusedId(w).equals(EditorIds.field(CustomerField.COMPANY)))
                .orElse(false));
        EditorWindowHandle editor = EditorWindowHandle.of(robot, editorWindow().orElseThrow());
        assertThat(editor.viewModel().customerId()).hasValue(wanted.id());
        assertThat(robot.lookup("#" + ListIds.CUSTOMER_TABLE).tryQuery()).as("the main window too").isPresent();
        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();

        for (long id : new long[]{gone.id(), gone.id() + 1000}) {
            LockstepApplication.useContext(new UiContext("Åsa", () -> backend(db, "Åsa")).editing(id));
            app = (LockstepApplication) FxToolkit.setupApplication(LockstepApplication::new);
            await(() -> robot.lookup("#edit-not-found").tryQuery().isPresent());
            DialogPane told = robot.lookup("#edit-not-found").queryAs(DialogPane.class);
            assertThat(told.getHeaderText()).isEqualTo("Cannot open Customer #" + id);
            if (id == gone.id()) {
                assertThat(told.getContentText()).startsWith("Customer #" + id + " was deleted by Åsa on ");
            } else {
                assertThat(told.getContentText()).isEqualTo("There is no Customer #" + id + ".");
            }
            assertThat(editorWindow()).isEmpty();
            assertThat(LockstepApplication.exitCode()).isEqualTo(LockstepApplication.OK);
            robot.interact(() -> told.getScene().getWindow().hide());
            FxToolkit.cleanupApplication(app);
            FxToolkit.cleanupStages();
        }
    }

    /**
     * The database may be down when the client starts (issue 28): with a draft to offer, the desktop starts without
     * it, the restored editor says its edits are kept, Save says it cannot reach the database; once the database is
     * back the main window opens, the same editor window goes on over it with every edit, and Save saves — read back
     * from the database.
     */
    @Test
    void withTheDatabaseDownAtStartTheDraftsOpenAndSaveOnceItIsBack(@TempDir Path dataDir) throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "seed")) {
            org.lockstep.domain.Customer stored = new JdbiCustomerRepository(db.jdbi(), "Åsa").create(
                    org.lockstep.testing.CustomerBuilder.aCustomer().with(CustomerField.EXTERNAL_REF, "DOWN-1")
                            .build());
            Draft left = new Draft("editor-down", OptionalLong.of(stored.id()), stored.version(), stored.data(),
                    Map.of(CustomerField.CITY, "Curitiba"), ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "Åsa",
                    Instant.now(), Optional.empty());
            try (DraftJournal ended = DraftJournal.open(DraftJournal.under(dataDir))) {
                ended.save(left);
            }
            DatabaseOutage outage = DatabaseOutage.of(db);
            outage.cut();
            LockstepApplication.useContext(new UiContext("Åsa", () -> {
                Database desktop = Database.open(url, null, null, "Lockstep (Åsa)");
                return UiContext.Backend.of(PostgresClient.of(desktop, "Åsa", desktop::close),
                        java.time.Duration.ofSeconds(60), java.time.Duration.ofMinutes(15), null);
            }, false, null, dataDir));

            app = (LockstepApplication) FxToolkit.setupApplication(LockstepApplication::new);

            await(() -> robot.lookup("#" + OfflineStart.ID).tryQuery().isPresent());
            assertThat(robot.lookup("#offline-headline").queryAs(Label.class).getText())
                    .isEqualTo("Lockstep cannot reach its database");
            assertThat(robot.lookup("#offline-reason").queryAs(Label.class).getText()).isNotBlank();
            assertThat(robot.lookup("#drafts-headline").queryAs(Label.class).getText())
                    .isEqualTo("Unsaved changes to 1 customer from before Lockstep closed");
            assertThat(robot.lookup("#" + ListIds.CUSTOMER_TABLE).tryQuery()).as("no main window yet").isEmpty();
            robot.clickOn("#restore-draft-editor-down");
            await(() -> editorWindow().isPresent());
            EditorWindowHandle editor = EditorWindowHandle.of(robot, editorWindow().orElseThrow());
            assertThat(editor.text(CustomerField.CITY)).isEqualTo("Curitiba");
            assertThat(editor.notice()).isEqualTo("Can't reach the database — your unsaved changes are back and kept."
                    + " Save once it is reachable again.");
            editor.type(CustomerField.PHONE, "+55 41 3000-0000");
            editor.clickSave();
            await(() -> "Can't reach the database — your changes are kept. Try Save again.".equals(editor.notice()));
            // Typed while the database is down, and journaled all the same.
            await(() -> DraftJournal.listAll(DraftJournal.under(dataDir)).stream()
                    .anyMatch(f -> f.draft().orElseThrow().typed().containsKey(CustomerField.PHONE)));

            outage.restore();
            robot.clickOn("#try-again");

            await(() -> robot.lookup("#" + ListIds.CUSTOMER_TABLE).tryQuery().isPresent());
            await(() -> robot.lookup("#" + OfflineStart.ID).tryQuery().isEmpty());
            await(() -> editor.viewModel().stateProperty().get() == org.lockstep.ui.editor.EditorState.EDITING
                    && editor.notice() != null && editor.notice().startsWith("Your unsaved changes"));
            assertThat(editor.isOpen()).as("the same window").isTrue();
            assertThat(editor.text(CustomerField.CITY)).isEqualTo("Curitiba");
            assertThat(editor.text(CustomerField.PHONE)).isEqualTo("+55 41 3000-0000");
            editor.clickSave().awaitVersionLine("version 2 · saved by Åsa");

            org.lockstep.domain.Customer read = new JdbiCustomerRepository(db.jdbi(), "test").find(stored.id())
                    .orElseThrow();
            assertThat(read.data().city()).isEqualTo("Curitiba");
            assertThat(read.data().phone()).isEqualTo("+55 41 3000-0000");
            await(() -> DraftJournal.listAll(DraftJournal.under(dataDir)).isEmpty());
            assertThat(LockstepApplication.exitCode()).isEqualTo(LockstepApplication.OK);
            FxToolkit.cleanupApplication(app);
            FxToolkit.cleanupStages();
        }
    }

    private static Optional<Stage> editorWindow() {
        return Window.getWindows().stream().filter(w -> w.getUserData() instanceof CustomerEditorView)
                .map(Stage.class::cast).findFirst();
    }

    private static String focusedId(Stage window) {
        javafx.scene.Node focused = window.getScene().getFocusOwner();
        return focused == null ? "" : String.valueOf(focused.getId());
    }

    private static UiContext.Backend backend(Database db, String user) {
        return UiContext.Backend.of(PostgresClient.of(db, user, () -> {}), java.time.Duration.ofSeconds(60),
                java.time.Duration.ofMinutes(15), null);
    }

    @Test
    void aDatabaseThatCannotBeOpenedIsExplainedAndEndsWithExitCodeOne() throws Exception {
        LockstepApplication.useContext(new UiContext("Åsa", () -> {
            throw new IllegalStateException("Cannot connect to jdbc:postgresql://db.invalid/lockstep: UnknownHost");
        }));

        app = (LockstepApplication) FxToolkit.setupApplication(LockstepApplication::new);

        await(() -> robot.lookup("#start-failure").tryQuery().isPresent());
        DialogPane dialog = robot.lookup("#start-failure").queryAs(DialogPane.class);
        assertThat(dialog.getHeaderText()).isEqualTo("Lockstep cannot open its database");
        assertThat(dialog.getContentText()).contains("Cannot connect to jdbc:postgresql://db.invalid/lockstep");
        assertThat(LockstepApplication.exitCode()).isEqualTo(LockstepApplication.FAILURE);
        await(() -> robot.lookup("#starting-database").tryQuery().isEmpty());

        robot.interact(() -> dialog.getScene().getWindow().hide());
        FxToolkit.cleanupApplication(app);
    }

    /** A database a newer Lockstep migrated (issue 28): the dialog names both versions and says to upgrade. */
    @Test
    void aDatabaseMigratedByANewerLockstepIsRefusedInADialogThatSaysToUpgrade() throws Exception {
        String url = org.lockstep.testing.db.TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "first start")) {
            db.jdbi().useHandle(h -> h.execute("INSERT INTO flyway_schema_history (installed_rank, version,"
                    + " description, type, script, checksum, installed_by, execution_time, success)"
                    + " SELECT max(installed_rank) + 1, '999', 'from a newer Lockstep', 'SQL', 'V999__newer.sql', 0,"
                    + " current_user, 1, true FROM flyway_schema_history"));
        }
        LockstepApplication.useContext(new UiContext("Åsa", () -> closing(Database.open(url, null, null,
                "older desktop"))));

        app = (LockstepApplication) FxToolkit.setupApplication(LockstepApplication::new);

        await(() -> robot.lookup("#start-failure").tryQuery().isPresent());
        DialogPane dialog = robot.lookup("#start-failure").queryAs(DialogPane.class);
        assertThat(dialog.getContentText()).startsWith("This database was upgraded by a newer Lockstep (schema"
                + " version 999; this Lockstep knows up to version ").endsWith("upgrade Lockstep on this computer,"
                        + " then start it again");
        assertThat(((javafx.scene.control.TextArea) dialog.getExpandableContent()).getText())
                .doesNotContain("--db-url");
        assertThat(LockstepApplication.exitCode()).isEqualTo(LockstepApplication.FAILURE);

        robot.interact(() -> dialog.getScene().getWindow().hide());
        FxToolkit.cleanupApplication(app);
    }

    /**
     * A server that refuses at once, before the starting window would show by itself: the starting window shows
     * first, behind the sign-in dialog, so that the dialog keeps the keyboard and the application lives on while it
     * signs in with the password typed (found by an attack on issue 30's quick starts).
     */
    @Test
    void aQuickRefusalShowsTheStartingWindowBehindTheSignInDialogAndTheSignInOpensTheMainWindow(Database db)
            throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        UiContext.SignIn signIn = password -> {
            attempts.incrementAndGet();
            return UiContext.Backend.of(PostgresClient.of(db, "Åsa", db::close), java.time.Duration.ofSeconds(60),
                    java.time.Duration.ofMinutes(15), null);
        };
        LockstepApplication.useContext(new UiContext("Åsa", () -> {
            throw new org.lockstep.domain.SignInRefusedException("The database server needs a password", "asa",
                    false, null);
        }, false, signIn));

        app = (LockstepApplication) FxToolkit.setupApplication(LockstepApplication::new);

        await(() -> robot.lookup("#" + SignInDialog.ID).tryQuery().isPresent());
        assertThat(robot.lookup("#starting-database").tryQuery()).isPresent();
        signInWith("the password");

        await(() -> robot.lookup("#" + ListIds.CUSTOMER_TABLE).tryQuery().isPresent());
        assertThat(attempts).hasValue(1);
        await(() -> robot.lookup("#starting-database").tryQuery().isEmpty());
        assertThat(LockstepApplication.exitCode()).isEqualTo(LockstepApplication.OK);
        FxToolkit.cleanupApplication(app);
    }

    /**
     * A team server's login whose password came from nowhere (issue 26): the desktop asks for it, says when the
     * server refused it, and opens with the right one, as the login, which the main window shows as the operator.
     */
    @Test
    void aTeamLoginWithoutAPasswordIsAskedForItAndTheWrongOneIsSaidSo() throws Exception {
        try (TeamServer team = TeamServer.create()) {
            String url = team.url() + "?user=" + team.bob();
            UiContext.SignIn signIn = password -> closing(Database.open(url, null, password, "Lockstep (sign-in)"));
            LockstepApplication.useContext(new UiContext("Bob the claimed",
                    () -> closing(Database.open(url, null, null, "Lockstep (no password)")), false, signIn));
            app = (LockstepApplication) FxToolkit.setupApplication(LockstepApplication::new);

            await(() -> robot.lookup("#" + SignInDialog.ID).tryQuery().isPresent());
            signInWith("not the password");
            await(() -> robot.lookup("#sign-in-reason").tryQuery().map(n -> ((Label) n).getText()
                    .startsWith("The server did not accept that password")).orElse(false));
            signInWith(TeamServer.PASSWORD);

            await(() -> robot.lookup("#" + ListIds.CUSTOMER_TABLE).tryQuery().isPresent());
            Window main = robot.lookup("#" + ListIds.CUSTOMER_TABLE).query().getScene().getWindow();
            assertThat(((Stage) main).getTitle()).isEqualTo("Lockstep — " + team.bob());
            assertThat(LockstepApplication.exitCode()).isEqualTo(LockstepApplication.OK);
            FxToolkit.cleanupApplication(app);
            FxToolkit.cleanupStages();
        }
    }

    /** A client of {@code db} that closes it with the application, claiming a name that is not its login. */
    private static UiContext.Backend closing(Database db) {
        return UiContext.Backend.of(PostgresClient.of(db, "Bob the claimed", db::close),
                java.time.Duration.ofSeconds(60), java.time.Duration.ofMinutes(15), null);
    }

    private void signInWith(String password) {
        DialogPane pane = robot.lookup("#" + SignInDialog.ID).queryAs(DialogPane.class);
        robot.interact(() -> {
            ((javafx.scene.control.PasswordField) pane.lookup("#sign-in-password")).setText(password);
            ((javafx.scene.control.Button) pane.lookupButton(pane.getButtonTypes().get(0))).fire();
        });
    }
}
