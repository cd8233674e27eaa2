package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.merge.MergeViewModel;

/**
 * An open editor follows other sessions' saves (issue 5): Alice's editor hears Bob's saves, deletes and a psql
 * {@code UPDATE} on a real database. View-model tests feed the hub's notifications directly and run database calls
 * on the test's thread; one test goes through the real LISTEN/NOTIFY feed.
 */
@DatabaseTest
class CustomerEditorLiveTest {

    @FreshDatabase
    static Database db;
    static CustomerRepository bob;
    static final AtomicInteger REFS = new AtomicInteger();

    EditorServices aliceServices;
    LiveUpdates live;
    Customer stored;
    CustomerEditorViewModel editor;

    @BeforeAll
    static void open() {
        bob = Sessions.repository(db, "Bob");
    }

    @BeforeEach
    void aliceOpensACustomer() {
        EditorServices plain = Sessions.services(db, "Alice", TaskExecutor.sameThread(), Runnable::run,
                Sessions.quickLocks());
        live = new LiveUpdates(Runnable::run, plain.customers().sessionId());
        aliceServices = plain.toBuilder().live(live).build();
        stored = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LIVE-" + REFS.incrementAndGet()).build());
        editor = new CustomerEditorViewModel(aliceServices);
        editor.load(stored.id());
    }

    @AfterEach
    void closeEditor() {
        editor.close();
    }

    Customer bobSaves(Customer base, CustomerField field, String value) {
        SaveOutcome outcome = bob.save(base.id(), base.version(), base.data().with(field, value));
        Customer saved = ((SaveOutcome.Saved) outcome).saved();
        notifyOf(saved, "UPDATE", bob.sessionId());
        return saved;
    }

    void notifyOf(Customer c, String op, String session) {
        live.changes(List.of(new ChangeEvent("customer", c.id(), c.version(), op, Optional.ofNullable(session))));
    }

    @Test
    void aCleanEditorMovesToAnotherSessionsSaveAndReportsTheChangedFields() {
        Customer v2 = bobSaves(stored, CustomerField.PHONE, "+1 555 0100");

        assertThat(editor.buffer().baseProperty().get().version()).isEqualTo(2);
        assertThat(editor.buffer().text(CustomerField.PHONE).get()).isEqualTo("+1 555 0100");
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
        assertThat(editor.live().recentlyChangedProperty().get()).containsExactly(CustomerField.PHONE);
        assertThat(editor.live().bannerProperty().get()).isNull();
        assertThat(editor.buffer().baseProperty().get()).isEqualTo(v2);
    }

    @Test
    void aDirtyEditorKeepsItsBaseAndEditsShowsTheBannerAndItsSaveOpensTheMerge() {
        editor.buffer().text(CustomerField.CITY).set("Curitiba");

        Customer v2 = bobSaves(stored, CustomerField.PHONE, "+1 555 0100");
        Customer v3 = bobSaves(v2, CustomerField.EMAIL, "bob@example.com");

        assertThat(editor.buffer().baseProperty().get().version()).isEqualTo(1);
        assertThat(editor.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(editor.buffer().dirtyProperty().get()).isTrue();
        assertThat(editor.live().bannerProperty().get()).isEqualTo("Bob saved version 3 (email, phone) — Review");

        assertThat(editor.saves().save()).isTrue();

        MergeViewModel merge = editor.conflicts().mergeProperty().get();
        assertThat(merge).as("a stale save meets the newer version").isNotNull();
        assertThat(merge.base().version()).isEqualTo(1);
        assertThat(merge.theirs()).contains(v3);
        assertThat(bob.find(stored.id()).orElseThrow().version()).as("nothing written").isEqualTo(3);
    }

    @Test
    void theBannerNamesEveryFieldChangedSinceTheBaseAndReviewOpensTheMergeNow() {
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        Customer v2 = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "OTHER-" + REFS.incrementAndGet())
                .build());
        notifyOf(v2, "INSERT", bob.sessionId());
        Customer saved = bobSaves(stored, CustomerField.PHONE, "+1 555 0100");
        assertThat(editor.live().bannerProperty().get()).isEqualTo("Bob saved version 2 (phone) — Review");

        editor.live().review();

        MergeViewModel merge = editor.conflicts().mergeProperty().get();
        assertThat(merge.base()).isEqualTo(stored);
        assertThat(merge.mine().city()).isEqualTo("Curitiba");
        assertThat(merge.theirs()).contains(saved);
        merge.saveMerged();
        Customer merged = bob.find(stored.id()).orElseThrow();
        assertThat(merged.version()).isEqualTo(3);
        assertThat(merged.data().city()).isEqualTo("Curitiba");
        assertThat(merged.data().phone()).isEqualTo("+1 555 0100");
        assertThat(editor.buffer().baseProperty().get()).isEqualTo(merged);
        assertThat(editor.live().bannerProperty().get()).isNull();
    }

    @Test
    void ownSavesDoNotRaiseTheBanner() {
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        editor.saves().save();
        Customer mine = editor.buffer().baseProperty().get();
        editor.buffer().text(CustomerField.PHONE).set("+55 11 0000-0000");

        notifyOf(mine, "UPDATE", editor.writerId());

        assertThat(editor.live().bannerProperty().get()).isNull();
        assertThat(editor.live().recentlyChangedProperty().get()).isEmpty();
        assertThat(editor.buffer().text(CustomerField.PHONE).get()).isEqualTo("+55 11 0000-0000");
        assertThat(mine.version()).isEqualTo(2);
    }

    @Test
    void aCleanEditorFollowsASaveFromAnotherEditorOfThisProcessLikeAnyonesAndHighlightsIt() {
        CustomerEditorViewModel other = new CustomerEditorViewModel(aliceServices);
        other.load(stored.id());
        other.buffer().text(CustomerField.PHONE).set("+1 555 0111");
        other.saves().save();
        Customer saved = other.buffer().baseProperty().get();
        other.close();

        notifyOf(saved, "UPDATE", other.writerId());

        assertThat(editor.buffer().baseProperty().get()).isEqualTo(saved);
        assertThat(editor.live().recentlyChangedProperty().get()).containsExactly(CustomerField.PHONE);
        assertThat(editor.live().bannerProperty().get()).isNull();
    }

    @Test
    void aPsqlUpdateWithoutSessionReachesACleanEditor() {
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET fax = '+1 555 0199', version = version + 1 "
                + "WHERE id = ?", stored.id()));
        live.changes(List.of(new ChangeEvent("customer", stored.id(), 2, "UPDATE", Optional.empty())));

        assertThat(editor.buffer().text(CustomerField.FAX).get()).isEqualTo("+1 555 0199");
        assertThat(editor.live().recentlyChangedProperty().get()).containsExactly(CustomerField.FAX);
    }

    @Test
    void aDeleteByAnotherSessionShowsTheDeletedState() {
        assertThat(bob.delete(stored.id(), stored.version())).isInstanceOf(DeleteOutcome.Deleted.class);
        notifyOf(stored, "DELETE", bob.sessionId());

        assertThat(editor.stateProperty().get()).isEqualTo(EditorState.DELETED);
        assertThat(editor.noticeProperty().get().text()).isEqualTo("Bob deleted this customer; it no longer exists.");
    }

    @Test
    void aDeleteReachingADirtyEditorKeepsTheEditsAndOffersTheDeletedFlow() {
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        bob.delete(stored.id(), stored.version());
        notifyOf(stored, "DELETE", bob.sessionId());

        assertThat(editor.stateProperty().get()).isEqualTo(EditorState.EDITING);
        assertThat(editor.live().bannerProperty().get()).isEqualTo("Bob deleted this customer — Review");
        editor.live().review();
        assertThat(editor.conflicts().mergeProperty().get().deletedProperty().get()).isTrue();
    }

    @Test
    void revertWithThePendingBannerShowsTheNewerVersion() {
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        Customer v2 = bobSaves(stored, CustomerField.PHONE, "+1 555 0100");

        editor.revert();

        assertThat(editor.buffer().baseProperty().get()).isEqualTo(v2);
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
        assertThat(editor.live().bannerProperty().get()).isNull();
    }

    @Test
    void aResyncReadsTheRecordAgain() {
        Customer v2 = ((SaveOutcome.Saved) bob.save(stored.id(), 1,
                stored.data().with(CustomerField.PHONE, "+1 555 0100"))).saved();

        live.resync();

        assertThat(editor.buffer().baseProperty().get()).isEqualTo(v2);
    }

    @Test
    void aCleanEditorFollowsASaveThroughTheRealChangeFeed() {
        try (UiThreadExecutor ui = new UiThreadExecutor()) {
            EditorServices plain = Sessions.services(db, "Carol", ui, ui::onUi, Sessions.quickLocks());
            LiveUpdates feedHub = new LiveUpdates(ui::onUi, plain.customers().sessionId());
            CustomerEditorViewModel carol =
                    ui.onUi(() -> new CustomerEditorViewModel(plain.toBuilder().live(feedHub).build()));
            ui.onUi(() -> carol.load(stored.id()));
            ChangeFeed feed = db.changeFeed(feedHub);
            try {
                feed.start();
                await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
                await().atMost(Duration.ofSeconds(10)).until(() -> ui.onUi(() -> carol.stateProperty().get())
                        == EditorState.EDITING);

                bob.save(stored.id(), stored.version(), stored.data().with(CustomerField.EMAIL, "new@example.com"));

                await().atMost(Duration.ofSeconds(10)).until(() -> ui.onUi(
                        () -> carol.buffer().text(CustomerField.EMAIL).get()).equals("new@example.com"));
                assertThat(ui.onUi(() -> carol.live().recentlyChangedProperty().get()))
                        .containsExactly(CustomerField.EMAIL);
                assertThat(ui.onUi(() -> carol.buffer().baseProperty().get().version())).isEqualTo(2);
            } finally {
                feed.close();
                ui.onUi(carol::close);
            }
        }
    }
}
