package org.lockstep.ui.main;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.lockstep.domain.CancelSignal;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.SaveOutcome;

/**
 * A {@link CustomerRepository} that tells a listener what each write found, so that the main window's list can
 * follow saves and deletes made in separate editor windows. After a successful save or create the listener gets
 * the new record; after a conflict it gets the record the database holds now (theirs), or the id when that record
 * is gone; after a delete, the id. Reads pass through untouched.
 *
 * <p>Writes run on a background thread; the listener is called through {@code uiThread} (the FX thread in the
 * application), once per write.
 */
public final class PublishingCustomerRepository implements CustomerRepository {

    /** Receives what writes found, on the UI thread. */
    public interface Listener {
        /** A record as the database now holds it. */
        void stored(Customer customer);

        /** A record that no longer exists. */
        void deleted(long id);
    }

    private final CustomerRepository delegate;
    private final Executor uiThread;
    private final Listener listener;

    /**
     * @param delegate where the work is done
     * @param uiThread runs the listener's calls, e.g. {@code Platform::runLater}
     * @param listener told about every write
     */
    public PublishingCustomerRepository(CustomerRepository delegate, Executor uiThread, Listener listener) {
        this.delegate = delegate;
        this.uiThread = uiThread;
        this.listener = listener;
    }

    @Override
    public Optional<Customer> find(long id) {
        return delegate.find(id);
    }

    @Override
    public Customer create(CustomerData data) {
        Customer created = delegate.create(data);
        uiThread.execute(() -> listener.stored(created));
        return created;
    }

    @Override
    public SaveOutcome save(long id, long baseVersion, CustomerData data) {
        return published(id, delegate.save(id, baseVersion, data));
    }

    @Override
    public SaveOutcome saveUnderLease(long id, long baseVersion, CustomerData data, long leaseToken) {
        return published(id, delegate.saveUnderLease(id, baseVersion, data, leaseToken));
    }

    /** Publishes like {@link #save}; see {@link CustomerRepository#overwrite} (the lost-update bug, for teaching). */
    @Override
    public SaveOutcome overwrite(long id, CustomerData data) {
        return published(id, delegate.overwrite(id, data));
    }

    private SaveOutcome published(long id, SaveOutcome outcome) {
        if (outcome instanceof SaveOutcome.Saved saved) {
            uiThread.execute(() -> listener.stored(saved.saved()));
        } else if (outcome instanceof SaveOutcome.Conflict conflict) {
            publishCurrent(id, conflict.theirs());
        }
        return outcome;
    }

    @Override
    public DeleteOutcome delete(long id, long baseVersion) {
        return published(id, delegate.delete(id, baseVersion));
    }

    @Override
    public DeleteOutcome deleteUnderLease(long id, long baseVersion, long leaseToken) {
        return published(id, delegate.deleteUnderLease(id, baseVersion, leaseToken));
    }

    @Override
    public String sessionId() {
        return delegate.sessionId();
    }

    /** The delegate's store for {@code writerId}, publishing to the same listener. */
    @Override
    public CustomerRepository asWriter(String writerId) {
        return new PublishingCustomerRepository(delegate.asWriter(writerId), uiThread, listener);
    }

    private DeleteOutcome published(long id, DeleteOutcome outcome) {
        if (outcome instanceof DeleteOutcome.Deleted) {
            uiThread.execute(() -> listener.deleted(id));
        } else if (outcome instanceof DeleteOutcome.Conflict conflict) {
            publishCurrent(id, conflict.theirs());
        }
        return outcome;
    }

    @Override
    public List<Customer> page(CustomerPageRequest request, CancelSignal cancel) {
        return delegate.page(request, cancel);
    }

    @Override
    public CustomerCount count(String search, long budgetMs, CancelSignal cancel) {
        return delegate.count(search, budgetMs, cancel);
    }

    @Override
    public int recentConflicts(long id, Duration window) {
        return delegate.recentConflicts(id, window);
    }

    @Override
    public void recordMergeSaved(long id, long version) {
        delegate.recordMergeSaved(id, version);
    }

    @Override
    public void recordMergeAbandoned(long id) {
        delegate.recordMergeAbandoned(id);
    }

    private void publishCurrent(long id, Optional<Customer> theirs) {
        uiThread.execute(() -> theirs.ifPresentOrElse(listener::stored, () -> listener.deleted(id)));
    }
}
