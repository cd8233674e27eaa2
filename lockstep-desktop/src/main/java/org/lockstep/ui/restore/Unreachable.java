package org.lockstep.ui.restore;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.CancelSignal;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.domain.RecordedStory;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.StoreUnavailableException;

/**
 * The store's ports while the database cannot be reached at start (issue 28): every call fails at once with a
 * {@link StoreUnavailableException} that says why, as a call fails while the server is down, and writes nothing. An
 * editor restored from a draft over them shows its edits on their base and says that they are kept and save once the
 * database is back; the application then hands each such editor over to the real store
 * ({@code CustomerEditorWindow.handOver}). Only the session id answers: it is this client's own, made up here.
 */
public final class Unreachable {

    private final String session;
    private final Supplier<StoreUnavailableException> why;

    /**
     * @param session the client session the editors act as until the database is back
     * @param why     the failure each call throws: the last reason the database could not be reached
     */
    public Unreachable(String session, Supplier<StoreUnavailableException> why) {
        this.session = Objects.requireNonNull(session, "session");
        this.why = Objects.requireNonNull(why, "why");
    }

    /** Customers, acting as the client session. */
    public CustomerRepository customers() {
        return new Customers(session);
    }

    /** The history. */
    public HistoryRepository history() {
        return new History();
    }

    /** Leases, acting as the same session as {@link #customers()}. */
    public LeaseRepository leases() {
        return new Leases(session);
    }

    private StoreUnavailableException fail() {
        return why.get();
    }

    private final class Customers implements CustomerRepository {

        private final String writer;

        Customers(String writer) {
            this.writer = writer;
        }

        @Override
        public Optional<Customer> find(long id) {
            throw fail();
        }

        @Override
        public Customer create(CustomerData data) {
            throw fail();
        }

        @Override
        public Customer create(CustomerData data, UUID request) {
            throw fail();
        }

        @Override
        public Optional<Customer> createdBy(UUID request) {
            throw fail();
        }

        @Override
        public SaveOutcome save(long id, long baseVersion, CustomerData data) {
            throw fail();
        }

        @Override
        public SaveOutcome saveUnderLease(long id, long baseVersion, CustomerData data, long leaseToken) {
            throw fail();
        }

        @Override
        public SaveOutcome overwrite(long id, CustomerData data) {
            throw fail();
        }

        @Override
        public DeleteOutcome delete(long id, long baseVersion) {
            throw fail();
        }

        @Override
        public DeleteOutcome deleteUnderLease(long id, long baseVersion, long leaseToken) {
            throw fail();
        }

        @Override
        public String sessionId() {
            return writer;
        }

        @Override
        public CustomerRepository asWriter(String writerId) {
            return new Customers(writerId);
        }

        @Override
        public CustomerRepository restoring(long version) {
            return this;
        }

        @Override
        public List<Customer> page(CustomerPageRequest request, CancelSignal cancel) {
            throw fail();
        }

        @Override
        public CustomerCount count(String search, long budgetMs, CancelSignal cancel) {
            throw fail();
        }

        @Override
        public int recentConflicts(long id, Duration window) {
            throw fail();
        }

        @Override
        public void recordMergeSaved(long id, long version) {
            throw fail();
        }

        @Override
        public void recordMergeAbandoned(long id) {
            throw fail();
        }
    }

    private final class History implements HistoryRepository {

        @Override
        public List<HistoryEntry> history(long customerId) {
            throw fail();
        }

        @Override
        public Optional<CustomerData> valuesAt(long customerId, long version) {
            throw fail();
        }

        @Override
        public List<HistoryEntry> between(long customerId, long fromVersion, long toVersion) {
            throw fail();
        }

        @Override
        public Optional<HistoryEntry> deletion(long customerId) {
            throw fail();
        }

        @Override
        public RecordedStory story(long customerId) {
            throw fail();
        }
    }

    private final class Leases implements LeaseRepository {

        private final String writer;

        Leases(String writer) {
            this.writer = writer;
        }

        @Override
        public String sessionId() {
            return writer;
        }

        @Override
        public LeaseRepository asWriter(String writerId) {
            return new Leases(writerId);
        }

        @Override
        public AcquireOutcome acquire(long recordId, long ttlMs) {
            throw fail();
        }

        @Override
        public Optional<Lease> renew(long recordId, long token, long ttlMs) {
            throw fail();
        }

        @Override
        public boolean release(long recordId, long token) {
            throw fail();
        }

        @Override
        public Optional<LeaseInfo> breakLease(long recordId) {
            throw fail();
        }

        @Override
        public void recordLost(long recordId, long token) {
            throw fail();
        }

        @Override
        public Optional<LeaseInfo> holder(long recordId) {
            throw fail();
        }

        @Override
        public List<LeaseInfo> active() {
            throw fail();
        }

        @Override
        public List<LeaseEvent> events(long recordId) {
            throw fail();
        }
    }
}
