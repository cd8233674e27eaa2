package org.lockstep.ui.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiMessageRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.editor.CustomerEditorViewModel;
import org.lockstep.ui.editor.EditorNotice;
import org.lockstep.ui.live.LiveUpdates;

/**
 * "Message the holder…" through the real message table and LISTEN/NOTIFY feed: Bob waits on Alice's lock and asks
 * her to save; Alice's editor shows it at once. Alice's FX-thread deliveries run on her feed's thread.
 */
@DatabaseTest
class HolderMessagingTest {

    @FreshDatabase
    static Database db;
    final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    EditorServices operator(String user) {
        EditorServices plain = Sessions.services(db, user, TaskExecutor.sameThread(), Runnable::run,
                Sessions.quickLocks());
        LiveUpdates live = new LiveUpdates(Runnable::run, plain.customers().sessionId());
        ChangeFeed feed = db.changeFeed(live);
        feed.start();
        toClose.add(feed);
        await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
        return plain.toBuilder().live(live).messages(new JdbiMessageRepository(db.jdbi(), user,
                plain.customers().sessionId())).build();
    }

    @Test
    void aWaitingOperatorsMessageReachesTheHoldersEditorAtOnce() {
        Customer c = Sessions.repository(db, "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "M-1").build());
        CustomerEditorViewModel alice = new CustomerEditorViewModel(operator("Alice"));
        alice.load(c.id());
        alice.lock().lock();
        CustomerEditorViewModel bob = new CustomerEditorViewModel(operator("Bob"));
        bob.load(c.id());
        HolderMessaging bobMessaging = bob.helpers().messaging().orElseThrow();
        assertThat(bobMessaging.canMessageProperty().get()).isTrue();
        assertThat(alice.helpers().messaging().orElseThrow().canMessageProperty().get()).as("Alice holds it").isFalse();

        assertThat(bobMessaging.send("Please save, I need this customer")).isTrue();

        assertThat(bobMessaging.statusProperty().get()).isEqualTo("Message sent to Alice");
        assertThat(bobMessaging.sentProperty().get()).as("news told once: the editor's toast").isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> alice.noticeProperty().get() != null);
        assertThat(alice.noticeProperty().get().text()).isEqualTo("Bob: Please save, I need this customer");
        assertThat(alice.noticeProperty().get().kind()).isEqualTo(EditorNotice.Kind.INFO);
        assertThat(bob.noticeProperty().get()).as("the sender is not told of his own message").isNull();
        alice.close();
        bob.close();
    }

    @Test
    void aMessageReachesTheWindowHoldingTheLockNotTheHoldersOtherWindow() {
        Customer c = Sessions.repository(db, "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "M-3").build());
        EditorServices aliceClient = operator("Alice");
        // The other window first: it hears each notification before the holder's window does, so that once the
        // holder shows the message, the other window has had its chance to show it too.
        CustomerEditorViewModel aliceOther = new CustomerEditorViewModel(aliceClient);
        CustomerEditorViewModel aliceHolder = new CustomerEditorViewModel(aliceClient);
        aliceHolder.load(c.id());
        aliceHolder.lock().lock();
        aliceOther.load(c.id());
        CustomerEditorViewModel bob = new CustomerEditorViewModel(operator("Bob"));
        bob.load(c.id());

        assertThat(bob.helpers().messaging().orElseThrow().send("Please save, I need this customer")).isTrue();

        await().atMost(Duration.ofSeconds(5)).until(() -> aliceHolder.noticeProperty().get() != null);
        assertThat(aliceHolder.noticeProperty().get().text()).isEqualTo("Bob: Please save, I need this customer");
        assertThat(aliceOther.noticeProperty().get()).isNull();
        String to = db.jdbi().withHandle(h -> h.createQuery("SELECT to_session FROM message WHERE customer_id = :id")
                .bind("id", c.id()).mapTo(String.class).one());
        assertThat(to).isEqualTo(aliceHolder.writerId());
        aliceOther.close();
        aliceHolder.close();
        bob.close();
    }

    @Test
    void aMessageWithNobodyToReceiveItIsNotSentAndTheOperatorIsToldWhy() {
        Customer c = Sessions.repository(db, "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "M-2").build());
        CustomerEditorViewModel bob = new CustomerEditorViewModel(operator("Bob"));
        bob.load(c.id());
        HolderMessaging messaging = bob.helpers().messaging().orElseThrow();

        assertThat(messaging.send("Please save")).isFalse();
        assertThat(messaging.statusProperty().get())
                .isEqualTo("Nobody else holds this customer's lock now — there is no one to message.");
        assertThat(messaging.sentProperty().get()).as("why not stays in the lock bar").isFalse();
        long stored = db.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM message WHERE customer_id = :id").bind("id", c.id()).mapTo(Long.class).one());
        assertThat(stored).isZero();
        bob.close();
    }
}
