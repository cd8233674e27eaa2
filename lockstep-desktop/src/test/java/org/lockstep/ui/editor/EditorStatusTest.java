package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.FieldError;
import org.lockstep.testing.ManualClock;

/**
 * What the editor's controls show, alone: {@link EditorStatus} takes nothing but the inputs of each
 * {@link EditorStatus#refresh refresh}, so each rule is one set of inputs and what the properties say after it.
 * The clock stands at 2026-11-29 10:00 UTC, the day the record was saved.
 */
class EditorStatusTest {

    static final ManualClock CLOCK = new ManualClock();
    static final CustomerData VALUES = aCustomer().build().normalized();
    static final Customer BASE = new Customer(3, 4, VALUES, CLOCK.instant(), "Bob");
    static final List<FieldError> NO_PROBLEMS = List.of();
    static final FieldError BAD_EMAIL = new FieldError(CustomerField.EMAIL, "Email must look like name@example.com");
    static final FieldError BAD_LIMIT = new FieldError(CustomerField.CREDIT_LIMIT, "Credit limit must not be negative");

    final EditorStatus status = new EditorStatus();

    /** The inputs of one refresh, starting from a clean stored customer being edited, nothing open or in flight. */
    static final class In {
        EditorState state = EditorState.EDITING;
        boolean conflictOpen;
        boolean readOnly;
        List<FieldError> problems = NO_PROBLEMS;
        boolean dirty;
        boolean busy;
        boolean saveInFlight;
        CustomerData current = VALUES;
        Customer base = BASE;
        long id = 3;

        EditorStatus.Inputs inputs() {
            return new EditorStatus.Inputs(state, conflictOpen, readOnly, problems, dirty, busy, saveInFlight, current,
                    base, id, "Alice", CLOCK);
        }
    }

    static In editing() {
        return new In();
    }

    static In dirty() {
        In in = new In();
        in.dirty = true;
        in.current = VALUES.with(CustomerField.CITY, "Curitiba");
        return in;
    }

    void refresh(In in) {
        status.refresh(in.inputs());
    }

    @Test
    void aCleanStoredCustomerIsEditableAndDeletableButHasNothingToSaveOrRevert() {
        refresh(editing());

        assertThat(status.editableProperty().get()).isTrue();
        assertThat(status.canSaveProperty().get()).isFalse();
        assertThat(status.canRevertProperty().get()).isFalse();
        assertThat(status.canDeleteProperty().get()).isTrue();
        assertThat(status.saveBlockedReasonProperty().get()).isEmpty();
        assertThat(status.displayNameProperty().get()).isEqualTo(VALUES.company());
        assertThat(status.versionLineProperty().get()).isEqualTo("version 4 · saved by Bob at 10:00");
        assertThat(status.titleProperty().get())
                .isEqualTo(VALUES.company() + " — Customer #3 — Lockstep — Alice");
    }

    @Test
    void editsMakeSaveAndRevertPossibleAndMarkTheTitle() {
        refresh(dirty());

        assertThat(status.canSaveProperty().get()).isTrue();
        assertThat(status.canRevertProperty().get()).isTrue();
        assertThat(status.titleProperty().get())
                .isEqualTo("• " + VALUES.company() + " — Customer #3 — Lockstep — Alice");
    }

    @ParameterizedTest
    @EnumSource(EditorState.class)
    void onlyANewOrAnEditedCustomerTakesEdits(EditorState state) {
        In in = dirty();
        in.state = state;

        refresh(in);

        boolean open = state == EditorState.NEW || state == EditorState.EDITING;
        assertThat(status.editableProperty().get()).isEqualTo(open);
        assertThat(status.canSaveProperty().get()).isEqualTo(open);
        assertThat(status.canRevertProperty().get()).isEqualTo(open);
        assertThat(status.canDeleteProperty().get()).isEqualTo(state == EditorState.EDITING);
    }

    @Test
    void aBlankNewCustomerMaySaveWhenValidButNotBeDeleted() {
        In in = editing();
        in.state = EditorState.NEW;
        in.base = null;
        in.id = -1;

        refresh(in);

        assertThat(status.canSaveProperty().get()).isTrue();
        assertThat(status.canDeleteProperty().get()).isFalse();
        assertThat(status.versionLineProperty().get()).isEqualTo("New customer · not saved yet");
        assertThat(status.titleProperty().get()).isEqualTo("New customer — Lockstep — Alice");
    }

    @Test
    void anOpenMergeOrDeleteDecisionTakesNoEditsAndAllowsNothing() {
        In in = dirty();
        in.conflictOpen = true;

        refresh(in);

        assertThat(status.editableProperty().get()).isFalse();
        assertThat(status.canSaveProperty().get()).isFalse();
        assertThat(status.canRevertProperty().get()).isFalse();
        assertThat(status.canDeleteProperty().get()).isFalse();
    }

    @Test
    void readOnlyUnderAnothersLockStillAllowsRevertingOnesOwnEdits() {
        In in = dirty();
        in.readOnly = true;

        refresh(in);

        assertThat(status.editableProperty().get()).isFalse();
        assertThat(status.canSaveProperty().get()).isFalse();
        assertThat(status.canDeleteProperty().get()).isFalse();
        assertThat(status.canRevertProperty().get()).isTrue();
    }

    @Test
    void problemsBlockSaveAndTheReasonNamesTheFirstAndCountsTheRest() {
        In in = dirty();
        in.problems = List.of(BAD_EMAIL);
        refresh(in);
        assertThat(status.canSaveProperty().get()).isFalse();
        assertThat(status.canRevertProperty().get()).isTrue();
        assertThat(status.saveBlockedReasonProperty().get())
                .isEqualTo("Can't save: Email must look like name@example.com");

        in.problems = List.of(BAD_EMAIL, BAD_LIMIT);
        refresh(in);
        assertThat(status.saveBlockedReasonProperty().get())
                .isEqualTo("Can't save: Email must look like name@example.com (and 1 more problem)");
    }

    @Test
    void noReasonIsGivenWhenTheEditorTakesNoEditsAnyway() {
        In in = dirty();
        in.problems = List.of(BAD_EMAIL);
        in.state = EditorState.DELETED;

        refresh(in);

        assertThat(status.saveBlockedReasonProperty().get()).isEmpty();
    }

    @Test
    void aSaveInFlightLetsAnotherSaveQueueButNotARevertOrADelete() {
        In in = dirty();
        in.busy = true;
        in.saveInFlight = true;

        refresh(in);

        assertThat(status.canSaveProperty().get()).isTrue();
        assertThat(status.canRevertProperty().get()).isFalse();
        assertThat(status.canDeleteProperty().get()).isFalse();
    }

    @Test
    void aLoadOrDeleteInFlightBlocksSaveToo() {
        In in = dirty();
        in.busy = true;

        refresh(in);

        assertThat(status.canSaveProperty().get()).isFalse();
        assertThat(status.editableProperty().get()).isTrue();
    }

    @Test
    void theNameFollowsTheValuesAsEditedCompanyFirstThenContact() {
        In in = dirty();
        in.current = VALUES.with(CustomerField.COMPANY, null);
        refresh(in);
        assertThat(status.displayNameProperty().get()).isEqualTo(VALUES.contactName());

        in.current = VALUES.with(CustomerField.COMPANY, null).with(CustomerField.CONTACT_NAME, null);
        refresh(in);
        assertThat(status.displayNameProperty().get()).isEqualTo("(unnamed)");
    }

    @Test
    void theVersionLineAndTitleSayLoadingAndDeleted() {
        In loading = editing();
        loading.state = EditorState.LOADING;
        loading.base = null;
        refresh(loading);
        assertThat(status.versionLineProperty().get()).isEqualTo("Loading…");
        assertThat(status.titleProperty().get()).isEqualTo("Customer #3 — Lockstep — Alice");

        In deleted = editing();
        deleted.state = EditorState.DELETED;
        refresh(deleted);
        assertThat(status.versionLineProperty().get()).isEqualTo("version 4 · saved by Bob at 10:00 · deleted");
        assertThat(status.titleProperty().get())
                .isEqualTo(VALUES.company() + " — Customer #3 (deleted) — Lockstep — Alice");

        In empty = editing();
        empty.state = EditorState.EMPTY;
        empty.id = -1;
        empty.base = null;
        refresh(empty);
        assertThat(status.versionLineProperty().get()).isEmpty();
        assertThat(status.titleProperty().get()).isEqualTo("Lockstep — Alice");
    }
}
