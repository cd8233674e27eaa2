package org.lockstep.screenshots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.application.Platform;
import javafx.geometry.Rectangle2D;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.server.Database;
import org.lockstep.server.SampleData;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.SpeakingTheLanguage;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.text.Language;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.WindowPlaces;
import org.lockstep.ui.demo.DemoSession;
import org.lockstep.ui.demo.OpenDemo;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.main.MainWindow;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The documentation's pictures of a whole screen, in each language: the main window filling the screen with the
 * editor beside the list, an editor window over it on a customer another operator is editing (the lock view), and
 * the trainer demo's three windows as the demo places them on one screen. The screen is Monocle's headless one, so
 * its size is the run's {@code headless.geometry}; each picture is written as {@code NAME-WxH-LANG.png} (for
 * example {@code editor-1366x768-es.png}) to {@code -Dlockstep.screenshots=DIR}, and the test runs only when that
 * property is given — it makes pictures, it is not part of the suite. docs/screenshots/README.md has the two
 * commands (1366×768 and 1600×900) that make every picture there.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
@EnabledIfSystemProperty(named = "lockstep.screenshots", matches = ".+")
@Timeout(600)
class ScreenSizeScreenshotsTest {

    @FreshDatabase
    static Database db;
    /** The demo's own database, with the sample customers, as `lockstep demo` gives it one (lockstep_demo). */
    @FreshDatabase
    static Database demoDb;
    static FxTaskExecutor executor;
    static final Preferences NODE = Preferences.userRoot().node("org/lockstep/test/" + UUID.randomUUID());
    static List<Customer> customers;

    final FxRobot robot = new FxRobot();
    Stage primary;

    @BeforeAll
    static void seed() {
        executor = new FxTaskExecutor(4);
        SampleData.loadIfEmpty(demoDb.jdbi(), "Trainer");
        EditorServices setup = Sessions.services(db, "Setup", executor, Platform::runLater, Sessions.quickLocks());
        String[][] rows = {
                {"Tremblay Équipements", "François Tremblay", "Montréal", "Canada", "f.tremblay@tremblay.example",
                        "+1 514 555 0142"},
                {"Nordic Pine AB", "Sven Berg", "Umeå", "Sweden", "sven@nordicpine.example", "+46 90 555 120"},
                {"", "Maria da Silva", "São Paulo", "Brazil", "maria.silva@correio.example", "+55 11 5555 0188"},
                {"Casa Azul Cerámica", "Lucía Romero", "Sevilla", "Spain", "lucia@casaazul.example", "+34 954 555 301"},
                {"", "Bjørn Hansen", "Oslo", "Norway", "bjorn.hansen@post.example", "+47 22 55 50 11"},
                {"Kestrel Freight", "Tom Hale", "Leeds", "United Kingdom", "tom.hale@kestrel.example",
                        "+44 113 496 0877"},
                {"", "Jennifer Peterson", "Vancouver", "Canada", "jenny.p@mail.example", "+1 604 555 0165"},
                {"Wójcik Sp. z o.o.", "Ewa Wójcik", "Kraków", "Poland", "ewa@wojcik.example", "+48 12 555 04 20"},
                {"", "Luís Gonçalves", "São José dos Campos", "Brazil", "luisg@embraer.example", "+55 12 3923 5555"},
        };
        customers = new ArrayList<>();
        for (int copy = 0; copy < 3; copy++) {
            for (int i = 0; i < rows.length; i++) {
                customers.add(setup.customers().create(aCustomer()
                        .with(CustomerField.EXTERNAL_REF, "S" + copy + i).with(CustomerField.COMPANY, rows[i][0])
                        .with(CustomerField.CONTACT_NAME, rows[i][1]).with(CustomerField.CITY, rows[i][2])
                        .with(CustomerField.COUNTRY, rows[i][3]).with(CustomerField.EMAIL, rows[i][4])
                        .with(CustomerField.PHONE, rows[i][5]).build()));
            }
        }
    }

    @AfterAll
    static void close() throws BackingStoreException {
        executor.closeAndWait(Duration.ofSeconds(10)); // in-flight calls end before the database closes
        NODE.removeNode();
    }

    @Start
    void start(Stage stage) {
        primary = stage;
    }

    @ParameterizedTest(name = "in {0}")
    @MethodSource("org.lockstep.testing.Translations#everyLanguage")
    @ExtendWith(SpeakingTheLanguage.class)
    void picturesOfTheEditorTheLockViewAndTheDemo(Language language) throws Exception {
        Rectangle2D screen = Fx.call(() -> Screen.getPrimary().getVisualBounds());
        String suffix = (int) screen.getWidth() + "x" + (int) screen.getHeight() + "-" + tag(language);
        int first = language.ordinal() * 2;
        EditorServices ana = services("Ana");
        EditorServices alice = services("Alice");
        EditorServices bob = services("Bob");

        // The main window filling the screen, Bob's padlock in the list, the editor beside it.
        new JdbiLeaseRepository(db.jdbi(), "Bob", "Bob-" + UUID.randomUUID()).acquire(customers.get(first + 1).id(),
                120_000);
        MainWindow main = Fx.call(() -> {
            MainWindow shown = MainWindow.show(primary, ana.toBuilder().places(WindowPlaces.forOperator(NODE,
                    "Ana-" + language.tag())).build());
            primary.setX(screen.getMinX());
            primary.setY(screen.getMinY());
            primary.setWidth(screen.getWidth());
            primary.setHeight(screen.getHeight());
            return shown;
        });
        Fx.await("the list and its padlock", () -> primary.getScene().getRoot().lookup(".padlock") != null);
        Fx.run(() -> main.viewModel().list().select(customers.get(first).id()));
        Fx.await("the editor beside the list", () -> primary.getScene().getRoot().lookup(".tab-pane") != null);
        Path editor = shoot(screen, "editor-" + suffix, primary);

        // Alice edits a customer; Bob's editor window, over the main window, says she is and since when.
        EditorWindowHandle aliceEditor = EditorWindowHandle.open(robot, alice, customers.get(first + 2).id(), 0);
        aliceEditor.chooseLockForEditing().type(CustomerField.CITY, "Lund"); // the first edit takes the lock
        awaitLockSentence(aliceEditor);
        EditorWindowHandle bobEditor = EditorWindowHandle.open(robot, bob, customers.get(first + 2).id(),
                screen.getMinX() + screen.getWidth() / 3);
        Fx.run(() -> bobEditor.stage().setHeight(Math.min(790, screen.getHeight())));
        awaitLockSentence(bobEditor);
        Path lockView = shoot(screen, "lock-view-" + suffix, primary, bobEditor.stage());
        Fx.run(() -> {
            aliceEditor.stage().close();
            bobEditor.stage().close();
        });
        // The main window's editor ends with the window, its timers too (the application exits at that point).
        Fx.run(() -> {
            main.viewModel().editor().close();
            primary.hide();
        });

        // The trainer demo's three windows where the demo puts them on one screen, after its first step.
        DemoSession demo = OpenDemo.open(demoDb, executor, Duration.ofSeconds(60));
        Fx.await("the operators' lists", () -> !demo.alice().window().viewModel().list().rows().isEmpty()
                && !demo.bob().window().viewModel().list().rows().isEmpty());
        Fx.call(() -> demo.trainer().runNext()).get(60, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        Path demoShot = shoot(screen, "demo-" + suffix, demo.alice().stage(), demo.bob().stage(),
                demo.trainerStage());
        OpenDemo.close(demo);

        for (Path picture : List.of(editor, lockView, demoShot)) {
            BufferedImage read = ImageIO.read(picture.toFile());
            assertThat(read.getWidth()).as("width of %s", picture).isEqualTo((int) screen.getWidth());
            assertThat(read.getHeight()).as("height of %s", picture).isEqualTo((int) screen.getHeight());
        }
    }

    /** Waits until the editor's lock bar says something: in any of the three languages, so by presence. */
    private static void awaitLockSentence(EditorWindowHandle editor) {
        Fx.await("the lock bar's sentence", () -> {
            String now = editor.lockMessage();
            return now != null && !now.isBlank();
        });
    }

    private static EditorServices services(String user) {
        return Sessions.services(db, user, executor, Platform::runLater, Sessions.quickLocks());
    }

    /** The language's tag as the file names have it: en, es, pt-BR. */
    private static String tag(Language language) {
        return language == Language.ENGLISH ? "en" : language.tag();
    }

    /** Writes the stages, in order (later ones on top), where they sit on a screen of the given bounds. */
    private static Path shoot(Rectangle2D screen, String name, Stage... stages) throws Exception {
        Path dir = Path.of(System.getProperty("lockstep.screenshots"));
        Files.createDirectories(dir);
        WaitForAsyncUtils.waitForFxEvents();
        BufferedImage out = new BufferedImage((int) screen.getWidth(), (int) screen.getHeight(),
                BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setColor(new Color(0x3a, 0x40, 0x48)); // a plain desktop behind the windows
        g.fillRect(0, 0, out.getWidth(), out.getHeight());
        for (Stage s : stages) {
            BufferedImage shot = Screens.image(Fx.call(() -> s.getScene().snapshot(null)));
            g.drawImage(shot, (int) (s.getX() - screen.getMinX()), (int) (s.getY() - screen.getMinY()), null);
        }
        g.dispose();
        Path file = dir.resolve(name.toLowerCase(Locale.ROOT).replace("pt-br", "pt-BR") + ".png");
        ImageIO.write(out, "png", file.toFile());
        return file;
    }
}
