package org.lockstep.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.RecordedStory;

/**
 * The version history of an {@link InMemoryCustomerRepository}'s customers
 * ({@link InMemoryCustomerRepository#history()}), as the database's triggers write {@code customer_history} and
 * {@code JdbiHistoryRepository} reads it: one entry per committed change, in the order of the writes — an INSERT of
 * version 1 with the values created, an UPDATE of each new version with the values before and after (a save or a
 * blind overwrite), a DELETE of the version deleted with the values it had — by the writing user (never its writer
 * id) and at the store's clock. A write that changes nothing leaves no entry. {@code HistoryRepositoryContractTest} runs the same cases against this class and the Jdbi
 * store, so the two cannot drift apart.
 *
 * <p>What it keeps, as the store reads it: {@link #history} oldest first, {@link #valuesAt} what the change that made
 * a version left (a deleted customer's versions too), {@link #between} the changes after one version up to and
 * including another (a DELETE repeats the version it deleted, so it belongs to the range that ends there), and
 * {@link #deletion} the latest DELETE. What it does not: {@link #story} — the timeline's story joins the lease trail
 * and the conflict and merge events of other tables, and finds a re-created customer by its external reference;
 * rather than a story that leaves part of that out, it throws {@link UnsupportedOperationException}. Writes by a
 * script or psql (no Lockstep user, the database role) do not exist here. Tests of the timeline belong on the real
 * database.
 *
 * <p>Thread-safe: every method holds the store's monitor, as the repository's writes do.
 */
public final class InMemoryHistoryRepository implements HistoryRepository {

    private final Object store;
    private final List<HistoryEntry> entries = new ArrayList<>();

    /** @param store the store whose writes this history records; its monitor guards both */
    InMemoryHistoryRepository(Object store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** A committed change, recorded by the store's write (holding the store's monitor). */
    void record(HistoryEntry entry) {
        synchronized (store) {
            entries.add(entry);
        }
    }

    @Override
    public List<HistoryEntry> history(long customerId) {
        synchronized (store) {
            return entries.stream().filter(e -> e.customerId() == customerId).toList();
        }
    }

    /** {@inheritDoc} The latest entry of that version that is not a DELETE: what its INSERT or UPDATE left. */
    @Override
    public Optional<CustomerData> valuesAt(long customerId, long version) {
        synchronized (store) {
            Optional<HistoryEntry> made = Optional.empty();
            for (HistoryEntry e : entries) {
                if (e.customerId() == customerId && e.version() == version && e.op() != HistoryEntry.Op.DELETE) {
                    made = Optional.of(e);
                }
            }
            return made.flatMap(HistoryEntry::after);
        }
    }

    /** {@inheritDoc} {@code fromVersion} excluded, {@code toVersion} included, as the store's query. */
    @Override
    public List<HistoryEntry> between(long customerId, long fromVersion, long toVersion) {
        synchronized (store) {
            return entries.stream().filter(e -> e.customerId() == customerId && e.version() > fromVersion
                    && e.version() <= toVersion).toList();
        }
    }

    @Override
    public Optional<HistoryEntry> deletion(long customerId) {
        synchronized (store) {
            Optional<HistoryEntry> latest = Optional.empty();
            for (HistoryEntry e : entries) {
                if (e.customerId() == customerId && e.op() == HistoryEntry.Op.DELETE) {
                    latest = Optional.of(e);
                }
            }
            return latest;
        }
    }

    /** Not kept here: the story joins the lease trail, conflicts and merges of other tables (see the class). */
    @Override
    public RecordedStory story(long customerId) {
        throw new UnsupportedOperationException("the timeline's story (lease trail, conflicts, merges, re-creation) "
                + "is PostgreSQL's; use TestDatabases.fresh()");
    }
}
