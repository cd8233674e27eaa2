package org.lockstep.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseRepository;

/**
 * What every {@link LeaseRepository} promises, run against {@code JdbiLeaseRepository} on PostgreSQL (in
 * lockstep-postgres) and against the {@link InMemoryLeaseRepository} that view-model tests use (here): when the fake
 * drifts from the store, a case fails for one of the two. A subclass says how to make the clients of one store, its
 * customers, and how a lease's time runs out.
 *
 * <p>Time is the store's: the database clock for the Jdbi store, the fake's clock for the fake. So the cases assert
 * only what holds whichever clock it is — times as the store reports them, compared with each other; durations within
 * a margin for the time a statement takes — and never wait for a lease to lapse: {@link #lapse} makes it so.
 * Each case makes customers of its own, so a store may be shared by the cases of a class.
 */
public abstract class LeaseRepositoryContractTest {

    /** Generous against a slow machine, still far below every TTL the cases use. */
    static final long MARGIN_MS = 5_000;
    static final long TTL_MS = 60_000;

    /** A new client session of the one store every client of this test shares, acting as {@code holder}. */
    protected abstract LeaseRepository client(String holder);

    /** A new customer in that store: its id. */
    protected abstract long aCustomer();

    /** Deletes the customer, as its own store does. */
    protected abstract void deleteCustomer(long recordId);

    /** Deletes the customer as the holder of its lease does: the one writer the lease lets through. */
    protected abstract void deleteAsHolder(long recordId, LeaseRepository holder, Lease lease);

    /**
     * Lets the record's running lease lapse, as if its time ran out with no renewal (its holder crashed or slept): by
     * the store's clock it is past its expiry once this returns.
     */
    protected abstract void lapse(long recordId);

    private static Lease granted(AcquireOutcome outcome) {
        assertThat(outcome).isInstanceOf(AcquireOutcome.Granted.class);
        return ((AcquireOutcome.Granted) outcome).lease();
    }

    private static List<LeaseEvent.Kind> kinds(LeaseRepository leases, long recordId) {
        return leases.events(recordId).stream().map(LeaseEvent::kind).toList();
    }

    @Test
    void aGrantRunsForItsTtlAndOthersSeeItsHolder() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");

        Lease lease = granted(alice.acquire(id, TTL_MS));

        assertThat(lease.recordId()).isEqualTo(id);
        assertThat(lease.remainingMs()).isBetween(TTL_MS - MARGIN_MS, TTL_MS);
        assertThat(Duration.between(lease.acquiredAt(), lease.expiresAt()).toMillis()).isBetween(TTL_MS,
                TTL_MS + MARGIN_MS);
        LeaseInfo seen = new LeaseInfo(id, "Alice", alice.sessionId(), lease.token(), lease.acquiredAt(),
                lease.expiresAt());
        assertThat(client("Bob").holder(id)).contains(seen);
        assertThat(client("Bob").active()).contains(seen);
        LeaseEvent grant = alice.events(id).get(0);
        assertThat(grant).isEqualTo(new LeaseEvent(id, lease.token(), "Alice", LeaseEvent.Kind.ACQUIRED, "Alice",
                lease.acquiredAt(), java.util.Optional.of(lease.expiresAt())));
    }

    @Test
    void anotherSessionIsRefusedAndToldWhoHoldsEvenUnderTheSameName() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        Lease lease = granted(alice.acquire(id, TTL_MS));

        AcquireOutcome bob = client("Bob").acquire(id, TTL_MS);
        AcquireOutcome alicesOtherClient = client("Alice").acquire(id, TTL_MS);

        LeaseInfo holder = new LeaseInfo(id, "Alice", alice.sessionId(), lease.token(), lease.acquiredAt(),
                lease.expiresAt());
        assertThat(bob).isEqualTo(new AcquireOutcome.HeldByOther(holder));
        assertThat(alicesOtherClient).isEqualTo(new AcquireOutcome.HeldByOther(holder));
        assertThat(kinds(alice, id)).containsExactly(LeaseEvent.Kind.ACQUIRED);
    }

    @Test
    void theHolderAskingAgainGetsANewerTokenThatEndsTheOldGrant() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        Lease first = granted(alice.acquire(id, TTL_MS));

        Lease second = granted(alice.acquire(id, TTL_MS));

        assertThat(second.token()).isGreaterThan(first.token());
        assertThat(alice.holder(id).map(LeaseInfo::token)).contains(second.token());
        assertThat(alice.renew(id, first.token(), TTL_MS)).isEmpty();
        assertThat(alice.release(id, first.token())).isFalse();
        List<LeaseEvent> events = alice.events(id);
        assertThat(events).extracting(LeaseEvent::kind).containsExactly(LeaseEvent.Kind.ACQUIRED,
                LeaseEvent.Kind.ACQUIRED);
        assertThat(events.get(0).expiresAt()).contains(second.acquiredAt());
        assertThat(events.get(1).at()).isEqualTo(second.acquiredAt());
    }

    @Test
    void everyGrantOnEveryCustomerHasALargerTokenThanTheOnesBefore() {
        long one = aCustomer();
        long other = aCustomer();
        LeaseRepository alice = client("Alice");
        LeaseRepository bob = client("Bob");

        Lease a = granted(alice.acquire(one, TTL_MS));
        Lease b = granted(bob.acquire(other, TTL_MS));
        alice.release(one, a.token());
        Lease c = granted(bob.acquire(one, TTL_MS));
        lapse(other);
        Lease d = granted(alice.acquire(other, TTL_MS));

        assertThat(List.of(a.token(), b.token(), c.token(), d.token())).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void aReleasedLeaseIsFreeAndItsTrailEndsWhereItWasReleased() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        LeaseRepository bob = client("Bob");
        Lease lease = granted(alice.acquire(id, TTL_MS));

        assertThat(alice.release(id, lease.token())).isTrue();

        assertThat(bob.holder(id)).isEmpty();
        assertThat(bob.active()).noneMatch(l -> l.recordId() == id);
        Lease next = granted(bob.acquire(id, TTL_MS));
        assertThat(next.token()).isGreaterThan(lease.token());
        List<LeaseEvent> events = bob.events(id);
        assertThat(events).extracting(LeaseEvent::kind).containsExactly(LeaseEvent.Kind.ACQUIRED,
                LeaseEvent.Kind.RELEASED, LeaseEvent.Kind.ACQUIRED);
        LeaseEvent released = events.get(1);
        assertThat(released.token()).isEqualTo(lease.token());
        assertThat(released.holder()).isEqualTo("Alice");
        assertThat(released.actor()).isEqualTo("Alice");
        assertThat(released.expiresAt()).isEmpty();
        assertThat(events.get(0).expiresAt()).contains(released.at());
        assertThat(released.at()).isBetween(lease.acquiredAt(), next.acquiredAt());
    }

    @Test
    void onlyTheHoldingSessionReleasesAndARepeatedReleaseSaysReleased() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        Lease lease = granted(alice.acquire(id, TTL_MS));

        assertThat(client("Bob").release(id, lease.token())).isFalse();
        assertThat(client("Alice").release(id, lease.token())).isFalse();
        assertThat(alice.holder(id).map(LeaseInfo::token)).contains(lease.token());

        assertThat(alice.release(id, lease.token())).isTrue();
        assertThat(alice.release(id, lease.token())).isTrue();
        assertThat(kinds(alice, id)).containsExactly(LeaseEvent.Kind.ACQUIRED, LeaseEvent.Kind.RELEASED);
    }

    @Test
    void aLapsedLeaseIsNobodysAndTheNextGrantIsATakeover() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        LeaseRepository bob = client("Bob");
        Lease lease = granted(alice.acquire(id, TTL_MS));

        lapse(id);

        assertThat(bob.holder(id)).isEmpty();
        assertThat(bob.active()).noneMatch(l -> l.recordId() == id);
        assertThat(alice.renew(id, lease.token(), TTL_MS)).isEmpty();
        assertThat(alice.release(id, lease.token())).isFalse();
        Lease taken = granted(bob.acquire(id, TTL_MS));
        assertThat(taken.token()).isGreaterThan(lease.token());
        assertThat(bob.holder(id).map(LeaseInfo::holder)).contains("Bob");
        LeaseEvent takeover = bob.events(id).get(1);
        assertThat(kinds(bob, id)).containsExactly(LeaseEvent.Kind.ACQUIRED, LeaseEvent.Kind.EXPIRED_TAKEOVER);
        assertThat(takeover.holder()).isEqualTo("Bob");
        assertThat(takeover.actor()).isEqualTo("Bob");
        assertThat(takeover.token()).isEqualTo(taken.token());
    }

    @Test
    void theHolderTakingItsOwnLapsedLeaseAgainIsAnAcquisition() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        Lease lease = granted(alice.acquire(id, TTL_MS));
        lapse(id);

        Lease again = granted(alice.acquire(id, TTL_MS));

        assertThat(again.token()).isGreaterThan(lease.token());
        assertThat(kinds(alice, id)).containsExactly(LeaseEvent.Kind.ACQUIRED, LeaseEvent.Kind.ACQUIRED);
    }

    @Test
    void aRenewalRunsForItsTtlFromNowAndKeepsTheToken() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        Lease first = granted(alice.acquire(id, 1_000));

        Lease renewed = alice.renew(id, first.token(), 2 * TTL_MS).orElseThrow();

        assertThat(renewed.token()).isEqualTo(first.token());
        assertThat(renewed.acquiredAt()).isEqualTo(first.acquiredAt());
        assertThat(renewed.expiresAt()).isAfter(first.expiresAt());
        assertThat(renewed.remainingMs()).isBetween(2 * TTL_MS - MARGIN_MS, 2 * TTL_MS);
        assertThat(alice.holder(id).map(LeaseInfo::expiresAt)).contains(renewed.expiresAt());
        assertThat(alice.events(id)).singleElement()
                .satisfies(grant -> assertThat(grant.expiresAt()).contains(renewed.expiresAt()));
    }

    @Test
    void onlyTheHoldingSessionRenews() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        Lease lease = granted(alice.acquire(id, TTL_MS));

        assertThat(client("Bob").renew(id, lease.token(), 2 * TTL_MS)).isEmpty();
        assertThat(alice.asWriter("alice/another-editor").renew(id, lease.token(), 2 * TTL_MS)).isEmpty();

        assertThat(alice.holder(id).map(LeaseInfo::expiresAt)).contains(lease.expiresAt());
    }

    @Test
    void anyoneMayBreakALeaseAndTheTrailNamesWhoBrokeIt() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        LeaseRepository bob = client("Bob");
        Lease lease = granted(alice.acquire(id, TTL_MS));

        LeaseInfo broken = bob.breakLease(id).orElseThrow();

        assertThat(broken.holder()).isEqualTo("Alice");
        assertThat(broken.sessionId()).isEqualTo(alice.sessionId());
        assertThat(broken.token()).isEqualTo(lease.token());
        assertThat(broken.expiresAt()).isBetween(lease.acquiredAt(), lease.expiresAt());
        assertThat(bob.holder(id)).isEmpty();
        assertThat(alice.renew(id, lease.token(), TTL_MS)).isEmpty();
        assertThat(alice.release(id, lease.token())).isFalse();
        assertThat(bob.breakLease(id)).isEmpty();
        List<LeaseEvent> events = bob.events(id);
        assertThat(events).extracting(LeaseEvent::kind).containsExactly(LeaseEvent.Kind.ACQUIRED,
                LeaseEvent.Kind.BROKEN);
        assertThat(events.get(1).holder()).isEqualTo("Alice");
        assertThat(events.get(1).actor()).isEqualTo("Bob");
        assertThat(events.get(1).at()).isEqualTo(broken.expiresAt());
        assertThat(events.get(0).expiresAt()).contains(broken.expiresAt());
        granted(bob.acquire(id, TTL_MS));
        assertThat(kinds(bob, id)).endsWith(LeaseEvent.Kind.ACQUIRED);
    }

    @Test
    void thereIsNothingToBreakWhenNoLeaseRuns() {
        long free = aCustomer();
        long lapsed = aCustomer();
        LeaseRepository alice = client("Alice");
        granted(alice.acquire(lapsed, TTL_MS));
        lapse(lapsed);

        assertThat(client("Bob").breakLease(free)).isEmpty();
        assertThat(client("Bob").breakLease(lapsed)).isEmpty();
        assertThat(kinds(alice, free)).isEmpty();
        assertThat(kinds(alice, lapsed)).containsExactly(LeaseEvent.Kind.ACQUIRED);
    }

    @Test
    void aCustomerThatIsGoneCannotBeLeased() {
        long id = aCustomer();
        deleteCustomer(id);

        assertThat(client("Alice").acquire(id, TTL_MS)).isEqualTo(new AcquireOutcome.Gone(id));
    }

    @Test
    void aLeaseGoesWithItsCustomerButItsTrailStays() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        Lease lease = granted(alice.acquire(id, TTL_MS));

        deleteAsHolder(id, alice, lease);

        assertThat(alice.holder(id)).isEmpty();
        assertThat(alice.active()).noneMatch(l -> l.recordId() == id);
        assertThat(kinds(alice, id)).containsExactly(LeaseEvent.Kind.ACQUIRED);
    }

    @Test
    void aWriterIdHoldsItsOwnLeasesUnderTheOperatorsName() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        LeaseRepository editor = alice.asWriter("alice/editor-7");

        Lease lease = granted(editor.acquire(id, TTL_MS));

        assertThat(editor.sessionId()).isEqualTo("alice/editor-7");
        LeaseInfo holder = alice.holder(id).orElseThrow();
        assertThat(holder.holder()).isEqualTo("Alice");
        assertThat(holder.sessionId()).isEqualTo("alice/editor-7");
        assertThat(alice.acquire(id, TTL_MS)).isInstanceOf(AcquireOutcome.HeldByOther.class);
        assertThat(alice.release(id, lease.token())).isFalse();
        assertThat(editor.release(id, lease.token())).isTrue();
    }

    @Test
    void aLossIsTrailedAndEndsNothing() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");
        Lease lease = granted(alice.acquire(id, TTL_MS));

        alice.recordLost(id, lease.token());

        List<LeaseEvent> events = alice.events(id);
        assertThat(events).extracting(LeaseEvent::kind).containsExactly(LeaseEvent.Kind.ACQUIRED,
                LeaseEvent.Kind.LOST);
        assertThat(events.get(1).token()).isEqualTo(lease.token());
        assertThat(events.get(1).holder()).isEqualTo("Alice");
        assertThat(events.get(1).actor()).isEqualTo("Alice");
        assertThat(events.get(1).expiresAt()).isEmpty();
        assertThat(alice.holder(id).map(LeaseInfo::token)).contains(lease.token());
    }

    @Test
    void activeListsTheRunningLeasesByCustomer() {
        long first = aCustomer();
        long second = aCustomer();
        long third = aCustomer();
        LeaseRepository alice = client("Alice");
        LeaseRepository bob = client("Bob");
        granted(bob.acquire(third, TTL_MS));
        Lease released = granted(alice.acquire(second, TTL_MS));
        granted(alice.acquire(first, TTL_MS));
        alice.release(second, released.token());

        List<LeaseInfo> mine = client("Carol").active().stream()
                .filter(l -> l.recordId() == first || l.recordId() == second || l.recordId() == third).toList();

        assertThat(mine).extracting(LeaseInfo::recordId).containsExactly(first, third);
        assertThat(mine).extracting(LeaseInfo::holder).containsExactly("Alice", "Bob");
    }

    @Test
    void aLeaseLastsAtLeastAMillisecond() {
        long id = aCustomer();
        LeaseRepository alice = client("Alice");

        assertThatThrownBy(() -> alice.acquire(id, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(alice.holder(id)).isEmpty();
    }
}
