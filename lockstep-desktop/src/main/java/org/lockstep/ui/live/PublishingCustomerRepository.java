package org.lockstep.ui.live;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
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
 * A {@link CustomerRepository} that reports what each write found to the client's {@link OwnWrites}, so that the list
 * follows every save and delete this process makes, whichever editor made it. After a successful save or create it
 * reports the new record; after a conflict, the record the database holds now (theirs), or the id when that record
 * is gone; after a delete, the id. Reads pass through untouched. What it wrote itself (not theirs) it also records at
 * once, on the writing thread, as the writer id's ({@link OwnWrites#writerOf}).
 *
 * <p>Writes run on a background thread; the reports go through {@code uiThread} (the FX thread in the application),
 * once per write, queued before the write's own result is delivered there.
 */
public final class PublishingCustomerRepository implements CustomerRepository {

    private final CustomerRepository delegate;
    private final Executor uiThread;
    private final OwnWrites listener;

    /**
     * @param delegate where the work is done
     * @param uiThread runs the reports, e.g. {@code Platform::runLater}
     * @param writes   told about every write
     */
    public PublishingCustomerRepository(CustomerRepository delegate, Executor uiThread, OwnWrites writes) {
        this.delegate = delegate;
        this.uiThread = uiThread;
        this.listener = writes;
    }

    @Override
    public Optional<Customer> find(long id) {
        return delegate.find(id);
    }

    @Override
    public Customer create(CustomerData data) {
        return published(delegate.create(data));
    }

    @Override
    public Customer create(CustomerData data, UUID request) {
        return published(delegate.create(data, request));
    }

    @Override
    public Optional<Customer> createdBy(UUID request) {
        return delegate.createdBy(request);
    }

    private Customer published(Customer created) {
        listener.committed(created, delegate.sessionId());
        report(() -> listener.stored(created));
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
        outcome.handle(new SaveOutcome.Handler() {
            @Override
            public void saved(SaveOutcome.Saved saved) {
                listener.committed(saved.saved(), delegate.sessionId());
                report(() -> listener.stored(saved.saved()));
            }

            @Override
            public void conflict(SaveOutcome.Conflict conflict) {
                publishCurrent(id, conflict.theirs());
            }

            @Override
            public void locked(SaveOutcome.Locked locked) {
                // Nothing was written and nothing was learnt of the record.
            }

            @Override
            public void leaseLost(SaveOutcome.LeaseLost lost) {
                // Nothing was written and nothing was learnt of the record.
            }
        });
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

    /** The delegate's store for {@code writerId}, reporting to the same {@link OwnWrites}. */
    @Override
    public CustomerRepository asWriter(String writerId) {
        return new PublishingCustomerRepository(delegate.asWriter(writerId), uiThread, listener);
    }

    /** The delegate's restoring store, whose saves are reported as every save is. */
    @Override
    public CustomerRepository restoring(long version) {
        return new PublishingCustomerRepository(delegate.restoring(version), uiThread, listener);
    }

    private DeleteOutcome published(long id, DeleteOutcome outcome) {
        outcome.handle(new DeleteOutcome.Handler() {
            @Override
            public void deleted(DeleteOutcome.Deleted deleted) {
                listener.deletedBy(id, delegate.sessionId());
                report(() -> listener.deleted(id));
            }

            @Override
            public void conflict(DeleteOutcome.Conflict conflict) {
                publishCurrent(id, conflict.theirs());
            }

            @Override
            public void locked(DeleteOutcome.Locked locked) {
                // Nothing was deleted and nothing was learnt of the record.
            }

            @Override
            public void leaseLost(DeleteOutcome.LeaseLost lost) {
                // Nothing was deleted and nothing was learnt of the record.
            }
        });
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
        report(() -> theirs.ifPresentOrElse(listener::stored, () -> listener.deleted(id)));
    }

    private void report(Runnable report) {
        if (listener.heard()) {
            uiThread.execute(report);
        }
    }
}
