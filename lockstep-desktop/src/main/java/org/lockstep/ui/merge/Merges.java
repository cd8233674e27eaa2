package org.lockstep.ui.merge;

import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.SaveOutcome;

/**
 * The merge feature's factory, one per editor: what a merge and a delete decision use — the repository they write
 * through (as the editor's writer, so their saves are the editor's), the history their headers name, the executor —
 * and nothing else of the editor's.
 */
public final class Merges {

    private final CustomerRepository customers;
    private final HistoryRepository history;
    private final TaskExecutor executor;

    /**
     * @param customers where a merge saves, re-creates and deletes, as the editor's writer
     * @param history   the version history the dialogs' headers name
     * @param executor  runs their database calls off the FX thread, results back on it
     */
    public Merges(CustomerRepository customers, HistoryRepository history, TaskExecutor executor) {
        this.customers = customers;
        this.history = history;
        this.executor = executor;
    }

    /** The merge for a save's {@link SaveOutcome.Conflict} of {@code mine} on {@code base}, or the deleted flow. */
    public MergeViewModel forConflict(Customer base, CustomerData mine, SaveOutcome.Conflict conflict) {
        return MergeViewModel.forConflict(customers, history, executor, base, mine, conflict);
    }

    /** The decision for a delete of {@code base} that met {@code theirs}, a newer version. */
    public DeleteConflictViewModel forDelete(Customer base, Customer theirs) {
        return new DeleteConflictViewModel(customers, history, executor, base, theirs);
    }
}
