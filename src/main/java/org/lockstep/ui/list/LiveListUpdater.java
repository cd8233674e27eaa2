package org.lockstep.ui.list;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.live.LiveUpdates;

/**
 * Keeps a customer list current with other operators' saves as they happen: each batch of notifications names the
 * changed customers; their rows are read again in one background call and updated in place (selection, scroll
 * position and order stay), new customers appear, deleted ones disappear, and lock icons follow leases at once.
 * After the feed reconnects — notifications
 * sent meanwhile are lost — the list is read again. Changes this process made are already shown by the window that
 * made them.
 */
public final class LiveListUpdater {

    private final CustomerListViewModel list;
    private final CustomerRepository customers;
    private final TaskExecutor executor;
    private final Runnable unsubscribeChanges;
    private final Runnable unsubscribeResync;

    /**
     * Starts following {@code live}.
     *
     * @param list      the list to keep current
     * @param customers reads the changed rows
     * @param executor  runs the reads off the FX thread
     * @param live      the change feed's FX-side hub
     */
    public LiveListUpdater(CustomerListViewModel list, CustomerRepository customers, TaskExecutor executor,
                           LiveUpdates live) {
        this.list = list;
        this.customers = customers;
        this.executor = executor;
        this.unsubscribeChanges = live.subscribe(this::changed);
        this.unsubscribeResync = live.onResync(list::refresh);
    }

    private void changed(List<LiveUpdates.Change> batch) {
        if (batch.stream().anyMatch(c -> c.event().isLease())) {
            list.refreshLocks(); // lock icons follow leases as they are taken and given back, not at the next poll
        }
        Set<Long> ids = new LinkedHashSet<>();
        for (LiveUpdates.Change c : batch) {
            if (c.event().isCustomer() && !c.mine()) {
                ids.add(c.event().id());
            }
        }
        if (ids.isEmpty()) {
            return;
        }
        List<Long> wanted = List.copyOf(ids);
        executor.execute(() -> wanted.stream().collect(Collectors.toMap(Function.identity(), customers::find)),
                this::apply, failure -> { });
    }

    private void apply(Map<Long, Optional<Customer>> rows) {
        rows.forEach((id, row) -> row.ifPresentOrElse(list::applySaved, () -> list.applyDeleted(id)));
    }

    /** Stops following the feed. */
    public void close() {
        unsubscribeChanges.run();
        unsubscribeResync.run();
    }
}
