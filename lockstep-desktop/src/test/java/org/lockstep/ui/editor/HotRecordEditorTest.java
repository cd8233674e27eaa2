package org.lockstep.ui.editor;

import org.lockstep.domain.ConcurrencyMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HotRecordAdvice;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.QueuedTaskExecutor;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.lock.EditLockViewModel;

/**
 * Hot-record advice in the editor's view model, on a real database: conflicts are made by real versioned saves that
 * meet a newer version; database calls run on the test's thread ({@link TaskExecutor#sameThread()}) unless a test
 * holds them back.
 */
@DatabaseTest
class HotRecordEditorTest {

    static final String ADVICE = "Often edited at the same time — consider Lock for editing";
    static final AtomicInteger REFS = new AtomicInteger();
    @FreshDatabase
    static Database db;
    static CustomerRepository bob;
    static CustomerRepository carol;

    CustomerEditorViewModel editor;

    @BeforeAll
    static void open() {
        bob = Sessions.repository(db, "Bob");
        carol = Sessions.repository(db, "Carol");
    }

    @AfterEach
    void closeEditor() {
        if (editor != null) {
            editor.close();
        }
    }

    /** A customer Carol moved to version 2, on which Bob's saves based on version 1 met {@code conflicts} times. */
    static Customer aCustomerWithConflicts(int conflicts) {
        Customer c = carol.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HOT-VM-" + REFS.incrementAndGet())
                .build());
        Customer v2 = ((SaveOutcome.Saved) carol.save(c.id(), 1, c.data().with(CustomerField.CITY, "Curitiba")))
                .saved();
        for (int i = 0; i < conflicts; i++) {
            assertThat(bob.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+55 11 0000-000" + i)))
                    .isInstanceOf(SaveOutcome.Conflict.class);
        }
        return v2;
    }

    CustomerEditorViewModel aliceOpens(Customer c, TaskExecutor executor, ConcurrencyMode mode) {
        EditorServices services = Sessions.services(db, "Alice", executor, Runnable::run, Sessions.quickLocks());
        services.defaultMode().set(mode);
        editor = new CustomerEditorViewModel(services, Clock.system(ZoneOffset.UTC));
        editor.load(c.id());
        return editor;
    }

    CustomerEditorViewModel aliceOpens(Customer c) {
        return aliceOpens(c, TaskExecutor.sameThread(), ConcurrencyMode.OPTIMISTIC);
    }

    @Test
    void aCustomerWithThreeRecentConflictsShowsTheAdviceWhenItsEditorLoads() {
        Customer hot = aCustomerWithConflicts(3);

        aliceOpens(hot);

        assertThat(editor.helpers().hotRecordAdviceProperty().get()).isEqualTo(ADVICE);
        assertThat(editor.helpers().hotRecordDetailProperty().get())
                .isEqualTo("3 conflicts on this customer in the last 7 days");
    }

    @Test
    void theThirdConflictMetByTheEditorItselfBringsTheAdvice() {
        Customer warm = aCustomerWithConflicts(2);
        aliceOpens(warm);
        assertThat(editor.helpers().hotRecordAdviceProperty().get()).isNull();
        editor.buffer().text(CustomerField.EMAIL).set("alice@embraer.com.br");
        carol.save(warm.id(), warm.version(), warm.data().with(CustomerField.CITY, "Santos"));

        editor.saves().save();

        assertThat(editor.conflicts().mergeProperty().get()).as("the save met Carol's newer version").isNotNull();
        assertThat(editor.helpers().hotRecordAdviceProperty().get()).isEqualTo(ADVICE);
        assertThat(editor.helpers().hotRecordDetailProperty().get()).startsWith("3 conflicts");
    }

    @Test
    void aDeleteThatMeetsANewerVersionCountsToo() {
        Customer warm = aCustomerWithConflicts(2);
        aliceOpens(warm);
        carol.save(warm.id(), warm.version(), warm.data().with(CustomerField.CITY, "Santos"));

        editor.saves().requestDelete();

        assertThat(editor.conflicts().deleteConflictProperty().get()).as("the delete met Carol's newer version")
                .isNotNull();
        assertThat(editor.helpers().hotRecordAdviceProperty().get()).isEqualTo(ADVICE);
    }

    @Test
    void aCalmCustomerNeverShowsTheAdvice() {
        Customer calm = aCustomerWithConflicts(0);
        Customer twice = aCustomerWithConflicts(2);

        aliceOpens(calm);
        assertThat(editor.helpers().hotRecordAdviceProperty().get()).isNull();
        editor.load(twice.id());

        assertThat(editor.helpers().hotRecordAdviceProperty().get()).isNull();
        assertThat(editor.helpers().hotRecordDetailProperty().get()).isNull();
    }

    @Test
    void inLockForEditingModeTheAdviceIsAlreadyFollowedAndHidden() {
        Customer hot = aCustomerWithConflicts(4);

        aliceOpens(hot, TaskExecutor.sameThread(), ConcurrencyMode.LOCK_FOR_EDITING);

        assertThat(editor.helpers().hotRecordAdviceProperty().get()).isNull();
        editor.lock().modeProperty().set(ConcurrencyMode.OPTIMISTIC);
        assertThat(editor.helpers().hotRecordDetailProperty().get())
                .isEqualTo("4 conflicts on this customer in the last 7 days");
    }

    @Test
    void useLockForEditingSwitchesTheModeAndHidesTheAdvice() {
        Customer hot = aCustomerWithConflicts(3);
        aliceOpens(hot);

        editor.helpers().useLockForEditing();

        assertThat(editor.lock().modeProperty().get()).isEqualTo(ConcurrencyMode.LOCK_FOR_EDITING);
        assertThat(editor.helpers().hotRecordAdviceProperty().get()).isNull();
    }

    @Test
    void openingAnotherCustomerDropsTheFirstOnesAdviceAtOnce() {
        Customer hot = aCustomerWithConflicts(3);
        Customer calm = aCustomerWithConflicts(0);
        QueuedTaskExecutor executor = new QueuedTaskExecutor();
        aliceOpens(hot, executor, ConcurrencyMode.OPTIMISTIC);
        executor.runAll();
        assertThat(editor.helpers().hotRecordAdviceProperty().get()).isEqualTo(ADVICE);

        editor.load(calm.id());

        assertThat(editor.helpers().hotRecordAdviceProperty().get()).as("before any database answer").isNull();
        executor.runAll();
        assertThat(editor.helpers().hotRecordAdviceProperty().get()).isNull();
    }

    @Test
    void theCountIsReadThroughTheExecutorAfterTheCustomerArrives() {
        Customer hot = aCustomerWithConflicts(HotRecordAdvice.THRESHOLD);
        QueuedTaskExecutor executor = new QueuedTaskExecutor();
        aliceOpens(hot, executor, ConcurrencyMode.OPTIMISTIC);

        while (editor.buffer().baseProperty().get() == null) {
            executor.takeAll().forEach(Runnable::run);
        }

        assertThat(editor.helpers().hotRecordAdviceProperty().get()).as("submitted, not run inline").isNull();
        assertThat(executor.pending()).isPositive();
        executor.runAll();
        assertThat(editor.helpers().hotRecordAdviceProperty().get()).isEqualTo(ADVICE);
    }
}
