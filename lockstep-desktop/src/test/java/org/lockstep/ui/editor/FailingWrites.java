package org.lockstep.ui.editor;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.lockstep.domain.CancelSignal;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.SaveOutcome;

/**
 * A repository whose every write throws {@code failure} — the database away, a reply lost, a value the database
 * refused — and whose reads are {@code reads}'. For the editor parts' tests, where what a failure does to the editor
 * is the subject, not the store that fails.
 */
final class FailingWrites implements CustomerRepository {

    private final CustomerRepository reads;
    private final RuntimeException failure;

    FailingWrites(CustomerRepository reads, RuntimeException failure) {
        this.reads = reads;
        this.failure = failure;
    }

    @Override
    public Optional<Customer> find(long id) {
        return reads.find(id);
    }

    @Override
    public Customer create(CustomerData data) {
        throw failure;
    }

    @Override
    public Customer create(CustomerData data, UUID request) {
        throw failure;
    }

    @Override
    public Optional<Customer> createdBy(UUID request) {
        return reads.createdBy(request);
    }

    @Override
    public SaveOutcome save(long id, long baseVersion, CustomerData data) {
        throw failure;
    }

    @Override
    public SaveOutcome saveUnderLease(long id, long baseVersion, CustomerData data, long leaseToken) {
        throw failure;
    }

    @Override
    public SaveOutcome overwrite(long id, CustomerData data) {
        throw failure;
    }

    @Override
    public DeleteOutcome delete(long id, long baseVersion) {
        throw failure;
    }

    @Override
    public DeleteOutcome deleteUnderLease(long id, long baseVersion, long leaseToken) {
        throw failure;
    }

    @Override
    public String sessionId() {
        return reads.sessionId();
    }

    @Override
    public CustomerRepository asWriter(String writerId) {
        return new FailingWrites(reads.asWriter(writerId), failure);
    }

    @Override
    public CustomerRepository restoring(long version) {
        return new FailingWrites(reads.restoring(version), failure);
    }

    @Override
    public List<Customer> page(CustomerPageRequest request, CancelSignal cancel) {
        return reads.page(request, cancel);
    }

    @Override
    public CustomerCount count(String search, long budgetMs, CancelSignal cancel) {
        return reads.count(search, budgetMs, cancel);
    }

    @Override
    public int recentConflicts(long id, Duration window) {
        return reads.recentConflicts(id, window);
    }

    @Override
    public void recordMergeSaved(long id, long version) {
        throw failure;
    }

    @Override
    public void recordMergeAbandoned(long id) {
        throw failure;
    }
}
