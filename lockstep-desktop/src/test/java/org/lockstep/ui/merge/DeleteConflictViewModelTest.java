package org.lockstep.ui.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.domain.CustomerField.CITY;
import static org.lockstep.domain.CustomerField.PHONE;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.ui.TwoOperators;

@DatabaseTest
class DeleteConflictViewModelTest {

    @RegisterExtension
    static final TwoOperators editors = new TwoOperators();

    private static DeleteConflictViewModel bobDeletes(Customer base) {
        Customer theirs = editors.bobDeletes(base).theirs().orElseThrow();
        return new DeleteConflictViewModel(editors.bob().customers(), editors.bob().history(),
                TaskExecutor.sameThread(), base, theirs);
    }

    @Test
    void showsWhatChangedSinceILoadedItAndDeleteAnywayDeletesIt() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        DeleteConflictViewModel vm = bobDeletes(base);
        AtomicReference<Long> deleted = new AtomicReference<>();
        vm.setOnDecided(ending -> {
            if (ending instanceof DeleteDecision.Deleted e) {
                deleted.set(e.id());
            }
        });

        assertThat(vm.titleProperty().get()).startsWith("Changed since you loaded it: Alice saved version 2 at ")
                .endsWith("; you loaded version 1");
        assertThat(vm.historySummaryProperty().get()).isEqualTo("1 save since you loaded it: Alice");
        assertThat(vm.changes()).containsExactly(new FieldChange(CITY, "São José dos Campos", "Campinas"));

        vm.deleteAnyway();

        assertThat(deleted.get()).isEqualTo(base.id());
        assertThat(editors.alice().customers().find(base.id())).isEmpty();
    }

    @Test
    void keepLeavesAlicesVersionAndHandsItToTheEditor() {
        Customer base = editors.loaded(aCustomer());
        Customer theirs = editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        DeleteConflictViewModel vm = bobDeletes(base);
        AtomicReference<Customer> kept = new AtomicReference<>();
        vm.setOnDecided(ending -> {
            if (ending instanceof DeleteDecision.Kept e) {
                kept.set(e.now());
            }
        });

        vm.keep();

        assertThat(kept.get()).isEqualTo(theirs);
        assertThat(editors.read(base.id())).isEqualTo(theirs);
        assertThat(vm.finishedProperty().get()).isTrue();
    }

    @Test
    void deleteAnywayOnARecordChangedAgainRefreshesWithTheNewChanges() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        DeleteConflictViewModel vm = bobDeletes(base);
        AtomicReference<Long> deleted = new AtomicReference<>();
        vm.setOnDecided(ending -> {
            if (ending instanceof DeleteDecision.Deleted e) {
                deleted.set(e.id());
            }
        });
        editors.saves(editors.carol(), base.id(), d -> d.with(PHONE, "+55 11 4000-1111"));

        vm.deleteAnyway();

        assertThat(deleted.get()).isNull();
        assertThat(editors.read(base.id()).version()).isEqualTo(3);
        assertThat(vm.noticeProperty().get())
                .isEqualTo("Carol saved version 3 while you were deciding — review the new changes");
        assertThat(vm.changes()).containsExactly(new FieldChange(PHONE, "+55 (12) 3923-5555", "+55 11 4000-1111"));
        assertThat(vm.titleProperty().get()).startsWith("Changed again: Carol saved version 3 at ")
                .endsWith(", after the version 2 you decided on");

        vm.deleteAnyway();

        assertThat(deleted.get()).isEqualTo(base.id());
        assertThat(editors.alice().customers().find(base.id())).isEmpty();
    }

    @Test
    void aRecordSomeoneElseDeletedMeanwhileCountsAsDeleted() {
        Customer base = editors.loaded(aCustomer());
        Customer theirs = editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        DeleteConflictViewModel vm = bobDeletes(base);
        AtomicReference<Long> deleted = new AtomicReference<>();
        vm.setOnDecided(ending -> {
            if (ending instanceof DeleteDecision.Deleted e) {
                deleted.set(e.id());
            }
        });
        editors.carol().customers().delete(base.id(), theirs.version());

        vm.deleteAnyway();

        assertThat(deleted.get()).isEqualTo(base.id());
    }

    @Test
    void aDatabaseErrorLeavesTheRecordAndTheChoice() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        DeleteConflictViewModel vm = bobDeletes(base);
        editors.db().jdbi().useHandle(h -> h.execute("""
                CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'out of memory' USING ERRCODE = 'out_of_memory'; END $$;
                CREATE TRIGGER refuse_delete BEFORE DELETE ON customer FOR EACH ROW
                    WHEN (OLD.id = %d) EXECUTE FUNCTION refuse_delete();
                """.formatted(base.id())));
        try {
            vm.deleteAnyway();
        } finally {
            editors.db().jdbi().useHandle(h -> h.execute("DROP TRIGGER refuse_delete ON customer; "
                    + "DROP FUNCTION refuse_delete()"));
        }

        assertThat(vm.errorProperty().get()).startsWith("Not deleted: The database refused the request")
                .endsWith("Nothing changed; try Delete anyway again, or Keep.");
        assertThat(vm.finishedProperty().get()).isFalse();
        assertThat(editors.read(base.id()).version()).isEqualTo(2);
    }
}
