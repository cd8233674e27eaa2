package org.lockstep.ui.list;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.beans.value.ChangeListener;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.live.LiveUpdates;

/**
 * Keeps a customer list current with other operators' changes as they happen, however many arrive: the burst
 * coalescer of the list.
 *
 * <p>The change feed's thread only collects the ids of changed customers (at most {@value #REFRESH_ABOVE}; beyond
 * that it only notes "many"). The FX thread takes what was collected in one short step: up to
 * {@value #REFRESH_ABOVE} ids are read again by one background task — one at a time; what arrives meanwhile waits
 * for the next — and applied in place in one step (selection, scroll position and order stay; new customers appear,
 * deleted ones disappear; one recount). More than that, or an announcement of many changes at once ({@code MANY}),
 * or a resync after the feed reconnected, and the list simply reads its current page and count again — once, and
 * not again before that page is in. So 20,000 inserts by someone else cost the FX thread a few page refreshes, never
 * 20,000 updates, and the memory held for them is bounded by {@value #REFRESH_ABOVE} ids. Lock icons follow leases
 * at once.
 *
 * <p>A notification is a hint, never a fact (ADR 0018, "Notifications are hints"): only its customer id is used, to
 * choose the row to read, and the row read decides what the list shows (a row read as gone leaves the list, a row
 * never older than the one shown replaces it). Changes that claim to be this client's own are read too: the claim is
 * the notification's {@code session}, which any writer may set to this client's id ({@code lockstep.session}) — a
 * real change by someone else would then be taken for an echo of a save this window already shows. Reading this
 * client's own saves back costs one row read each.
 */
public final class LiveListUpdater {

    /** Above this many changed customers, the list refreshes its page and count instead of reading each row. */
    static final int REFRESH_ABOVE = 100;

    private final CustomerListViewModel list;
    private final CustomerRepository customers;
    private final TaskExecutor executor;
    private final Executor fxThread;
    private final Runnable unsubscribeChanges;
    private final Runnable unsubscribeResync;
    private final ChangeListener<Boolean> pageIn = (o, was, loading) -> {
        if (!loading) {
            schedule();
        }
    };
    /** Written by the feed's thread, taken by the FX thread. */
    private final Set<Long> changed = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean many = new AtomicBoolean();
    private final AtomicBoolean leases = new AtomicBoolean();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** FX thread only: a background read of changed rows is running. */
    private boolean reading;

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
        this.fxThread = live.fxThread();
        this.unsubscribeChanges = live.subscribeOnFeedThread(this::collect);
        this.unsubscribeResync = live.onResync(() -> {
            many.set(true);
            schedule();
        });
        // A refresh waits for the page being read; once it is in, whatever waited goes on.
        list.loadingProperty().addListener(pageIn);
    }

    /** On the feed's thread: notes what changed, never reads or touches the list. */
    private void collect(List<LiveUpdates.Change> batch) {
        boolean any = false;
        for (LiveUpdates.Change c : batch) {
            ChangeEvent e = c.event();
            if (e.isLease()) {
                leases.set(true);
                any = true;
            } else if (e.isManyCustomers()) {
                many.set(true);
                any = true;
            } else if (e.isCustomer() && !many.get()) {
                changed.add(e.id());
                if (changed.size() > REFRESH_ABOVE) {
                    many.set(true);
                    changed.clear();
                }
                any = true;
            }
        }
        if (any) {
            schedule();
        }
    }

    private void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            fxThread.execute(this::drain);
        }
    }

    /** On the FX thread: one short step for everything collected so far. */
    private void drain() {
        scheduled.set(false);
        if (leases.getAndSet(false)) {
            list.refreshLocks(); // lock icons follow leases as they are taken and given back, not at the next poll
        }
        if (reading || list.loadingProperty().get()) {
            return; // drained again when the read or the page is in
        }
        if (many.getAndSet(false)) {
            changed.clear();
            list.refresh();
            return;
        }
        if (changed.isEmpty()) {
            return;
        }
        List<Long> ids = List.copyOf(changed);
        ids.forEach(changed::remove);
        reading = true;
        executor.execute(() -> read(ids), rows -> {
            reading = false;
            list.applyChanges(rows);
            schedule();
        }, failure -> {
            reading = false; // the rows' own error, or the next change, says more
            schedule();
        });
    }

    private Map<Long, Optional<Customer>> read(List<Long> ids) {
        Map<Long, Optional<Customer>> rows = new LinkedHashMap<>();
        for (long id : ids) {
            rows.put(id, customers.find(id));
        }
        return rows;
    }

    /** Stops following the feed. */
    public void close() {
        unsubscribeChanges.run();
        unsubscribeResync.run();
        list.loadingProperty().removeListener(pageIn);
    }
}
