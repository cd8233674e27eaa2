package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import org.junit.jupiter.api.Test;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HotRecordAdvice;
import org.lockstep.testing.InMemoryCustomerRepository;
import org.lockstep.ui.QueuedTaskExecutor;

/**
 * An editor's hot-record advice follows the conflicts its customer met, and a count that arrives for a customer the
 * editor has left does not bring advice back. Only the count matters here, not how PostgreSQL keeps it, so the
 * customers are in memory (the contract test holds the count to the Jdbi store's).
 */
class HotRecordWatchTest {

    final InMemoryCustomerRepository alice = InMemoryCustomerRepository.empty("Alice");
    final InMemoryCustomerRepository bob = alice.as("Bob");

    /** A customer whose saves met {@code conflicts} conflicts. */
    Customer withConflicts(int conflicts) {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, null).build());
        alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Curitiba"));
        for (int i = 0; i < conflicts; i++) {
            bob.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+55 " + i));
        }
        return c;
    }

    @Test
    void adviceAppearsAtTheThresholdOfConflicts() {
        HotRecordWatch watch = new HotRecordWatch(alice, TaskExecutor.sameThread());
        Customer calm = withConflicts(HotRecordAdvice.THRESHOLD - 1);
        Customer hot = withConflicts(HotRecordAdvice.THRESHOLD);

        watch.read(calm.id());
        assertThat(watch.adviceProperty().get()).isNull();

        watch.read(hot.id());
        assertThat(watch.adviceProperty().get()).isEqualTo(
                HotRecordAdvice.advice(HotRecordAdvice.THRESHOLD, HotRecordAdvice.WINDOW).orElseThrow());
    }

    @Test
    void aCountForACustomerLeftBehindIsDropped() {
        QueuedTaskExecutor executor = new QueuedTaskExecutor();
        HotRecordWatch watch = new HotRecordWatch(alice, executor);
        Customer hot = withConflicts(HotRecordAdvice.THRESHOLD);

        watch.read(hot.id());
        watch.clear(); // the editor moved to another customer before the count came back
        executor.runAll();

        assertThat(watch.adviceProperty().get()).isNull();
    }
}
