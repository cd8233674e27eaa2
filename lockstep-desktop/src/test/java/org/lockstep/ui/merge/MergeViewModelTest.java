package org.lockstep.ui.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.domain.CustomerField.CITY;
import static org.lockstep.domain.CustomerField.CREDIT_LIMIT;
import static org.lockstep.domain.CustomerField.EMAIL;
import static org.lockstep.domain.CustomerField.NOTES;
import static org.lockstep.domain.CustomerField.PHONE;
import static org.lockstep.domain.CustomerField.POSTAL_CODE;
import static org.lockstep.domain.CustomerField.REGION;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.merge.FieldMerge.Resolution;
import org.lockstep.domain.merge.TextMergeResult.HunkChoice;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.ui.TwoOperators;

@DatabaseTest
class MergeViewModelTest {

    @RegisterExtension
    static final TwoOperators editors = new TwoOperators();

    /** Bob's merge view model for his values on his stale base, built from his zero-row save. */
    private static MergeViewModel bobMerges(Customer base, CustomerData mine) {
        return MergeViewModel.forConflict(editors.bob().customers(), editors.bob().history(), TaskExecutor.sameThread(),
                base, mine,
                editors.bobSaves(base, mine));
    }

    @Test
    void changesToDifferentFieldsMergeOnTheirOwnAndSaveAtBasePlusTwo() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(PHONE, "+55 11 4000-1111"));
        MergeViewModel vm = bobMerges(base, base.data().with(EMAIL, "bob@embraer.com.br"));
        AtomicReference<Customer> saved = new AtomicReference<>();
        vm.setOnFinished(ending -> {
            if (ending instanceof MergeOutcome.Saved e) {
                saved.set(e.stored());
            }
        });

        assertThat(vm.titleProperty().get()).startsWith("Alice saved version 2 at ")
                .endsWith(" while you were editing version 1");
        assertThat(vm.historySummaryProperty().get()).isEqualTo("1 save since you loaded it: Alice");
        assertThat(vm.visibleRows()).extracting(MergeRowViewModel::field, MergeRowViewModel::getStatus)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(EMAIL, "mine"),
                        org.assertj.core.groups.Tuple.tuple(PHONE, "theirs"));
        assertThat(vm.progressProperty().get()).isEqualTo("No conflicts: every change merged on its own");
        assertThat(vm.canSaveProperty().get()).isTrue();

        vm.saveMerged();

        Customer read = editors.read(base.id());
        assertThat(read.version()).isEqualTo(base.version() + 2);
        assertThat(read.data().phone()).isEqualTo("+55 11 4000-1111");
        assertThat(read.data().email()).isEqualTo("bob@embraer.com.br");
        assertThat(read.updatedBy()).isEqualTo("Bob");
        assertThat(saved.get()).isEqualTo(read);
        assertThat(vm.finishedProperty().get()).isTrue();
    }

    @Test
    void useTheirsOnACityConflictSavesAlicesCity() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        MergeViewModel vm = bobMerges(base, base.data().with(CITY, "Jundiaí"));
        MergeRowViewModel city = vm.row(CITY);

        assertThat(city.resolution()).isEqualTo(Resolution.CONFLICT);
        assertThat(city.getStatus()).isEqualTo("Conflict: choose");
        assertThat(vm.visibleRows().get(0)).isSameAs(city);
        assertThat(vm.canSaveProperty().get()).isFalse();

        city.useTheirs();
        vm.saveMerged();

        assertThat(editors.read(base.id()).data().city()).isEqualTo("Campinas");
    }

    @Test
    void aConflictsResultStartsEmptyAndUnresolvedWhileAFieldOnlyOneSideChangedStaysMerged() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(PHONE, "+55 11 4000-1111"));
        MergeViewModel vm = bobMerges(base, base.data().with(CITY, "Jundiaí").with(EMAIL, "bob@embraer.com.br"));

        assertThat(vm.row(CITY).getStatus()).isEqualTo("Conflict: choose");
        assertThat(vm.row(CITY).getResult()).as("not mine until Bob says so").isEmpty();
        assertThat(vm.row(CITY).getError()).as("an undecided field is no invalid one").isEmpty();
        assertThat(vm.problemsProperty().get()).isEmpty();
        assertThat(vm.canSaveProperty().get()).isFalse();
        assertThat(vm.row(EMAIL).getResult()).isEqualTo("bob@embraer.com.br");
        assertThat(vm.row(PHONE).getResult()).isEqualTo("+55 11 4000-1111");

        vm.row(CITY).useMine();

        assertThat(vm.row(CITY).getResult()).isEqualTo("Jundiaí");
        assertThat(vm.canSaveProperty().get()).isTrue();
    }

    @Test
    void useMineOnACityConflictSavesBobsCity() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        MergeViewModel vm = bobMerges(base, base.data().with(CITY, "Jundiaí"));

        vm.row(CITY).useMine();
        assertThat(vm.row(CITY).getStatus()).isEqualTo("Resolved: mine");
        vm.saveMerged();

        Customer read = editors.read(base.id());
        assertThat(read.data().city()).isEqualTo("Jundiaí");
        assertThat(read.version()).isEqualTo(3);
    }

    @Test
    void editsToDifferentLinesOfTheNotesAreBothKept() {
        Customer base = editors.loaded(aCustomer().with(NOTES, "Prefers email\nInvoices quarterly\nShips from Santos"));
        editors.saves(editors.alice(), base.id(),
                d -> d.with(NOTES, "Prefers phone\nInvoices quarterly\nShips from Santos"));
        MergeViewModel vm = bobMerges(base,
                base.data().with(NOTES, "Prefers email\nInvoices quarterly\nShips from Itajaí"));

        assertThat(vm.row(NOTES).resolution()).isEqualTo(Resolution.LINES_COMBINED);
        assertThat(vm.row(NOTES).getStatus()).isEqualTo("lines combined");
        assertThat(vm.conflictsProperty().get()).isZero();
        vm.saveMerged();

        assertThat(editors.read(base.id()).data().notes())
                .isEqualTo("Prefers phone\nInvoices quarterly\nShips from Itajaí");
    }

    @Test
    void aSaveThatLandsBeforeSaveMergedRefreshesTheMergeInPlace() {
        Customer base = editors.loaded(aCustomer());
        Customer theirs = editors.saves(editors.alice(), base.id(), d -> d.with(PHONE, "+55 11 4000-1111"));
        MergeViewModel vm = bobMerges(base, base.data().with(EMAIL, "bob@embraer.com.br"));
        List<Customer> saved = new ArrayList<>();
        vm.setOnFinished(ending -> {
            if (ending instanceof MergeOutcome.Saved e) {
                saved.add(e.stored());
            }
        });
        editors.saves(editors.carol(), base.id(), d -> d.with(CITY, "Sorocaba"));

        vm.saveMerged();

        assertThat(saved).isEmpty();
        assertThat(vm.finishedProperty().get()).isFalse();
        assertThat(vm.noticeProperty().get())
                .isEqualTo("Carol saved version 3 while you were merging — review the new changes");
        assertThat(vm.titleProperty().get()).startsWith("Carol saved version 3 at ")
                .endsWith("while you were merging against version 2");
        assertThat(vm.base()).isEqualTo(theirs);
        assertThat(vm.mine().phone()).isEqualTo("+55 11 4000-1111");
        assertThat(vm.mine().email()).isEqualTo("bob@embraer.com.br");
        assertThat(vm.theirs().orElseThrow().version()).isEqualTo(3);
        assertThat(vm.visibleRows()).extracting(MergeRowViewModel::field).containsExactly(EMAIL, CITY);
        assertThat(vm.row(CITY).getStatus()).isEqualTo("theirs");
        assertThat(vm.canSaveProperty().get()).isTrue();

        vm.saveMerged();

        Customer read = editors.read(base.id());
        assertThat(read.version()).isEqualTo(4);
        assertThat(read.data().phone()).isEqualTo("+55 11 4000-1111");
        assertThat(read.data().email()).isEqualTo("bob@embraer.com.br");
        assertThat(read.data().city()).isEqualTo("Sorocaba");
        assertThat(saved).containsExactly(read);
    }

    @Test
    void savingARecordAliceDeletedOffersToRecreateItWithMyValuesAndItsExternalRef() {
        Customer base = editors.loaded(aCustomer());
        editors.alice().customers().delete(base.id(), base.version());
        MergeViewModel vm = bobMerges(base, base.data().with(EMAIL, "bob@embraer.com.br"));
        AtomicReference<Customer> recreated = new AtomicReference<>();
        vm.setOnFinished(ending -> {
            if (ending instanceof MergeOutcome.Recreated e) {
                recreated.set(e.created());
            }
        });

        assertThat(vm.deletedProperty().get()).isTrue();
        assertThat(vm.titleProperty().get()).startsWith("This customer was deleted by Alice at ")
                .endsWith(" while you were editing version 1");
        assertThat(vm.canSaveProperty().get()).isFalse();
        assertThat(vm.canRecreateProperty().get()).isTrue();

        vm.recreate();

        Customer read = editors.read(recreated.get().id());
        assertThat(read.id()).isNotEqualTo(base.id());
        assertThat(read.version()).isEqualTo(1);
        assertThat(read.data().externalRef()).isEqualTo(base.data().externalRef());
        assertThat(read.data().email()).isEqualTo("bob@embraer.com.br");
        assertThat(read.updatedBy()).isEqualTo("Bob");
        assertThat(editors.alice().customers().find(base.id())).isEmpty();
    }

    @Test
    void discardingMyEditsOfADeletedRecordLetsTheEditorCloseIt() {
        Customer base = editors.loaded(aCustomer());
        editors.alice().customers().delete(base.id(), base.version());
        MergeViewModel vm = MergeViewModel.forDeleted(editors.bob().customers(), editors.bob().history(),
                TaskExecutor.sameThread(), base,
                base.data().with(EMAIL, "bob@embraer.com.br"));
        AtomicReference<Long> gone = new AtomicReference<>();
        vm.setOnFinished(ending -> {
            if (ending instanceof MergeOutcome.DeletionAccepted e) {
                gone.set(e.id());
            }
        });

        vm.discardMyChanges();

        assertThat(gone.get()).isEqualTo(base.id());
        assertThat(editors.alice().customers().find(base.id())).isEmpty();
    }

    @Test
    void aDeletionWhileMergingTurnsTheDialogIntoTheDeletedFlowWithMyMergedValues() {
        Customer base = editors.loaded(aCustomer());
        Customer theirs = editors.saves(editors.alice(), base.id(), d -> d.with(PHONE, "+55 11 4000-1111"));
        MergeViewModel vm = bobMerges(base, base.data().with(EMAIL, "bob@embraer.com.br"));
        editors.carol().customers().delete(base.id(), theirs.version());

        vm.saveMerged();

        assertThat(vm.deletedProperty().get()).isTrue();
        assertThat(vm.titleProperty().get()).startsWith("This customer was deleted by Carol at ")
                .endsWith(" while you were merging");
        assertThat(vm.mine().phone()).isEqualTo("+55 11 4000-1111");
        assertThat(vm.mine().email()).isEqualTo("bob@embraer.com.br");
    }

    @Test
    void countsResolvedConflictsAndEnablesSaveMergedOnlyWhenNoneRemain() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(REGION, "RJ")
                .with(POSTAL_CODE, "13010-000"));
        MergeViewModel vm = bobMerges(base, base.data().with(CITY, "Jundiaí").with(REGION, "MG")
                .with(POSTAL_CODE, "13201-000"));

        assertThat(vm.progressProperty().get()).isEqualTo("0 of 3 conflicts resolved");
        vm.row(CITY).useMine();
        vm.row(REGION).useTheirs();
        assertThat(vm.progressProperty().get()).isEqualTo("2 of 3 conflicts resolved");
        assertThat(vm.canSaveProperty().get()).isFalse();

        vm.row(POSTAL_CODE).resultProperty().set("13200-000");

        assertThat(vm.progressProperty().get()).isEqualTo("3 of 3 conflicts resolved");
        assertThat(vm.row(POSTAL_CODE).getStatus()).isEqualTo("Resolved: edited by you");
        assertThat(vm.canSaveProperty().get()).isTrue();
        vm.saveMerged();
        CustomerData read = editors.read(base.id()).data();
        assertThat(List.of(read.city(), read.region(), read.postalCode())).containsExactly("Jundiaí", "RJ",
                "13200-000");
    }

    @Test
    void useMineForAllDecidesOnlyTheConflictsStillOpen() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(REGION, "RJ"));
        MergeViewModel vm = bobMerges(base, base.data().with(CITY, "Jundiaí").with(REGION, "MG"));

        vm.row(CITY).useTheirs();
        vm.useMineForAll();

        assertThat(vm.row(CITY).getResult()).isEqualTo("Campinas");
        assertThat(vm.row(REGION).getResult()).isEqualTo("MG");
        assertThat(vm.progressProperty().get()).isEqualTo("2 of 2 conflicts resolved");
    }

    @Test
    void anInvalidResultIsMarkedWithItsReasonAndBlocksSaveMerged() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(EMAIL, "alice@embraer.com.br"));
        MergeViewModel vm = bobMerges(base, base.data().with(EMAIL, "bob@embraer.com.br"));
        MergeRowViewModel email = vm.row(EMAIL);

        email.resultProperty().set("bob at embraer");

        assertThat(email.isResolved()).isTrue();
        assertThat(email.getError()).isEqualTo("Email must look like name@example.com");
        assertThat(vm.problemsProperty().get()).contains("Email must look like name@example.com");
        assertThat(vm.canSaveProperty().get()).isFalse();
        vm.saveMerged();
        assertThat(editors.read(base.id()).version()).isEqualTo(2);

        email.resultProperty().set("bob@embraer.com.br");
        assertThat(email.getError()).isEmpty();
        assertThat(vm.canSaveProperty().get()).isTrue();
    }

    @Test
    void aCreditLimitThatIsNotANumberIsMarkedLikeInTheEditor() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(PHONE, "+55 11 4000-1111"));
        MergeViewModel vm = bobMerges(base, base.data().with(EMAIL, "bob@embraer.com.br"));
        vm.showAllProperty().set(true);

        vm.row(CREDIT_LIMIT).resultProperty().set("a lot");

        assertThat(vm.row(CREDIT_LIMIT).getError())
                .isEqualTo("Credit limit must be a number like 1,500.50, not \"a lot\"");
        assertThat(vm.canSaveProperty().get()).isFalse();
        vm.showAllProperty().set(false);
        assertThat(vm.visibleRows()).contains(vm.row(CREDIT_LIMIT));
    }

    @Test
    void conflictingLinesAreChosenHunkByHunkAndBothPutsMineBeforeTheirs() {
        Customer base = editors.loaded(aCustomer().with(NOTES, "Call Mon\nKeep\nShip by sea\nKeep too\nPay 30 days"));
        editors.saves(editors.alice(), base.id(),
                d -> d.with(NOTES, "Call Tue\nKeep\nShip by air\nKeep too\nPay 30 days"));
        MergeViewModel vm = bobMerges(base,
                base.data().with(NOTES, "Call Wed\nKeep\nShip by rail\nKeep too\nPay 60 days"));
        MergeRowViewModel notes = vm.row(NOTES);

        assertThat(notes.hunks()).extracting(HunkViewModel::baseLines, HunkViewModel::mineLines,
                HunkViewModel::theirsLines).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("Call Mon", "Call Wed", "Call Tue"),
                        org.assertj.core.groups.Tuple.tuple("Ship by sea", "Ship by rail", "Ship by air"));
        notes.hunks().get(0).choose(HunkChoice.THEIRS);
        assertThat(notes.getStatus()).isEqualTo("Both changed: 1 of 2 parts chosen");
        assertThat(notes.isResolved()).isFalse();
        notes.hunks().get(1).choose(HunkChoice.BOTH);

        assertThat(notes.getStatus()).isEqualTo("Resolved: chosen part by part");
        assertThat(vm.canSaveProperty().get()).isTrue();
        vm.saveMerged();
        assertThat(editors.read(base.id()).data().notes())
                .isEqualTo("Call Tue\nKeep\nShip by rail\nShip by air\nKeep too\nPay 60 days");
    }

    @Test
    void useTheirsOnConflictingTextKeepsMyEditsToOtherLines() {
        Customer base = editors.loaded(aCustomer().with(NOTES, "Call Mon\nKeep\nPay 30 days"));
        editors.saves(editors.alice(), base.id(), d -> d.with(NOTES, "Call Tue\nKeep\nPay 30 days"));
        MergeViewModel vm = bobMerges(base, base.data().with(NOTES, "Call Wed\nKeep\nPay 60 days"));

        vm.row(NOTES).useTheirs();

        assertThat(vm.row(NOTES).getResult()).isEqualTo("Call Tue\nKeep\nPay 60 days");
        assertThat(vm.row(NOTES).getStatus()).isEqualTo("Resolved: their lines");
    }

    @Test
    void f7WalksTheConflictsAndAltTUsesTheirsOnTheCurrentOne() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(REGION, "RJ")
                .with(PHONE, "+55 11 4000-1111"));
        MergeViewModel vm = bobMerges(base, base.data().with(CITY, "Jundiaí").with(REGION, "MG"));

        assertThat(vm.cursor().nextConflict()).isTrue();
        assertThat(vm.cursor().currentProperty().get().field()).isEqualTo(CITY);
        vm.cursor().nextConflict();
        assertThat(vm.cursor().currentProperty().get().field()).isEqualTo(REGION);
        vm.cursor().useTheirs();
        vm.cursor().nextConflict();
        assertThat(vm.cursor().currentProperty().get().field()).isEqualTo(CITY);
        vm.cursor().previousConflict();
        assertThat(vm.cursor().currentProperty().get().field()).isEqualTo(REGION);

        assertThat(vm.row(REGION).getResult()).isEqualTo("RJ");
        assertThat(vm.row(CITY).isResolved()).isFalse();
    }

    @Test
    void backReturnsTheEditorsValuesIntactAndDiscardHandsOverTheirs() {
        Customer base = editors.loaded(aCustomer());
        Customer theirs = editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        CustomerData mine = base.data().with(CITY, "  Jundiaí  ");
        MergeViewModel back = bobMerges(base, mine);
        AtomicReference<CustomerData> cancelled = new AtomicReference<>();
        back.setOnFinished(ending -> {
            if (ending instanceof MergeOutcome.Cancelled e) {
                cancelled.set(e.mine());
            }
        });
        back.row(CITY).useTheirs();

        back.cancel();

        assertThat(cancelled.get()).isSameAs(mine);
        MergeViewModel discard = bobMerges(base, mine);
        AtomicReference<Customer> discarded = new AtomicReference<>();
        discard.setOnFinished(ending -> {
            if (ending instanceof MergeOutcome.Discarded e) {
                discarded.set(e.theirs());
            }
        });
        discard.discardMyChanges();
        assertThat(discarded.get()).isEqualTo(theirs);
        assertThat(editors.read(base.id())).isEqualTo(theirs);
    }

    @Test
    void aDatabaseErrorKeepsTheMergeAndSaveMergedCanBeRetried() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        MergeViewModel vm = bobMerges(base, base.data().with(CITY, "Jundiaí"));
        vm.row(CITY).useMine();
        // A real failure of the database: every update of this customer is refused until the trigger goes.
        editors.db().jdbi().useHandle(h -> h.execute("""
                CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'out of memory' USING ERRCODE = 'out_of_memory'; END $$;
                CREATE TRIGGER refuse BEFORE UPDATE ON customer FOR EACH ROW
                    WHEN (OLD.id = %d) EXECUTE FUNCTION refuse();
                """.formatted(base.id())));

        vm.saveMerged();

        assertThat(vm.errorProperty().get()).startsWith("Not saved: The database refused the request")
                .contains("out of memory")
                .endsWith("Nothing is lost: your merge is still here; try Save merged again.");
        assertThat(vm.row(CITY).getResult()).isEqualTo("Jundiaí");
        assertThat(vm.canSaveProperty().get()).isTrue();
        editors.db().jdbi().useHandle(h -> h.execute("DROP TRIGGER refuse ON customer; DROP FUNCTION refuse()"));

        vm.saveMerged();

        assertThat(vm.errorProperty().get()).isEmpty();
        assertThat(editors.read(base.id()).data().city()).isEqualTo("Jundiaí");
    }

    @Test
    void theHeaderCountsTheSavesInBetweenByWriter() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        editors.saves(editors.carol(), base.id(), d -> d.with(REGION, "RJ"));
        editors.saves(editors.alice(), base.id(), d -> d.with(PHONE, "+55 11 4000-1111"));
        MergeViewModel vm = bobMerges(base, base.data().with(EMAIL, "bob@embraer.com.br"));

        assertThat(vm.titleProperty().get()).startsWith("Alice saved version 4 at ");
        assertThat(vm.historySummaryProperty().get()).isEqualTo("3 saves since you loaded it: Alice (2), Carol (1)");
        assertThat(vm.headings().theirsHeadingProperty().get()).isEqualTo("Theirs: version 4 by Alice");
    }

    @Test
    void copyMineGivesEveryFieldAsALabelledLine() {
        Customer base = editors.loaded(aCustomer().with(NOTES, "First line\nSecond line"));
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        MergeViewModel vm = bobMerges(base, base.data().with(CITY, "Jundiaí"));

        String text = vm.mineAsText();

        assertThat(text).startsWith("My values for Embraer - Empresa Brasileira de Aeronáutica S.A. (customer "
                + base.id() + ", edited from version 1)\n");
        assertThat(text).contains("\nCity: Jundiaí\n", "\nFax: (empty)\n",
                "\nNotes:\n    First line\n    Second line\n",
                "\nCredit limit: 1000.00\n");
    }

    @Test
    void listenersOnTheRowListsKeepHearingAfterAGarbageCollection() {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        MergeViewModel vm = bobMerges(base, base.data().with(CITY, "Jundiaí"));
        List<String> heard = new ArrayList<>();
        vm.visibleRows()
                .addListener((javafx.collections.ListChangeListener<MergeRowViewModel>) c -> heard.add("changed"));
        System.gc();

        vm.showAllProperty().set(true);

        assertThat(heard).containsExactly("changed");
        assertThat(vm.visibleRows()).hasSize(14);
    }
}
