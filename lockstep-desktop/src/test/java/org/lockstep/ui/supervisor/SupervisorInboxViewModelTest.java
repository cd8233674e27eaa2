package org.lockstep.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.Message;
import org.lockstep.testing.InMemoryMessageRepository;
import org.lockstep.testing.ManualClock;
import org.lockstep.ui.live.LiveUpdates;

/**
 * A supervisor's list of requests, on the in-memory messages (kept honest by the contract tests): what it reads at
 * start, what a {@code SUPERVISORS} notification makes it read — always from the store, whatever the payload says —
 * and that an operator who is none lists nothing.
 */
class SupervisorInboxViewModelTest {

    final ManualClock clock = new ManualClock(Instant.parse("2026-12-04T10:42:00Z"));
    final InMemoryMessageRepository bob = InMemoryMessageRepository.empty(clock, "Bob", "bob-client", false);
    final InMemoryMessageRepository sam = bob.as("Sam", "sam-client", true);
    final LiveUpdates live = new LiveUpdates(Runnable::run, "sam-client");
    final List<Long> opened = new ArrayList<>();

    SupervisorInboxViewModel inbox(InMemoryMessageRepository messages, TaskExecutor executor) {
        return new SupervisorInboxViewModel(messages, executor, live, clock, opened::add);
    }

    void announce(long customer, long messageId) {
        live.changes(List.of(new ChangeEvent("message", customer, messageId, "SUPERVISORS", Optional.of("bob"))));
    }

    static List<String> texts(SupervisorInboxViewModel inbox) {
        return inbox.requests().stream().map(r -> r.message().text()).toList();
    }

    @Test
    void atStartItListsTheRequestsOfTheWindowNewestFirstWithWhoAskedWhenAndAboutWhom() {
        bob.askSupervisors(7, "yesterday's");
        clock.advance(SupervisorInboxViewModel.WINDOW.plusMinutes(1));
        bob.askSupervisors(27, "Please break Alice's lock on customer 27 (Alfreds Futterkiste)");
        clock.advance(Duration.ofMinutes(3));
        bob.askSupervisors(28, "and 28 too");
        SupervisorInboxViewModel inbox = inbox(sam, TaskExecutor.sameThread());

        inbox.start();

        assertThat(texts(inbox)).containsExactly("and 28 too",
                "Please break Alice's lock on customer 27 (Alfreds Futterkiste)");
        assertThat(inbox.requests().get(1).heading()).isEqualTo("Bob asked at 22:43 about customer 27");
        assertThat(inbox.headingProperty().get()).isEqualTo("Requests to supervisors (2)");
    }

    @Test
    void aNotificationMakesItReadTheNewRequestFromTheStoreNeverFromThePayload() {
        SupervisorInboxViewModel inbox = inbox(sam, TaskExecutor.sameThread());
        inbox.start();
        assertThat(inbox.requests()).isEmpty();

        Message sent = bob.askSupervisors(27, "Please break Alice's lock");
        announce(999, 12_345); // payloads are hints: anyone may NOTIFY, with any ids

        assertThat(inbox.requests()).singleElement().satisfies(r -> {
            assertThat(r.message()).isEqualTo(sent);
            assertThat(r.message().customerId()).isEqualTo(27);
        });
        announce(999, 12_346);
        assertThat(inbox.requests()).as("read once, listed once").hasSize(1);
    }

    @Test
    void anOperatorWhoIsNoSupervisorListsNoRequest() {
        bob.askSupervisors(27, "Please break Alice's lock");
        SupervisorInboxViewModel inbox = inbox(bob, TaskExecutor.sameThread());

        inbox.start();
        announce(27, 1);

        assertThat(inbox.requests()).isEmpty();
    }

    @Test
    void openOpensTheCustomersEditorAndADismissedRequestStaysAway() {
        bob.askSupervisors(27, "Please break Alice's lock");
        SupervisorInboxViewModel inbox = inbox(sam, TaskExecutor.sameThread());
        inbox.start();

        inbox.open(inbox.requests().get(0));
        inbox.dismiss(inbox.requests().get(0));
        bob.askSupervisors(28, "another");
        announce(28, 2);

        assertThat(opened).containsExactly(27L);
        assertThat(texts(inbox)).containsExactly("another");
    }

    @Test
    void aNotificationWhileTheStartsReadRunsIsReadAfterIt() {
        HeldBack executor = new HeldBack();
        SupervisorInboxViewModel inbox = inbox(sam, executor);
        inbox.start();
        Message late = bob.askSupervisors(27, "sent while the start read");
        announce(27, late.id());
        assertThat(executor.queued).as("one read at a time").hasSize(1);

        executor.runAll(); // the start's read saw the request already; the second read finds nothing newer
        executor.runAll();

        assertThat(texts(inbox)).containsExactly("sent while the start read");
        assertThat(executor.queued).isEmpty();
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
}
