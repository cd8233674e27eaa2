package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.List;
import java.util.concurrent.TimeoutException;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.text.Text;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.testfx.api.FxRobot;

/**
 * The editor's Timeline tab, next to History: a customer Alice edited in her window and Bob saved after her shows both
 * saves on their writers' lanes, read from the database once the tab is clicked. Neither tab has its content before it
 * is first chosen.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class TimelineTabWindowTest {

    @FreshDatabase
    static Database db;
    static CustomerRepository bob;
    static FxTaskExecutor executor;
    static EditorServices aliceServices;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws TimeoutException {
        bob = Sessions.repository(db, "Bob");
        executor = new FxTaskExecutor(2);
        aliceServices = Sessions.services(db, "Alice", executor, Platform::runLater, Sessions.quickLocks());
    }

    @AfterAll
    static void stop() {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    @Test
    void theTimelineTabShowsBothSavesOfACustomerEditedTwice() {
        Customer c = Sessions.repository(db, "Alice").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "TAB-1").build());
        EditorWindowHandle alice = EditorWindowHandle.open(robot, aliceServices, c.id(), 0);
        alice.type(CustomerField.CITY, "Bergen").clickSave().awaitVersionLine("version 2 · saved by Alice");
        Customer v2 = bob.find(c.id()).orElseThrow();
        bob.save(c.id(), 2, v2.data().with(CustomerField.PHONE, "+47 55 00 00 00"));

        // Built when first chosen, not with the window (issue 30: a tab pane styles every tab's content at once).
        assertThat(Fx.call(() -> content(alice, "Timeline") == null && content(alice, "History") == null)).isTrue();

        robot.clickOn(Fx.call(() -> tabHeader(alice, "Timeline")));

        Fx.await("the timeline's saves", () -> labels(alice).containsAll(List.of("v2 saved", "v3 saved")));
        assertThat(Fx.call(() -> content(alice, "History") == null)).isTrue();
        assertThat(labels(alice)).containsExactly("created v1", "v2 saved", "v3 saved");
        assertThat(texts(alice, ".timeline-lane")).contains("Alice", "Database", "Bob");
        assertThat(Fx.call(() -> ((javafx.scene.control.Label) alice.stage().getScene().lookup("#timeline-status"))
                .getText())).isEqualTo("3 events");
        assertThat(Fx.call(() -> alice.viewModel().timeline().timelineProperty().get().events().get(2).lane()))
                .isEqualTo("Bob");
    }

    @Test
    void openInAWindowShowsTheSameTimelineInAWindowOfItsOwn() {
        Customer c = Sessions.repository(db, "Alice").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "TAB-2").build());
        bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Tromsø"));
        EditorWindowHandle alice = EditorWindowHandle.open(robot, aliceServices, c.id(), 0);
        robot.clickOn(Fx.call(() -> tabHeader(alice, "Timeline")));
        Fx.await("the timeline's saves", () -> labels(alice).contains("v2 saved"));

        robot.clickOn("#timeline-window");
        Fx.await("the timeline's own window", () -> largeWindow() != null);
        javafx.stage.Stage large = largeWindow();

        Fx.await("the events in the large window", () -> largeLabels(large).contains("v2 saved"));
        assertThat(largeLabels(large)).containsExactly("created v1", "v2 saved").isEqualTo(labels(alice));
        assertThat(Fx.call(large::getWidth)).isGreaterThan(Fx.call(() -> alice.stage().getScene()
                .lookup("#timeline-pane").getBoundsInParent().getWidth()));
    }

    private static javafx.stage.Stage largeWindow() {
        return Fx.call(() -> javafx.stage.Window.getWindows().stream()
                .filter(w -> w instanceof javafx.stage.Stage s && "Timeline — Lockstep".equals(s.getTitle()))
                .map(w -> (javafx.stage.Stage) w).findFirst().orElse(null));
    }

    private static List<String> largeLabels(javafx.stage.Stage stage) {
        return Fx.call(() -> stage.getScene().getRoot().lookupAll(".timeline-label").stream()
                .map(n -> ((Text) n).getText()).toList());
    }

    private static Node content(EditorWindowHandle w, String text) {
        TabPane tabs = (TabPane) w.stage().getScene().lookup("#tabs");
        return tabs.getTabs().stream().filter(t -> text.equals(t.getText())).findFirst().orElseThrow().getContent();
    }

    private static Node tabHeader(EditorWindowHandle w, String text) {
        TabPane tabs = (TabPane) w.stage().getScene().lookup("#tabs");
        Tab tab = tabs.getTabs().stream().filter(t -> text.equals(t.getText())).findFirst().orElseThrow();
        return tabs.lookupAll(".tab").stream()
                .filter(n -> n.lookup(".tab-label") instanceof javafx.scene.control.Label l
                        && text.equals(l.getText()))
                .findFirst().orElseThrow(() -> new AssertionError("No tab " + tab));
    }

    private static List<String> labels(EditorWindowHandle w) {
        return Fx.call(() -> w.stage().getScene().getRoot().lookupAll(".timeline-label").stream()
                .map(n -> ((Text) n).getText()).toList());
    }

    private static List<String> texts(EditorWindowHandle w, String group) {
        return Fx.call(() -> w.stage().getScene().getRoot().lookupAll(group).stream()
                .flatMap(g -> ((javafx.scene.Group) g).getChildren().stream()).filter(n -> n instanceof Text)
                .map(n -> ((Text) n).getText()).toList());
    }
}
