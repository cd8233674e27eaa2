package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.application.Platform;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.ScrollPane;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.live.LiveUpdates;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 27, "One place for messages": an editor window at 1280×740 on the real embedded database, with the worst case
 * of messages wanted at once — its save failed (the error notice), Bob locked the customer (the lock message), Bob
 * saved a version while Alice had edits (the live update), and the customer is often edited at the same time (the
 * hot-record advice). One box shows, the error; "3 more" steps to the next; the fields keep most of the window.
 * Alice's writes fail as a lost connection would ({@link FailingWrites}); her reads, her lease store and her change
 * feed are the database's.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class OneMessageAreaWindowTest {

    static final AtomicInteger REFS = new AtomicInteger();
    @FreshDatabase
    static Database db;
    static CustomerRepository bob;
    static CustomerRepository carol;
    static FxTaskExecutor executor;
    static final List<ChangeFeed> FEEDS = new ArrayList<>();
    static EditorServices alice;

    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws TimeoutException {
        bob = Sessions.repository(db, "Bob");
        carol = Sessions.repository(db, "Carol");
        executor = new FxTaskExecutor(2);
        EditorServices plain = Sessions.services(db, "Alice", executor, Platform::runLater, Sessions.quickLocks());
        LiveUpdates live = new LiveUpdates(Platform::runLater, plain.clientSession());
        ChangeFeed feed = db.changeFeed(live);
        FEEDS.add(feed);
        feed.start();
        Fx.await("the change feed to be live", () -> feed.status() == ChangeFeed.Status.LIVE);
        alice = plain.toBuilder().live(live)
                .customers(new FailingWrites(plain.customers(), new IllegalStateException("Connection refused")))
                .build();
    }

    @AfterAll
    static void stop() {
        FEEDS.forEach(ChangeFeed::close);
        executor.closeAndWait(Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    /** Carol saved version 2; Bob's three saves based on version 1 each met it: a hot customer. */
    static Customer aHotCustomer() {
        Customer c = carol.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ONE-PLACE-" + REFS.incrementAndGet())
                .build());
        carol.save(c.id(), 1, c.data().with(CustomerField.CITY, "Curitiba"));
        for (int i = 0; i < 3; i++) {
            assertThat(bob.save(c.id(), 1, c.data())).isInstanceOf(SaveOutcome.Conflict.class);
        }
        return c;
    }

    /** Alice's editor at 1280×740 with an error notice, a lock message, a live update and the hot-record advice. */
    EditorWindowHandle everyMessageWanted() {
        Customer hot = aHotCustomer();
        EditorWindowHandle editor = EditorWindowHandle.open(robot, alice, hot.id(), 0);
        Fx.run(() -> {
            editor.stage().setWidth(1280);
            editor.stage().setHeight(740);
        });
        CustomerEditorViewModel model = editor.viewModel();
        Fx.await("the hot-record advice", () -> editor.hotRecordAdvice() != null);
        editor.type(CustomerField.PHONE, "+55 41 5550 100").clickSave();
        Fx.await("the save to fail", () -> model.noticeProperty().get() != null
                && model.noticeProperty().get().kind() == EditorNotice.Kind.ERROR);
        Customer v2 = bob.find(hot.id()).orElseThrow();
        bob.save(hot.id(), v2.version(), v2.data().with(CustomerField.CITY, "Londrina"));
        Fx.await("the live update", () -> model.live().bannerProperty().get() != null);
        String bobSession = "Bob-" + REFS.incrementAndGet();
        assertThat(new JdbiLeaseRepository(db.jdbi(), "Bob", bobSession).acquire(hot.id(),
                Duration.ofMinutes(5).toMillis())).isInstanceOf(AcquireOutcome.Granted.class);
        Fx.await("Bob's lock to be told", () -> model.lock().messageProperty().get().startsWith("Bob is editing"));
        Fx.await("the live update still wanted and the error still standing",
                () -> model.live().bannerProperty().get() != null && model.noticeProperty().get() != null
                        && model.noticeProperty().get().kind() == EditorNotice.Kind.ERROR);
        WaitForAsyncUtils.waitForFxEvents();
        return editor;
    }

    @Test
    void withEveryMessageWantedOnlyTheErrorShowsAndTheFieldsKeepMostOfTheWindow() {
        EditorWindowHandle editor = everyMessageWanted();

        assertThat(editor.shownBanners()).as("one box, the error").containsExactly(EditorIds.NOTICE_BAR);
        assertThat(editor.notice()).isEqualTo("Can't reach the database — your changes are kept. Try Save again.");
        assertThat(editor.moreMessages()).isEqualTo("3 more");

        double content = Fx.call(() -> editor.stage().getScene().getHeight());
        double form = Fx.call(() -> formViewport(editor).getHeight());
        assertThat(form / content).as("the form's share of the editor's height (%.0f of %.0f px)", form, content)
                .isGreaterThanOrEqualTo(0.6);
        List<CustomerField> visible = Fx.call(() -> fieldsVisibleWithoutScrolling(editor));
        assertThat(visible).as("fields wholly visible without scrolling").hasSizeGreaterThanOrEqualTo(8);
    }

    @Test
    void moreStepsToTheNextMessageAndEscapeDismissesTheOneShown() {
        EditorWindowHandle editor = everyMessageWanted();

        editor.clickMoreMessages();

        assertThat(editor.shownBanners()).containsExactly(EditorIds.LOCK_BAR);
        assertThat(editor.lockMessage()).startsWith("Bob is editing this customer");
        assertThat(editor.moreMessages()).isEqualTo("3 more");
        editor.clickMoreMessages();
        assertThat(editor.shownBanners()).containsExactly(EditorIds.LIVE_BAR);
        assertThat(editor.liveBanner()).startsWith("Bob saved version ");

        robot.push(KeyCode.ESCAPE);

        assertThat(editor.liveBanner()).as("dismissed").isNull();
        assertThat(editor.shownBanners()).as("the most urgent left shows").containsExactly(EditorIds.NOTICE_BAR);
        assertThat(editor.moreMessages()).isEqualTo("2 more");
        javafx.scene.control.Button more = (javafx.scene.control.Button) Fx.call(
                () -> editor.stage().getScene().getRoot().lookup("#" + EditorIds.MORE_MESSAGES));
        assertThat(more.isFocusTraversable()).as("reached with Tab").isTrue();
        Fx.run(more::requestFocus);
        robot.push(KeyCode.SPACE);
        assertThat(editor.shownBanners()).as("Space on \"2 more\" steps").containsExactly(EditorIds.LOCK_BAR);
        assertThat(Fx.call(more::isFocused)).as("the keyboard stays on it, for the next one").isTrue();
    }

    /** The form's visible part: the Details tab's scroll pane's viewport. */
    static Bounds formViewport(EditorWindowHandle editor) {
        ScrollPane scroll = (ScrollPane) editor.stage().getScene().getRoot().lookup(".form-scroll");
        return scroll.localToScene(scroll.getLayoutBounds());
    }

    /** The fields whose control lies wholly inside the form's viewport, the form scrolled to its top. */
    static List<CustomerField> fieldsVisibleWithoutScrolling(EditorWindowHandle editor) {
        ScrollPane scroll = (ScrollPane) editor.stage().getScene().getRoot().lookup(".form-scroll");
        assertThat(scroll.getVvalue()).as("scrolled to the top").isEqualTo(scroll.getVmin());
        Bounds viewport = formViewport(editor);
        return Arrays.stream(CustomerField.values()).filter(f -> {
            Node control = editor.stage().getScene().getRoot().lookup("#" + EditorIds.field(f));
            Bounds b = control.localToScene(control.getLayoutBounds());
            return b.getMinY() >= viewport.getMinY() && b.getMaxY() <= viewport.getMaxY();
        }).toList();
    }
}
