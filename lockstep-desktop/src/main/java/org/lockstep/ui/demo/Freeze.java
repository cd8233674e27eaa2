package org.lockstep.ui.demo;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import org.lockstep.domain.CancelSignal;
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
    private volatile Witness witness = Witness.NONE;

    /**
     * Told what the client's writes came to, on the client's background threads: what the timeline adds of the
     * client's own knowledge (a save refused by its fencing token writes no row the database could show).
     */
    public interface Witness {
        /** Sees nothing. */
        Witness NONE = new Witness() {
            @Override
            public void wrote(Customer stored) {
            }

            @Override
            public void refused(long id, long token, Optional<LeaseInfo> current) {
            }
        };

        /** A save or create of this client stored {@code stored}. */
        void wrote(Customer stored);

        /** A save under the lease {@code token} was refused: {@code current} is the record's lease now. */
        void refused(long id, long token, Optional<LeaseInfo> current);
    }

    /** Tells {@code w} what this client's writes come to. */
    public void setWitness(Witness w) {
        witness = w == null ? Witness.NONE : w;
    }

    private SaveOutcome seen(SaveOutcome outcome) {
        if (outcome instanceof SaveOutcome.Saved saved) {
            witness.wrote(saved.saved());
        }
        return outcome;
    }

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
            Customer created = pass(() -> d.create(data));
            witness.wrote(created);
            return created;
        }

        @Override
        public Customer create(CustomerData data, UUID request) {
            Customer created = pass(() -> d.create(data, request));
            witness.wrote(created);
            return created;
        }

        @Override
        public Optional<Customer> createdBy(UUID request) {
            return pass(() -> d.createdBy(request));
        }

        @Override
        public SaveOutcome save(long id, long baseVersion, CustomerData data) {
            return seen(pass(() -> d.save(id, baseVersion, data)));
        }

        @Override
        public SaveOutcome saveUnderLease(long id, long baseVersion, CustomerData data, long leaseToken) {
            SaveOutcome outcome = seen(pass(() -> d.saveUnderLease(id, baseVersion, data, leaseToken)));
            if (outcome instanceof SaveOutcome.LeaseLost lost) {
                witness.refused(id, leaseToken, lost.current());
            }
            return outcome;
        }

        @Override
        public SaveOutcome overwrite(long id, CustomerData data) {
            return seen(pass(() -> d.overwrite(id, data)));
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
        public void recordMergeSaved(long id, long version) {
            pass(() -> {
                d.recordMergeSaved(id, version);
                return null;
            });
        }

        @Override
        public void recordMergeAbandoned(long id) {
            pass(() -> {
                d.recordMergeAbandoned(id);
                return null;
            });
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
        public CustomerRepository restoring(long version) {
            return new FrozenCustomers(d.restoring(version)); // a restore's save freezes like any save
        }

        @Override
        public List<Customer> page(CustomerPageRequest request, CancelSignal cancel) {
            return pass(() -> d.page(request, cancel));
        }

        @Override
        public CustomerCount count(String search, long budgetMs, CancelSignal cancel) {
            return pass(() -> d.count(search, budgetMs, cancel));
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
