package org.lockstep.screenshots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.application.Platform;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.demo.DemoSession;
import org.lockstep.ui.demo.OpenDemo;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.guihandles.MergeDialogHandle;
import org.lockstep.ui.main.MainWindow;
import org.lockstep.ui.theme.ThemeChoice;
import org.lockstep.ui.theme.Themes;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The README's pictures in both themes, taken headless on a real database: the main window (Bob holds a lock, so
 * the Lock column shows a padlock), an editor on a customer another operator has locked (lock-view), the merge
 * dialog after two operators saved the same customer, the contention lab after a run, and the trainer demo's three
 * windows. Each is written as {@code NAME-light.png} and {@code NAME-dark.png} to {@code -Dlockstep.screenshots=DIR}
 * (else target/screenshots):
 * {@code ./mvnw -o test -Dtest=ThemeScreenshotsTest -Dlockstep.screenshots=$PWD/docs/screenshots}.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
@Timeout(300)
class ThemeScreenshotsTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    static final Preferences NODE = Preferences.userRoot().node("org/lockstep/test/" + UUID.randomUUID());

    final FxRobot robot = new FxRobot();
    Stage primary;
    MainWindow main;

    @BeforeAll
    static void seed() {
        executor = new FxTaskExecutor(4);
    }

    @AfterAll
    static void close() throws BackingStoreException {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
        NODE.removeNode();
        WaitForAsyncUtils.waitForAsyncFx(10_000,
                () -> Themes.install(Preferences.userRoot().node(Themes.NODE), () -> false));
    }

    @Start
    void start(Stage stage) {
        primary = stage;
        Themes.install(NODE, () -> false);
    }

    @Test
    void picturesOfEveryWindowInLightAndDark() throws Exception {
        EditorServices ana = services("Ana");
        EditorServices alice = services("Alice");
        EditorServices bob = services("Bob");
        List<Customer> customers = List.of(
                ana.customers().create(aCustomer().with(CustomerField.EXTERNAL_REF, "1").build()),
                ana.customers().create(aCustomer().with(CustomerField.EXTERNAL_REF, "2")
                        .with(CustomerField.COMPANY, "Tremblay Équipements").with(CustomerField.CONTACT_NAME,
                                "François Tremblay")
                        .with(CustomerField.CITY, "Montréal").with(CustomerField.COUNTRY, "Canada").build()),
                ana.customers().create(aCustomer().with(CustomerField.EXTERNAL_REF, "3")
                        .with(CustomerField.COMPANY, "Nordic Pine AB").with(CustomerField.CONTACT_NAME, "Sven Berg")
                        .with(CustomerField.CITY, "Umeå").with(CustomerField.COUNTRY, "Sweden").build()));

        // The main window, with Bob's lock for editing on the second customer.
        new JdbiLeaseRepository(db.jdbi(), "Bob", "Bob-" + UUID.randomUUID()).acquire(customers.get(1).id(), 120_000);
        main = Fx.call(() -> MainWindow.show(primary, ana));
        Fx.await("the list and its padlock", () -> primary.getScene().getRoot().lookup(".padlock") != null);
        Fx.run(() -> main.viewModel().list().select(customers.get(1).id()));
        shoot("main-window", primary);

        // An editor on the customer Alice holds: Bob sees who holds it, since when and until when.
        EditorWindowHandle aliceEditor = EditorWindowHandle.open(robot, alice, customers.get(2).id(), 0);
        aliceEditor.chooseLockForEditing().type(CustomerField.CITY, "Lund"); // the first edit takes the lock
        aliceEditor.awaitLockMessage("Locked for you until ");
        EditorWindowHandle bobEditor = EditorWindowHandle.open(robot, bob, customers.get(2).id(), 640);
        bobEditor.awaitLockMessage("Alice is editing this customer");
        shoot("lock-view", bobEditor.stage());
        Fx.run(() -> {
            aliceEditor.stage().close();
            bobEditor.stage().close();
        });

        // Both save the same customer: Bob's save opens the merge dialog, the city in conflict.
        EditorWindowHandle a = EditorWindowHandle.open(robot, alice, customers.get(0).id(), 0);
        EditorWindowHandle b = EditorWindowHandle.open(robot, bob, customers.get(0).id(), 640);
        a.type(CustomerField.CITY, "Laval").type(CustomerField.PHONE, "+1 (514) 555-0199").clickSave();
        a.awaitVersionLine("version 2");
        b.type(CustomerField.CITY, "Longueuil").type(CustomerField.EMAIL, "sales@example.com").clickSave();
        MergeDialogHandle merge = b.awaitMerge();
        Fx.run(() -> {
            merge.stage().setWidth(1100);
            merge.stage().setHeight(760);
        });
        shoot("merge-dialog", merge.stage());
        Fx.run(() -> {
            merge.stage().close();
            a.stage().close();
            b.stage().close();
        });

        // The contention lab after one run: "none" lost updates, its row in the conflict colour.
        Stage lab = LabAfterARun.open(primary, db, executor);
        shoot("lab", lab);
        Fx.run(lab::close);

        // The trainer demo: Alice's and Bob's windows and the Trainer panel, as they sit on the screen.
        DemoSession demo = OpenDemo.open(db, executor, Duration.ofSeconds(60));
        Fx.await("the operators' lists", () -> !demo.alice().window().viewModel().list().rows().isEmpty()
                && !demo.bob().window().viewModel().list().rows().isEmpty());
        shoot("demo", demo.alice().stage(), demo.bob().stage(), demo.trainerStage());
        OpenDemo.close(demo);
        // The main window's editor ends with the window, its timers too (the application exits at that point): it
        // shows the customer Bob holds, so it asks for the holder every poll until then (issue 27: the poll outlived
        // the class and started a thread of the shared scheduler in the next one).
        Fx.run(() -> {
            main.viewModel().editor().close();
            primary.hide();
        });
    }

    private static EditorServices services(String user) {
        return Sessions.services(db, user, executor, Platform::runLater, Sessions.quickLocks());
    }

    /** Writes the stages, composed as they sit on the screen, once per theme. */
    private static void shoot(String name, Stage... stages) throws Exception {
        Path dir = Path.of(System.getProperty("lockstep.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
        for (ThemeChoice theme : List.of(ThemeChoice.LIGHT, ThemeChoice.DARK)) {
            Fx.run(() -> Themes.current().choiceProperty().set(theme));
            WaitForAsyncUtils.waitForFxEvents();
            Path file = dir.resolve(name + "-" + theme.name().toLowerCase(java.util.Locale.ROOT) + ".png");
            ImageIO.write(compose(stages), "png", file.toFile());
            assertThat(Files.size(file)).isPositive();
        }
    }

    private static BufferedImage compose(Stage... stages) {
        double minX = Double.MAX_VALUE;
        double minY = Double.MAX_VALUE;
        double maxX = 0;
        double maxY = 0;
        for (Stage s : stages) {
            minX = Math.min(minX, s.getX());
            minY = Math.min(minY, s.getY());
            maxX = Math.max(maxX, s.getX() + s.getScene().getWidth());
            maxY = Math.max(maxY, s.getY() + s.getScene().getHeight());
        }
        BufferedImage out = new BufferedImage((int) (maxX - minX), (int) (maxY - minY), BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = out.createGraphics();
        for (Stage s : stages) {
            WritableImage shot = Fx.call(() -> s.getScene().snapshot(null));
            g.drawImage(Screens.image(shot), (int) (s.getX() - minX), (int) (s.getY() - minY), null);
        }
        g.dispose();
        return out;
    }
}
