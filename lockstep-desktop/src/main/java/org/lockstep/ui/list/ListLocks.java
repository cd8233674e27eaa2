package org.lockstep.ui.list;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javafx.collections.FXCollections;
import javafx.collections.ObservableMap;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.concurrency.TaskExecutor;

/** Who holds a lock for editing on which customer, for the list's padlock column; read in the background. */
final class ListLocks {

    private final Optional<LeaseRepository> leases;
    private final TaskExecutor executor;
    private final ObservableMap<Long, LeaseInfo> locks = FXCollections.observableHashMap();
    private final ObservableMap<Long, LeaseInfo> readOnlyLocks = FXCollections.unmodifiableObservableMap(locks);
    private boolean inFlight;
    private Runnable afterRead = () -> {};

    ListLocks(Optional<LeaseRepository> leases, TaskExecutor executor) {
        this.leases = leases;
        this.executor = executor;
    }

    ObservableMap<Long, LeaseInfo> locks() {
        return readOnlyLocks;
    }

    String holder(long customerId) {
        LeaseInfo lease = locks.get(customerId);
        return lease == null ? "" : lease.holder();
    }

    /** Runs {@code listener} on the FX thread after every read of the leases, whether or not the locks changed. */
    void setAfterRead(Runnable listener) {
        afterRead = listener == null ? () -> {} : listener;
    }

    /** Reads the unexpired leases again, unless a read is in flight; a failure keeps the last known locks. */
    void refresh() {
        if (leases.isEmpty() || inFlight) {
            return;
        }
        inFlight = true;
        LeaseRepository source = leases.get();
        executor.execute(() -> source.active().stream()
                .collect(Collectors.toMap(LeaseInfo::recordId, l -> l, (a, b) -> b)),
                (Map<Long, LeaseInfo> now) -> {
                    inFlight = false;
                    locks.keySet().retainAll(now.keySet());
                    now.forEach((id, lease) -> {
                        if (!lease.equals(locks.get(id))) {
                            locks.put(id, lease);
                        }
                    });
                    afterRead.run();
                },
                failure -> inFlight = false);
    }
}
