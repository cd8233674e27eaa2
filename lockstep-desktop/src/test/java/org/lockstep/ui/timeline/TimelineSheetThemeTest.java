package org.lockstep.ui.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.paint.Color;
import javafx.scene.shape.Rectangle;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Contrast;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.theme.ThemeChoice;
import org.lockstep.ui.theme.Themes;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The timeline of a customer read from the database draws on a white sheet in the light theme and on a dark one in
 * the dark theme, its texts readable on it, and follows the operator's switch while it shows (it drew white in the
 * dark theme before).
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class TimelineSheetThemeTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    static final Preferences NODE = Preferences.userRoot().node("org/lockstep/test/" + UUID.randomUUID());

    TimelinePane pane;

    @BeforeAll
    static void seed() {
        executor = new FxTaskExecutor(2);
    }

    @AfterAll
    static void close() throws BackingStoreException {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
        NODE.removeNode();
    }

    @Start
    void start(Stage stage) {
        Themes.install(NODE, () -> false).choiceProperty().set(ThemeChoice.LIGHT);
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "SHEET-1").build());
        alice.save(c.id(), c.version(), c.data().with(CustomerField.CITY, "Campinas"));
        TimelineViewModel vm = new TimelineViewModel(new JdbiHistoryRepository(db.jdbi()), executor, ZoneId.of("UTC"));
        pane = new TimelinePane(vm);
        stage.setScene(new Scene(pane.root(), 900, 500));
        stage.show();
        vm.setActive(true);
        vm.show(c.id());
    }

    @AfterEach
    void light() {
        Fx.run(() -> Themes.current().choiceProperty().set(ThemeChoice.LIGHT));
    }

    @Test
    void theSheetIsWhiteInTheLightThemeAndDarkInTheDarkOneWithItsTextsReadable() throws Exception {
        Fx.await("the customer's timeline", () -> paper() != null && !texts().isEmpty());
        assertThat(Fx.call(() -> paper().getFill())).isEqualTo(Color.WHITE);

        Fx.run(() -> Themes.current().choiceProperty().set(ThemeChoice.DARK));
        WaitForAsyncUtils.waitForFxEvents();
        Color dark = Fx.call(() -> (Color) paper().getFill());
        assertThat(Contrast.luminance(dark)).isLessThan(0.05);
        for (Text t : Fx.call(this::texts)) {
            assertThat(Contrast.ratio((Color) Fx.call(t::getFill), dark)).as(Fx.call(t::getText))
                    .isGreaterThanOrEqualTo(4.5);
        }

        Fx.run(() -> Themes.current().choiceProperty().set(ThemeChoice.LIGHT));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(Fx.call(() -> paper().getFill())).isEqualTo(Color.WHITE);
    }

    private Rectangle paper() {
        Parent drawing = (Parent) pane.drawing();
        return drawing.getChildrenUnmodifiable().isEmpty()
                || !(drawing.getChildrenUnmodifiable().get(0) instanceof Rectangle r) ? null : r;
    }

    private List<Text> texts() {
        return pane.drawing().lookupAll("Text").stream().filter(Text.class::isInstance).map(Text.class::cast)
                .toList();
    }
}
