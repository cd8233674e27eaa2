package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;

/**
 * The session the parts of one editor share, alone: it takes a writer id and a zone, and nothing else. What each
 * change does to the id, the buffer, the state and the notice, and which events the parts hear, in which order.
 */
class EditorSessionTest {

    @RegisterExtension
    final ListenerExceptions listenerExceptions = new ListenerExceptions();

    static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");

    final EditorSession session = new EditorSession("alice-client/editor-1", ZoneId.of("America/Sao_Paulo"));
    final SessionEvents events = SessionEvents.of(session);

    static Customer customer(long id, long version, String city) {
        return new Customer(id, version, aCustomer().with(CustomerField.CITY, city).build().normalized(), AT, "Bob");
    }

    @Test
    void aNewSessionShowsNothingAndKnowsItsWriterAndZone() {
        assertThat(session.state()).isEqualTo(EditorState.EMPTY);
        assertThat(session.customerId()).isEqualTo(OptionalLong.empty());
        assertThat(session.noticeProperty().get()).isNull();
        assertThat(session.buffer().base()).isNull();
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(session.writerId()).isEqualTo("alice-client/editor-1");
        assertThat(session.zone()).isEqualTo(ZoneId.of("America/Sao_Paulo"));
        assertThat(events.heard()).isEmpty();
    }

    @Test
    void theIdIsWhatThePartsSetAndMinusOneMeansNone() {
        session.customerId(7);
        assertThat(session.customerId()).isEqualTo(OptionalLong.of(7));

        session.customerId(-1);
        assertThat(session.customerId()).isEmpty();
    }

    @Test
    void resetShowsTheRecordCleanWithTheNoticeAndTellsEveryListenerInTheOrderTheySubscribed() {
        List<String> order = new ArrayList<>();
        session.subscribe(new EditorSession.Events() {
            @Override
            public void reset(Customer record) {
                order.add("first");
            }
        });
        session.subscribe(new EditorSession.Events() {
            @Override
            public void reset(Customer record) {
                order.add("second");
            }
        });
        session.buffer().text(CustomerField.PHONE).set("+55 1");
        Customer v2 = customer(3, 2, "Curitiba");

        session.resetTo(v2, EditorNotice.info("Shown again."));

        assertThat(session.buffer().base()).isEqualTo(v2);
        assertThat(session.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(session.buffer().text(CustomerField.PHONE).get()).isEqualTo(v2.data().phone());
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(session.noticeProperty().get().text()).isEqualTo("Shown again.");
        assertThat(events.heard()).containsExactly("reset 3 v2");
        assertThat(order).containsExactly("first", "second");
    }

    @Test
    void savedHereMakesTheStoredRecordTheBaseKeepsWhatWasTypedSinceAndReplacesAnErrorNoticeWithSavedVersion() {
        Customer v1 = customer(3, 1, "São José dos Campos");
        session.resetTo(v1, null);
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        EditBuffer.Snapshot mine = session.buffer().snapshot();
        session.buffer().text(CustomerField.PHONE).set("+55 9"); // typed while the save was in flight
        session.notice(EditorNotice.error("Can't reach the database", "refused"));
        events.forget();
        Customer v2 = new Customer(3, 2, mine.data().normalized(), AT, "Alice");

        session.savedHere(v2, mine);

        assertThat(session.customerId()).isEqualTo(OptionalLong.of(3));
        assertThat(session.buffer().base()).isEqualTo(v2);
        assertThat(session.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(session.buffer().text(CustomerField.PHONE).get()).isEqualTo("+55 9");
        assertThat(session.buffer().dirtyProperty().get()).isTrue();
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(session.noticeProperty().get()).isEqualTo(EditorNotice.news("Saved version 2"));
        assertThat(events.heard()).containsExactly("saved 3 v2");
    }

    @Test
    void savedHereSupersedesAnInformationNoticeWithSavedVersionAsNews() {
        Customer v1 = customer(3, 1, "São José dos Campos");
        session.resetTo(v1, null);
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        EditBuffer.Snapshot mine = session.buffer().snapshot();
        session.notice(EditorNotice.info("Bob's lock on this customer ended"));

        session.savedHere(new Customer(3, 2, mine.data().normalized(), AT, "Alice"), mine);

        assertThat(session.noticeProperty().get().text()).isEqualTo("Saved version 2");
        assertThat(session.noticeProperty().get().isTransient()).isTrue();
    }

    @Test
    void aSaveCommittedForARecordNoLongerShownIsOnlyHeard() {
        Customer shown = customer(5, 4, "Manaus");
        session.resetTo(shown, null);
        events.forget();

        session.committed(customer(3, 2, "Curitiba"));

        assertThat(session.buffer().base()).isEqualTo(shown);
        assertThat(events.heard()).containsExactly("saved 3 v2");
    }

    @Test
    void aRecreatedCustomerIsEditedUnderItsNewIdAndIsHeardAsResetRecreatedAndSaved() {
        session.resetTo(customer(3, 2, "Curitiba"), null);
        session.buffer().text(CustomerField.PHONE).set("+55 1");
        events.forget();
        Customer created = customer(4, 1, "Curitiba");

        session.recreated(created);

        assertThat(session.customerId()).isEqualTo(OptionalLong.of(4));
        assertThat(session.buffer().base()).isEqualTo(created);
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(session.noticeProperty().get().text()).isEqualTo("Re-created as Customer #4 with your values.");
        assertThat(events.heard()).containsExactly("reset 4 v1", "recreated 4 v1", "saved 4 v1");
    }

    @Test
    void theCustomerShownDeletedKeepsItsValuesAndIsHeardAsShown() {
        Customer v2 = customer(3, 2, "Curitiba");
        session.resetTo(v2, null);
        events.forget();

        session.deleted(3, EditorNotice.info("Deleted Embraer."));

        assertThat(session.state()).isEqualTo(EditorState.DELETED);
        assertThat(session.customerId()).isEqualTo(OptionalLong.of(3));
        assertThat(session.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(session.noticeProperty().get().text()).isEqualTo("Deleted Embraer.");
        assertThat(events.heard()).containsExactly("deleted 3 shown");
    }

    @Test
    void aCustomerShownBeforeDeletedLeavesTheEditorAsItIs() {
        Customer shown = customer(5, 1, "Manaus");
        session.customerId(5);
        session.resetTo(shown, null);
        events.forget();

        session.deletedElsewhere(3);

        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(session.customerId()).isEqualTo(OptionalLong.of(5));
        assertThat(session.noticeProperty().get()).isNull();
        assertThat(events.heard()).containsExactly("deleted 3 elsewhere");
    }

    @Test
    void aCountedConflictIsOnlyHeard() {
        session.resetTo(customer(3, 1, "Manaus"), null);
        events.forget();

        session.conflictCounted(3);

        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(events.heard()).containsExactly("conflict 3");
    }

    @Test
    void theStateAndTheNoticeAreSetAsTold() {
        List<EditorState> states = new ArrayList<>();
        session.stateProperty().addListener((obs, was, now) -> states.add(now));

        session.state(EditorState.LOADING);
        session.state(EditorState.NEW);
        session.notice(EditorNotice.error("Can't reach the database", ""));

        assertThat(states).containsExactly(EditorState.LOADING, EditorState.NEW);
        assertThat(session.noticeProperty().get().kind()).isEqualTo(EditorNotice.Kind.ERROR);
        session.notice(null);
        assertThat(session.noticeProperty().get()).isNull();
        assertThat(events.heard()).isEmpty();
    }
}
