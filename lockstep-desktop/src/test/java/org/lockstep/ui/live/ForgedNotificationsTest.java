package org.lockstep.ui.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.editing.LockState;
import org.lockstep.editing.WriterIds;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiMessageRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.editor.CustomerEditorViewModel;
import org.lockstep.ui.editor.EditorState;
import org.lockstep.ui.list.CustomerListViewModel;
import org.lockstep.ui.list.LiveListUpdater;

/**
 * B5 of issue 26's review: on a team server any operator may {@code pg_notify} any payload on the channel every client
 * listens to, and any writer may name any session. Alice's client — a clean editor, an editor with unsaved edits,
 * her list, her messages — hears forged notifications through the real feed, sent here with plain JDBC, and each
 * must then show exactly what the database holds: a forged notification costs a read, never a wrong display or
 * state. The other way round too: a real change (or message) whose notification names Alice's own session must
 * not be taken for her own echo. Deliveries to the "FX thread" and database calls run on the feed's thread, so once
 * a subscriber added last has heard the batch, every consumer has handled it.
 */
@DatabaseTest
class ForgedNotificationsTest {

    static final String PHONE = "+48 12 000 00 00";

    @FreshDatabase
    static Database db;

    final List<AutoCloseable> toClose = new ArrayList<>();
    LiveUpdates live;
    EditorServices alice;
    Customer stored;
    CustomerEditorViewModel clean;
    CustomerEditorViewModel dirty;
    CustomerListViewModel list;

    @BeforeEach
    void aliceShowsACustomerInTwoEditorsAndHerList() {
        EditorServices plain = Sessions.services(db, "Alice", TaskExecutor.sameThread(), Runnable::run,
                Sessions.quickLocks());
        live = new LiveUpdates(Runnable::run, plain.customers().sessionId());
        alice = plain.toBuilder().live(live)
                .messages(new JdbiMessageRepository(db.jdbi(), "Alice", plain.customers().sessionId())).build();
        stored = Sessions.repository(db, "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "FORGED-" + System.nanoTime()).build());
        list = new CustomerListViewModel(alice.customers(), TaskExecutor.sameThread());
        list.start();
        toClose.add(new LiveListUpdater(list, alice.customers(), TaskExecutor.sameThread(), live)::close);
        clean = new CustomerEditorViewModel(alice);
        clean.load(stored.id());
        dirty = new CustomerEditorViewModel(alice);
        dirty.load(stored.id());
        dirty.buffer().text(CustomerField.PHONE).set(PHONE);
        ChangeFeed feed = db.changeFeed(live);
        feed.start();
        toClose.add(feed);
        await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
    }

    @AfterEach
    void closeAll() throws Exception {
        clean.close();
        dirty.close();
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void forgedNotificationsOfEveryKindLeaveEveryConsumerShowingWhatTheDatabaseHolds() throws Exception {
        long id = stored.id();
        String bob = "bob-" + System.nanoTime() + "/editor-1";

        forge("""
                {"table":"customer","id":%1$d,"version":99,"op":"UPDATE","session":"%2$s"}""".formatted(id, bob),
                """
                {"table":"customer","id":%1$d,"version":98,"op":"UPDATE","session":"%2$s"}""".formatted(id,
                        dirty.writerId()), // as if from Alice's other window
                """
                {"table":"customer","id":%1$d,"version":1,"op":"DELETE","session":"%2$s"}""".formatted(id, bob),
                """
                {"table":"customer","id":0,"version":20000,"op":"MANY","session":"%s"}""".formatted(bob),
                """
                {"table":"record_lease","id":%1$d,"version":7,"op":"INSERT","session":"%2$s","holder":"Bob",\
                "ended":null}""".formatted(id, bob),
                """
                {"table":"message","id":%1$d,"version":1,"op":"INSERT","session":"%2$s"}""".formatted(id, bob),
                """
                {"table":"presence","id":%1$d,"version":0,"op":"INSERT","session":"%2$s","state":"editing"}"""
                        .formatted(id, bob),
                "not json at all");

        Customer inDatabase = Sessions.repository(db, "Check").find(id).orElseThrow();
        assertThat(inDatabase.version()).isEqualTo(1);
        for (CustomerEditorViewModel editor : List.of(clean, dirty)) {
            assertThat(editor.stateProperty().get()).isEqualTo(EditorState.EDITING);
            assertThat(editor.buffer().baseProperty().get()).isEqualTo(inDatabase);
            assertThat(editor.live().bannerProperty().get()).as("no 'saved version 99', no 'deleted'").isNull();
            assertThat(editor.live().theirs()).isEmpty();
            assertThat(editor.conflicts().mergeProperty().get()).as("no merge offered").isNull();
            assertThat(editor.lock().stateProperty().get()).as("no lease row: nobody holds it")
                    .isInstanceOf(LockState.Free.class);
            assertThat(editor.noticeProperty().get()).as("no message shown that the table does not hold").isNull();
        }
        assertThat(clean.live().recentlyChangedProperty().get()).isEmpty();
        assertThat(dirty.buffer().text(CustomerField.PHONE).get()).isEqualTo(PHONE);
        assertThat(dirty.status().canSaveProperty().get()).isTrue();
        assertThat(list.rows()).filteredOn(c -> c.id() == id).containsExactly(inDatabase);
        assertThat(list.lockText(id)).isEmpty();
    }

    @Test
    void aRealChangeWhoseNotificationNamesAlicesOwnEditorIsShownAsTheWritersChange() throws Exception {
        long id = stored.id();

        // An operator in psql names Alice's editor as the writer; the trigger's notification carries it.
        committedHearing(() -> db.jdbi().useTransaction(h -> {
            h.createQuery("SELECT set_config('lockstep.session', :s, true)").bind("s", clean.writerId())
                    .mapTo(String.class).one();
            h.createUpdate("UPDATE customer SET city = 'Gdańsk' WHERE id = :id").bind("id", id).execute();
        }));

        Customer inDatabase = Sessions.repository(db, "Check").find(id).orElseThrow();
        assertThat(inDatabase.version()).isEqualTo(2);
        String who = db.jdbi().withHandle(h -> h.createQuery(
                "SELECT changed_by FROM customer_history WHERE customer_id = :id AND version = 2").bind("id", id)
                .mapTo(String.class).one());
        assertThat(clean.buffer().baseProperty().get()).isEqualTo(inDatabase);
        assertThat(clean.live().recentlyChangedProperty().get()).containsExactly(CustomerField.CITY);
        assertThat(dirty.buffer().baseProperty().get().version()).as("the stale save still meets version 2")
                .isEqualTo(1);
        assertThat(dirty.live().bannerProperty().get()).isEqualTo(who + " saved version 2 (city) — Review");
        assertThat(dirty.live().theirs()).contains(inDatabase);
        assertThat(list.rows()).filteredOn(c -> c.id() == id).containsExactly(inDatabase);
    }

    @Test
    void aRealMessageWhoseNotificationNamesAlicesClientAsSenderIsShown() throws Exception {
        long id = stored.id();

        committedHearing(() -> db.jdbi().useHandle(h -> h.createQuery(
                "SELECT id FROM lockstep_send_message('Bob', :from, :to, :customer, 'Please save')")
                .bind("from", WriterIds.clientOf(clean.writerId())).bind("to", clean.writerId())
                .bind("customer", id).mapTo(Long.class).one()));

        assertThat(clean.noticeProperty().get()).isNotNull();
        assertThat(clean.noticeProperty().get().text()).isEqualTo("Bob: Please save");
        assertThat(dirty.noticeProperty().get()).as("sent to the other window's writer id").isNull();
    }

    @Test
    void aForgedMessageNotificationNeverShowsAMessageAgain() throws Exception {
        long id = stored.id();
        committedHearing(() -> db.jdbi().useHandle(h -> h.createQuery(
                "SELECT id FROM lockstep_send_message('Bob', 'bob', :to, :customer, 'Please save')")
                .bind("to", clean.writerId()).bind("customer", id).mapTo(Long.class).one()));
        assertThat(clean.noticeProperty().get().text()).isEqualTo("Bob: Please save");
        List<String> shown = new ArrayList<>();
        clean.noticeProperty().addListener((o, was, now) -> shown.add(now == null ? null : now.text()));

        forge("""
                {"table":"message","id":%d,"version":0,"op":"INSERT","session":"bob"}""".formatted(id));

        assertThat(shown).isEmpty();
    }

    /** Sends these payloads on the channel in one transaction, then waits until Alice's client has heard them all. */
    void forge(String... payloads) throws Exception {
        String sentinel = "{\"table\":\"sentinel\",\"id\":-1,\"version\":" + System.nanoTime()
                + ",\"op\":\"NONE\",\"session\":null}";
        CountDownLatch heard = heardOnce(sentinel);
        List<String> all = new ArrayList<>(List.of(payloads));
        all.add(sentinel);
        db.jdbi().useHandle(h -> {
            Connection c = h.getConnection();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT count(pg_notify('lockstep', p)) FROM unnest(?::text[]) WITH ORDINALITY t(p, n)")) {
                ps.setArray(1, c.createArrayOf("text", all.toArray()));
                ps.execute();
            }
        });
        assertThat(heard.await(10, TimeUnit.SECONDS)).as("the forged notifications arrived").isTrue();
    }

    /** Runs a real write, then waits until Alice's client has heard everything notified up to then. */
    void committedHearing(ThrowingRunnable write) throws Exception {
        write.run();
        forge();
    }

    /** Counts down once a subscriber added after every consumer hears the sentinel: they have all handled it. */
    CountDownLatch heardOnce(String sentinel) {
        CountDownLatch latch = new CountDownLatch(1);
        long marker = Long.parseLong(sentinel.replaceAll(".*\"version\":(\\d+).*", "$1"));
        Runnable[] unsubscribe = new Runnable[1];
        unsubscribe[0] = live.subscribe(batch -> {
            if (batch.stream().anyMatch(c -> "sentinel".equals(c.event().table()) && c.event().version() == marker)) {
                latch.countDown();
            }
        });
        toClose.add(unsubscribe[0]::run);
        return latch;
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
