package org.lockstep.ui.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.HistoryEntry;

class MergeHeaderTest {

    private static final ZoneId SAO_PAULO = ZoneId.of("America/Sao_Paulo");
    private static final MergeHeader HEADER = new MergeHeader(SAO_PAULO, LocalDate.of(2025, 3, 14));

    private static Customer theirs(long version, String by, String at) {
        return new Customer(42, version, aCustomer().build(), Instant.parse(at), by);
    }

    private static List<HistoryEntry> savesBy(String writers) {
        return Arrays.stream(writers.split(" ")).map(w -> new HistoryEntry(42, 2, HistoryEntry.Op.UPDATE, w,
                Instant.parse("2025-03-14T13:03:00Z"), Optional.empty(), Optional.empty())).toList();
    }

    @Test
    void saysWhoSavedWhichVersionWhenWhileIWasEditing() {
        assertThat(HEADER.savedWhileEditing(theirs(7, "Bob", "2025-03-14T13:03:00Z"), 5))
                .isEqualTo("Bob saved version 7 at 10:03 while you were editing version 5");
    }

    @Test
    void aSaveOnAnotherDayCarriesItsDate() {
        assertThat(HEADER.savedWhileEditing(theirs(7, "Bob", "2025-03-13T13:03:00Z"), 5))
                .isEqualTo("Bob saved version 7 on 13 Mar 2025 at 10:03 while you were editing version 5");
    }

    @Test
    void anUnknownWriterIsSomeone() {
        assertThat(HEADER.newChangesWhileMerging(theirs(9, null, "2025-03-14T13:05:00Z")))
                .isEqualTo("Someone saved version 9 while you were merging — review the new changes");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            Bob                  | 1 save since you loaded it: Bob
            Bob Carol Bob        | 3 saves since you loaded it: Bob (2), Carol (1)
            Carol Bob Bob Dora   | 4 saves since you loaded it: Bob (2), Carol (1), Dora (1)
            """)
    void countsTheSavesInBetweenByWriterMostFirst(String writers, String expected) {
        assertThat(MergeHeader.savesBetween(savesBy(writers), MergeHeader.Since.LOADED, 5)).isEqualTo(expected);
    }

    @Test
    void saysSoWhenTheHistoryHoldsNoSaves() {
        assertThat(MergeHeader.savesBetween(List.of(), MergeHeader.Since.LOADED, 5))
                .isEqualTo("No saves are recorded since you loaded it");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            0 | 0 | No conflicts: every change merged on its own
            0 | 1 | 0 of 1 conflict resolved
            2 | 3 | 2 of 3 conflicts resolved
            """)
    void countsResolvedConflicts(int resolved, int conflicts, String expected) {
        assertThat(MergeHeader.progress(resolved, conflicts)).isEqualTo(expected);
    }

    @Test
    void namesWhoDeletedItWhenTheHistoryKnows() {
        HistoryEntry deletion = new HistoryEntry(42, 3, HistoryEntry.Op.DELETE, "Bob",
                Instant.parse("2025-03-14T13:04:00Z"), Optional.of(aCustomer().build()), Optional.empty());

        assertThat(HEADER.deleted(Optional.of(deletion), OptionalLong.of(2)))
                .isEqualTo("This customer was deleted by Bob at 10:04 while you were editing version 2");
        assertThat(HEADER.deleted(Optional.empty(), OptionalLong.empty()))
                .isEqualTo("This customer was deleted while you were merging");
    }
}
