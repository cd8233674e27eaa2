package org.lockstep.ui.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.Message;
import org.lockstep.domain.MessageRepository;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.editing.LeaseSettings;
import org.lockstep.editing.LockState;
import org.lockstep.testing.InMemoryCustomerRepository;
import org.lockstep.testing.InMemoryLeaseRepository;
import org.lockstep.testing.InMemoryMessageRepository;
import org.lockstep.testing.ManualClock;

/**
 * "Ask a supervisor…" as a view model, on the fakes (kept honest by the repositories' contract tests): Alice holds
 * the customer; Bob, who may not break her lock, drafts a request, edits it and sends it; Sam, a supervisor, reads
 * it. The executor runs sends only when the test says, so the busy state between is seen.
 */
class SupervisorAskTest {

    static final LeaseSettings SETTINGS = new LeaseSettings(Duration.ofHours(1), Duration.ofHours(2),
            Duration.ofMinutes(1), Duration.ofHours(1));

    final ManualClock clock = new ManualClock(Instant.parse("2026-12-04T10:42:00Z"));
    final InMemoryCustomerRepository customers = InMemoryCustomerRepository.empty("Setup", clock);
    final InMemoryLeaseRepository aliceLeases = InMemoryLeaseRepository.over(customers, clock, "Alice");
    final InMemoryMessageRepository bobMessages =
            InMemoryMessageRepository.empty(clock, "Bob", "bob-client/editor-1", false);
    final InMemoryMessageRepository samMessages = bobMessages.as("Sam", "sam-client", true);
    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    final HeldBack executor = new HeldBack();
    final List<EditLockViewModel> locks = new ArrayList<>();
    long customer;

    @BeforeEach
    void aliceHoldsTheCustomer() {
        customer = customers.create(aCustomer().build()).id();
        aliceLeases.acquire(customer, Duration.ofHours(1).toMillis());
    }

    @AfterEach
    void closeTheLocks() {
        locks.forEach(EditLockViewModel::close);
        scheduler.shutdownNow();
    }

    /** Bob's lock on the customer, seeing Alice's lease; a supervisor's when {@code supervisor}. */
    EditLockViewModel bobsLock(boolean supervisor) {
        EditLockViewModel lock = new EditLockViewModel(aliceLeases.as("Bob", "bob-client/editor-1"),
                TaskExecutor.sameThread(), Runnable::run, scheduler, clock, SETTINGS);
        if (!supervisor) {
            lock.onlySupervisorsBreakLocks();
        }
        locks.add(lock);
        lock.attach(customer);
        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.HeldByOther.class);
        return lock;
    }

    SupervisorAsk ask(MessageRepository messages, TaskExecutor tasks, EditLockViewModel lock) {
        SupervisorAsk ask = new SupervisorAsk(messages, tasks, lock, clock);
        ask.attach(customer);
        return ask;
    }

    @Test
    void anOperatorWhoMayNotBreakTheLockSendsAPrefilledEditableRequestThatASupervisorReads() {
        SupervisorAsk ask = ask(bobMessages, executor, bobsLock(false));
        assertThat(ask.canAskProperty().get()).isTrue();

        SupervisorAsk.Request request = ask.draft("Alfreds Futterkiste");
        assertThat(request.textProperty().get())
                .isEqualTo("Please break Alice's lock on customer " + customer + " (Alfreds Futterkiste)");
        request.textProperty().set(request.textProperty().get() + " — a caller is waiting");
        request.send();

        assertThat(request.busyProperty().get()).as("busy while the send runs").isTrue();
        assertThat(request.canSendProperty().get()).isFalse();
        assertThat(samMessages.supervisorRequests(0)).as("nothing sent before the executor ran it").isEmpty();
        executor.runAll();

        assertThat(request.busyProperty().get()).isFalse();
        assertThat(request.sentProperty().get()).isTrue();
        assertThat(ask.askedProperty().get()).isEqualTo("Asked the supervisors at 10:42");
        assertThat(samMessages.supervisorRequests(0)).singleElement().satisfies(m -> {
            assertThat(m.fromUser()).isEqualTo("Bob");
            assertThat(m.customerId()).isEqualTo(customer);
            assertThat(m.text()).endsWith("(Alfreds Futterkiste) — a caller is waiting");
        });
    }

    @Test
    void aSupervisorIsOfferedNoRequestForTheyBreakTheLockThemselves() {
        SupervisorAsk ask = ask(samMessages, executor, bobsLock(true));

        assertThat(ask.canAskProperty().get()).isFalse();
        assertThatThrownBy(() -> ask.draft("Alfreds Futterkiste")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aFailedSendSaysWhatHappenedAndKeepsTheTextToSendAgain() {
        SupervisorAsk ask = ask(new Unreachable(), TaskExecutor.sameThread(), bobsLock(false));
        SupervisorAsk.Request request = ask.draft("Alfreds Futterkiste");
        request.textProperty().set("Please, Alice left for lunch");

        request.send();

        assertThat(request.errorProperty().get())
                .isEqualTo("Your request was not sent: The database cannot be reached.");
        assertThat(request.textProperty().get()).isEqualTo("Please, Alice left for lunch");
        assertThat(request.sentProperty().get()).isFalse();
        assertThat(request.canSendProperty().get()).isTrue();
        assertThat(ask.askedProperty().get()).isEmpty();
    }

    @Test
    void anEmptyRequestIsNotSentAndSaysWhy() {
        SupervisorAsk ask = ask(bobMessages, TaskExecutor.sameThread(), bobsLock(false));
        SupervisorAsk.Request request = ask.draft("Alfreds Futterkiste");
        request.textProperty().set("   ");

        assertThat(request.canSendProperty().get()).isFalse();
        request.send();

        assertThat(request.errorProperty().get()).isEqualTo("Write a message first.");
        assertThat(samMessages.supervisorRequests(0)).isEmpty();
    }

    @Test
    void anotherCustomerInTheEditorClearsWhatTheBarSaid() {
        SupervisorAsk ask = ask(bobMessages, TaskExecutor.sameThread(), bobsLock(false));
        ask.draft("Alfreds Futterkiste").send();
        assertThat(ask.askedProperty().get()).isNotEmpty();

        ask.detach();

        assertThat(ask.askedProperty().get()).isEmpty();
        assertThat(ask.canAskProperty().get()).isFalse();
    }

    /** Runs each task only at {@link #runAll()}, on the test's thread. */
    static final class HeldBack implements TaskExecutor {
        final List<Runnable> queued = new ArrayList<>();

        @Override
        public <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
            queued.add(() -> TaskExecutor.sameThread().run(work, onSuccess, onFailure));
        }

        void runAll() {
            List<Runnable> now = List.copyOf(queued);
            queued.clear();
            now.forEach(Runnable::run);
        }
    }

    /** A store that cannot be reached; the test calls nothing else of it. */
    static final class Unreachable implements MessageRepository {
        @Override
        public Message askSupervisors(long customerId, String text) {
            throw new StoreUnavailableException("The database cannot be reached.", null);
        }

        @Override
        public Message send(String toSession, long customerId, String text) {
            throw new AssertionError("This method should not be called.");
        }

        @Override
        public List<Message> supervisorRequests(long afterId) {
            throw new AssertionError("This method should not be called.");
        }

        @Override
        public List<Message> supervisorRequestsSince(Instant since) {
            throw new AssertionError("This method should not be called.");
        }

        @Override
        public List<Message> received(long customerId, long afterId) {
            throw new AssertionError("This method should not be called.");
        }

        @Override
        public MessageRepository asWriter(String writerId) {
            throw new AssertionError("This method should not be called.");
        }
    }
}
