package org.lockstep.ui.demo;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.domain.SaveOutcome;

/**
 * Freezes one demo operator's client, as a long stop-the-world pause would (a garbage collection, a suspended
 * laptop: DDIA ch. 8, "Process Pauses"): while frozen, every call the client makes to its customers and leases waits
 * before it reaches the database — lease renewals included — and goes on, unchanged, once thawed. A save clicked
 * just before the freeze therefore reaches the database late, still carrying its old fencing token.
 *
 * <p>Only the trainer demo uses this; {@link #freeze()} and {@link #thaw()} run on the FX thread, the gate on the
 * client's background threads.
 */
public final class Freeze {

    private final Object gate = new Object();
    private boolean frozen;
    private final ReadOnlyBooleanWrapper frozenFx = new ReadOnlyBooleanWrapper(this, "frozen");

    /** Stops the client's calls before they reach the database. */
    public void freeze() {
        synchronized (gate) {
            frozen = true;
        }
        frozenFx.set(true);
    }

    /** Lets the waiting calls go on, in the order the threads wake. */
    public void thaw() {
        synchronized (gate) {
            frozen = false;
            gate.notifyAll();
        }
        frozenFx.set(false);
    }

    /** Whether the client is frozen now (FX thread). */
    public ReadOnlyBooleanProperty frozenProperty() {
        return frozenFx.getReadOnlyProperty();
    }

    /** Customers reached through this freeze. */
    public CustomerRepository customers(CustomerRepository delegate) {
        return new FrozenCustomers(delegate);
    }

    /** Leases reached through this freeze. */
    public LeaseRepository leases(LeaseRepository delegate) {
        return new FrozenLeases(delegate);
    }

    private <T> T pass(Supplier<T> call) {
        synchronized (gate) {
            while (frozen) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break; // the client is closing: let the call fail or finish on its own
                }
            }
        }
        return call.get();
    }

    private final class FrozenCustomers implements CustomerRepository {
        private final CustomerRepository d;

        FrozenCustomers(CustomerRepository delegate) {
            this.d = delegate;
        }

        @Override
        public Optional<Customer> find(long id) {
            return pass(() -> d.find(id));
        }

        @Override
        public Customer create(CustomerData data) {
            return pass(() -> d.create(data));
        }

        @Override
        public SaveOutcome save(long id, long baseVersion, CustomerData data) {
            return pass(() -> d.save(id, baseVersion, data));
        }

        @Override
        public SaveOutcome saveUnderLease(long id, long baseVersion, CustomerData data, long leaseToken) {
            return pass(() -> d.saveUnderLease(id, baseVersion, data, leaseToken));
        }

        @Override
        public SaveOutcome overwrite(long id, CustomerData data) {
            return pass(() -> d.overwrite(id, data));
        }

        @Override
        public DeleteOutcome delete(long id, long baseVersion) {
            return pass(() -> d.delete(id, baseVersion));
        }

        @Override
        public DeleteOutcome deleteUnderLease(long id, long baseVersion, long leaseToken) {
            return pass(() -> d.deleteUnderLease(id, baseVersion, leaseToken));
        }

        @Override
        public int recentConflicts(long id, java.time.Duration window) {
            return pass(() -> d.recentConflicts(id, window));
        }

        @Override
        public String sessionId() {
            return d.sessionId();
        }

        @Override
        public CustomerRepository asWriter(String writerId) {
            return new FrozenCustomers(d.asWriter(writerId)); // every editor of the client freezes with it
        }

        @Override
        public List<Customer> page(CustomerPageRequest request) {
            return pass(() -> d.page(request));
        }

        @Override
        public CustomerCount count(String search, long budgetMs) {
            return pass(() -> d.count(search, budgetMs));
        }
    }

    private final class FrozenLeases implements LeaseRepository {
        private final LeaseRepository d;

        FrozenLeases(LeaseRepository delegate) {
            this.d = delegate;
        }

        @Override
        public String sessionId() {
            return d.sessionId();
        }

        @Override
        public LeaseRepository asWriter(String writerId) {
            return new FrozenLeases(d.asWriter(writerId));
        }

        @Override
        public AcquireOutcome acquire(long recordId, long ttlMs) {
            return pass(() -> d.acquire(recordId, ttlMs));
        }

        @Override
        public Optional<Lease> renew(long recordId, long token, long ttlMs) {
            return pass(() -> d.renew(recordId, token, ttlMs));
        }

        @Override
        public boolean release(long recordId, long token) {
            return pass(() -> d.release(recordId, token));
        }

        @Override
        public Optional<LeaseInfo> breakLease(long recordId) {
            return pass(() -> d.breakLease(recordId));
        }

        @Override
        public void recordLost(long recordId, long token) {
            pass(() -> {
                d.recordLost(recordId, token);
                return null;
            });
        }

        @Override
        public Optional<LeaseInfo> holder(long recordId) {
            return pass(() -> d.holder(recordId));
        }

        @Override
        public List<LeaseInfo> active() {
            return pass(d::active);
        }

        @Override
        public List<LeaseEvent> events(long recordId) {
            return pass(() -> d.events(recordId));
        }
    }
}
