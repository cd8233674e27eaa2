package org.lockstep.ui.editor;

import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HotRecordAdvice;
import org.lockstep.concurrency.TaskExecutor;

/**
 * An editor's hot-record advice: reads how many conflicts its customer met in the last {@link HotRecordAdvice#WINDOW}
 * in the background and holds the advice they call for. Touched on the FX thread only, like its editor.
 */
final class HotRecordWatch {

    private final CustomerRepository repository;
    private final TaskExecutor executor;
    private final ReadOnlyObjectWrapper<HotRecordAdvice> advice = new ReadOnlyObjectWrapper<>(this, "advice");
    // Bumped by every read and clear: a late count for a customer no longer shown must not bring its advice back.
    private int reads;

    HotRecordWatch(CustomerRepository repository, TaskExecutor executor) {
        this.repository = repository;
        this.executor = executor;
    }

    /** Counts the customer's recent conflicts again; the advice changes when the count arrives. */
    void read(long customerId) {
        int read = ++reads;
        executor.execute(() -> HotRecordAdvice.advice(repository.recentConflicts(customerId, HotRecordAdvice.WINDOW),
                HotRecordAdvice.WINDOW), found -> {
                    if (read == reads) {
                        advice.set(found.orElse(null));
                    }
                }, failure -> {
                    // Advice only: the editor's own load and save say when the database cannot be reached, and an
                    // unknown count advises nothing rather than something stale.
                    if (read == reads) {
                        advice.set(null);
                    }
                });
    }

    /** No customer, or another one: no advice until a read says otherwise. */
    void clear() {
        reads++;
        advice.set(null);
    }

    /** The advice for the customer read last, or {@code null} when it is not hot (or not known yet). */
    ReadOnlyObjectProperty<HotRecordAdvice> adviceProperty() {
        return advice.getReadOnlyProperty();
    }
}
