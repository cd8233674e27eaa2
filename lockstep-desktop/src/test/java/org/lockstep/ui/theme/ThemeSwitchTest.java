package org.lockstep.ui.theme;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.application.Platform;
import javafx.scene.Parent;
import javafx.scene.control.Alert;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockstep.server.Database;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.domain.CustomerData;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.main.MainWindow;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * View → Theme on the main window over a real database: choosing Dark restyles the open main window and an open
 * dialog at once, and the choice, kept in the preference node, is what a main window opened after a restart shows.
 * The desktop is taken as light here, so that Dark is a change.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class ThemeSwitchTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;

    final Preferences node = Preferences.userRoot().node("org/lockstep/test/" + UUID.randomUUID());
    MainWindow window;

    @BeforeAll
    static void seed() {
        new JdbiCustomerRepository(db.jdbi(), "Zoë").create(new CustomerData(null, "Nordic Pine AB", "Sven Berg",
                null, "sven@nordicpine.example", null, null, null, "Umeå", null, null, "Sweden", null, null));
        executor = new FxTaskExecutor(2);
    }

    @AfterAll
    static void close() {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
        // Later tests in this JVM get the operator's own (unchanged) preference again, on a light desktop.
        WaitForAsyncUtils.waitForAsyncFx(10_000,
                () -> Themes.install(Preferences.userRoot().node(Themes.NODE), () -> false));
    }

    @Start
    void start(Stage stage) {
        Themes.install(node, () -> false);
        window = open(stage);
    }

    @AfterEach
    void forget() throws BackingStoreException {
        node.removeNode();
    }

    private static MainWindow open(Stage stage) {
        return MainWindow.show(stage, Sessions.services(db, "Zoë", executor, Platform::runLater,
                Sessions.quickLocks()));
    }

    @Test
    void choosingDarkRestylesTheOpenWindowAndAnOpenDialogAtOnce(FxRobot robot) {
        Alert dialog = WaitForAsyncUtils.waitForAsyncFx(10_000, () -> {
            Alert alert = new Alert(Alert.AlertType.INFORMATION, "Saved");
            alert.initOwner(window.stage());
            // Not modal, so that the main window's menu can be used while it is open (as from another window).
            alert.initModality(javafx.stage.Modality.NONE);
            alert.setX(window.stage().getX() + 400);
            alert.setY(window.stage().getY() + 300);
            alert.show();
            return alert;
        });
        assertThat(isDark(window.root())).as("main window before").isFalse();
        assertThat(isDark(dialog.getDialogPane())).as("dialog before").isFalse();

        robot.clickOn("View").clickOn("Theme").clickOn("Dark");

        await(() -> isDark(window.root()) && isDark(dialog.getDialogPane()));
        assertThat(Themes.current().darkProperty().get()).isTrue();
        assertThat(node.get(Themes.KEY, null)).isEqualTo("DARK");
        robot.interact(dialog::close);

        robot.clickOn("View").clickOn("Theme").clickOn("Light");
        await(() -> !isDark(window.root()));
        assertThat(node.get(Themes.KEY, null)).isEqualTo("LIGHT");
    }

    @Test
    void theChoiceSurvivesARestartOfTheWindow(FxRobot robot) {
        robot.clickOn("View").clickOn("Theme").clickOn("Dark");
        await(() -> isDark(window.root()));
        robot.interact(() -> window.stage().close());

        // A restart: the theme read again from the same preference node, a new main window on a new stage.
        MainWindow again = WaitForAsyncUtils.waitForAsyncFx(10_000, () -> {
            Themes.install(node, () -> false);
            return open(new Stage());
        });

        await(() -> isDark(again.root()));
        assertThat(Themes.current().choiceProperty().get()).isEqualTo(ThemeChoice.DARK);
        RadioMenuItem dark = WaitForAsyncUtils.waitForAsyncFx(10_000, () -> {
            javafx.scene.control.MenuBar bar = (javafx.scene.control.MenuBar) again.root().lookup(".menu-bar");
            javafx.scene.control.Menu view = bar.getMenus().stream()
                    .filter(m -> ThemeMenu.VIEW_MENU_ID.equals(m.getId())).findFirst().orElseThrow();
            return (RadioMenuItem) ((javafx.scene.control.Menu) view.getItems().get(0)).getItems().stream()
                    .filter(i -> ThemeMenu.itemId(ThemeChoice.DARK).equals(i.getId())).findFirst().orElseThrow();
        });
        assertThat(dark.isSelected()).as("View → Theme → Dark checked").isTrue();
        robot.clickOn("View").clickOn("Theme");
        robot.clickOn("Light");
        await(() -> !isDark(again.root()));
    }

    @Test
    void systemFollowsTheDesktop(FxRobot robot) {
        WaitForAsyncUtils.waitForAsyncFx(10_000, () -> Themes.install(node, () -> true));
        await(() -> isDark(window.root()));
        assertThat(Themes.current().choiceProperty().get()).isEqualTo(ThemeChoice.SYSTEM);
        assertThat(node.get(Themes.KEY, null)).as("nothing chosen, nothing written").isNull();
    }

    /** Whether the node's resolved background is dark (WCAG relative luminance under 0.05). */
    private static boolean isDark(Parent root) {
        return WaitForAsyncUtils.waitForAsyncFx(10_000, () -> {
            root.applyCss();
            Region region = (Region) root;
            if (region.getBackground() == null || region.getBackground().getFills().isEmpty()) {
                return false;
            }
            Color c = (Color) region.getBackground().getFills().get(region.getBackground().getFills().size() - 1)
                    .getFill();
            return org.lockstep.ui.Contrast.luminance(c) < 0.05;
        });
    }

    private static void await(java.util.concurrent.Callable<Boolean> condition) {
        try {
            // Evaluated on the FX thread: the scene graph is its own, and a lookup from the test thread while a page arrives
            // walked a child list as it changed (IndexOutOfBoundsException, seen on CI in LockstepApplicationTest).
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> Fx.call(condition));
        } catch (TimeoutException e) {
            throw new AssertionError("Condition not met within 20 s", e);
        }
    }
}
