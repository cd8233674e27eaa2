package org.lockstep.editing.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.Translations.expect;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.RecordedStory;
import org.lockstep.editing.timeline.TimelineEvent.Kind;
import org.lockstep.testing.InEveryTranslation;
import org.lockstep.text.Language;

/**
 * What the timeline says of a grant and of a creation (issue 27): how long a grant really held the lock (its recorded
 * expiry is moved to its end on release), not "valid until"; no dash for a company that is not there; and a restore
 * is told as the restore of its version, not as "v3 saved".
 */
class TimelineWordsTest {

    static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    static final long ID = 7;

    /** A grant at T0 released 30.4 s later: the database set its expiry to the release, not T0 + its 60 s term. */
    static RecordedStory releasedAfter30s(CustomerData created) {
        Instant end = T0.plusMillis(30_400);
        return new RecordedStory(ID,
                List.of(new HistoryEntry(ID, 1, HistoryEntry.Op.INSERT, "Alice", T0.minusSeconds(5), Optional.empty(),
                        Optional.of(created))),
                List.of(new LeaseEvent(ID, 12, "Alice", LeaseEvent.Kind.ACQUIRED, "Alice", T0, Optional.of(end)),
                        new LeaseEvent(ID, 12, "Alice", LeaseEvent.Kind.RELEASED, "Alice", end, Optional.empty()),
                        new LeaseEvent(ID, 13, "Bob", LeaseEvent.Kind.ACQUIRED, "Bob", T0.plusSeconds(40),
                                Optional.of(T0.plusSeconds(100)))),
                List.of(), T0.plusSeconds(50), false, OptionalLong.empty(), Set.of());
    }

    @Test
    void anEndedGrantSaysHowLongItHeldAndARunningOneWhenItEndsUnlessRenewed() {
        Timeline t = Timelines.build(List.of(releasedAfter30s(CustomerData.EMPTY)));

        assertThat(t.of(Kind.LEASE_GRANTED)).extracting(TimelineEvent::detail)
                .containsExactly("held 30.4 s", "held so far; ends at +60.0 s unless renewed");
    }

    @Test
    void aCreationWithoutACompanyShowsNoDash() {
        Timeline t = Timelines.build(List.of(releasedAfter30s(CustomerData.EMPTY)));

        assertThat(t.of(Kind.CREATED)).extracting(TimelineEvent::label, TimelineEvent::detail)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("created v1", ""));
    }

    @Test
    void aCreationWithACompanyShowsIt() {
        Timeline t = Timelines.build(List.of(releasedAfter30s(CustomerData.EMPTY.with(CustomerField.COMPANY, "Acme"))));

        assertThat(t.of(Kind.CREATED)).extracting(TimelineEvent::detail).containsExactly("Acme");
    }

    /** Created, saved, and version 1 restored as version 3, as the history recorded them (V23). */
    static RecordedStory restoredVersionOne() {
        CustomerData first = CustomerData.EMPTY.with(CustomerField.CITY, "Lisboa");
        CustomerData second = first.with(CustomerField.CITY, "Porto");
        return new RecordedStory(ID, List.of(
                new HistoryEntry(ID, 1, HistoryEntry.Op.INSERT, "Alice", T0, Optional.empty(), Optional.of(first)),
                new HistoryEntry(ID, 2, HistoryEntry.Op.UPDATE, "Bob", T0.plusSeconds(10), Optional.of(first),
                        Optional.of(second)),
                new HistoryEntry(ID, 3, HistoryEntry.Op.UPDATE, "Alice", T0.plusSeconds(20), Optional.of(second),
                        Optional.of(first), OptionalLong.of(1))),
                List.of(), List.of(), T0.plusSeconds(30), false, OptionalLong.empty(), Set.of());
    }

    @Test
    void aRestoreSaysWhichVersionItRestoredAndAPlainSaveThatItSaved() {
        Timeline t = Timelines.build(List.of(restoredVersionOne()));

        assertThat(t.of(Kind.SAVED)).extracting(TimelineEvent::label, TimelineEvent::lane).containsExactly(
                org.assertj.core.groups.Tuple.tuple("v2 saved", "Bob"),
                org.assertj.core.groups.Tuple.tuple("v3: restored v1", "Alice"));
    }

    @InEveryTranslation
    void aRestoreIsToldInTheLanguage(Language lang) {
        Timeline t = Timelines.build(List.of(restoredVersionOne()));

        assertThat(t.of(Kind.SAVED)).extracting(TimelineEvent::label).containsExactly(
                expect(lang, "v2 salva", "v2 guardada"),
                expect(lang, "v3: restaurada a v1", "v3: restaurada la v1"));
    }

    @InEveryTranslation
    void theGrantsAreToldInTheLanguage(Language lang) {
        Timeline t = Timelines.build(List.of(releasedAfter30s(CustomerData.EMPTY)));

        assertThat(t.of(Kind.LEASE_GRANTED)).extracting(TimelineEvent::detail).containsExactly(
                expect(lang, "durou 30,4 s", "duró 30,4 s"),
                expect(lang, "ainda vigente; termina em +60,0 s se não for renovada",
                        "sigue vigente; termina a los +60,0 s si no se renueva"));
        assertThat(t.of(Kind.CREATED)).extracting(TimelineEvent::detail).containsExactly("");
    }
}
