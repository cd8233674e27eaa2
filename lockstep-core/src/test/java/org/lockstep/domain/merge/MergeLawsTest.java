package org.lockstep.domain.merge;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/**
 * The laws a three-way merge must obey, whatever the values. Values come from small alphabets, so that the sides
 * often touch the same fields and lines; the alphabets hold the same words in NFC and in NFD (combining accents), so
 * the laws are checked where one side typed a value on macOS and the other elsewhere.
 */
class MergeLawsTest {

    @Property
    void withNoChangeOfTheirsTheResultIsMine(@ForAll("records") CustomerData base,
            @ForAll("records") CustomerData mine) {
        MergeResult r = ThreeWayMerge.merge(base, mine, base);

        assertThat(r.isClean()).isTrue();
        assertThat(r.merged().sameValues(mine)).isTrue();
    }

    @Property
    void withNoChangeOfMineTheResultIsTheirs(@ForAll("records") CustomerData base,
            @ForAll("records") CustomerData theirs) {
        MergeResult r = ThreeWayMerge.merge(base, base, theirs);

        assertThat(r.isClean()).isTrue();
        assertThat(r.merged().sameValues(theirs)).isTrue();
    }

    @Property
    void theSameChangeOnBothSidesIsThatChange(@ForAll("records") CustomerData base, @ForAll("records") CustomerData x) {
        MergeResult r = ThreeWayMerge.merge(base, x, x);

        assertThat(r.isClean()).isTrue();
        assertThat(r.merged().sameValues(x)).isTrue();
    }

    @Property
    void aChangeToAFieldTheOtherSideLeftAloneAlwaysSurvives(@ForAll("records") CustomerData base,
            @ForAll("records") CustomerData mine,
            @ForAll("records") CustomerData theirs) {
        MergeResult r = ThreeWayMerge.merge(base, mine, theirs);

        for (CustomerField f : CustomerField.values()) {
            boolean iChanged = !CustomerData.sameValue(base.get(f), mine.get(f));
            boolean theyChanged = !CustomerData.sameValue(base.get(f), theirs.get(f));
            if (iChanged && !theyChanged) {
                assertThat(CustomerData.sameValue(r.field(f).result(), mine.get(f))).as(f.column()).isTrue();
            }
            if (theyChanged && !iChanged) {
                assertThat(CustomerData.sameValue(r.field(f).result(), theirs.get(f))).as(f.column()).isTrue();
            }
        }
    }

    @Property
    void swappingMineAndTheirsGivesTheSameConflicts(@ForAll("records") CustomerData base,
            @ForAll("records") CustomerData mine,
            @ForAll("records") CustomerData theirs) {
        MergeResult ab = ThreeWayMerge.merge(base, mine, theirs);
        MergeResult ba = ThreeWayMerge.merge(base, theirs, mine);

        assertThat(ba.conflicts().stream().map(FieldMerge::field))
                .containsExactlyElementsOf(ab.conflicts().stream().map(FieldMerge::field).toList());
        for (FieldMerge f : ab.conflicts()) {
            List<TextMergeResult.Conflict> hunks = f.text().map(TextMergeResult::conflicts).orElse(List.of());
            List<TextMergeResult.Conflict> swapped = ba.field(f.field()).text().map(TextMergeResult::conflicts)
                    .orElse(List.of()).stream()
                    .map(c -> new TextMergeResult.Conflict(c.base(), c.theirs(), c.mine())).toList();
            assertThat(swapped).isEqualTo(hunks);
        }
    }

    @Property
    void lineMergesObeyTheSameLaws(@ForAll("text") String base,
            @ForAll("text") String mine,
            @ForAll("text") String theirs) {
        TextMergeResult r = TextMerge.merge(base, mine, theirs);
        if (theirs.equals(base)) {
            assertThat(nullToEmpty(r.text())).isEqualTo(mine);
        }
        if (mine.equals(base)) {
            assertThat(nullToEmpty(r.text())).isEqualTo(theirs);
        }
        if (mine.equals(theirs)) {
            assertThat(r.isClean()).isTrue();
            assertThat(nullToEmpty(r.text())).isEqualTo(mine);
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    @Provide
    Arbitrary<String> text() {
        return Arbitraries.of("a", "b", "c", "d", "\u00e9", "e\u0301").list().ofMaxSize(6)
                .map(l -> String.join("\n", l));
    }

    @Provide
    Arbitrary<CustomerData> records() {
        Arbitrary<String> word =
                Arbitraries.of("Oslo", "Z\u00fcrich", "Zu\u0308rich", "S\u00e3o Paulo", "Sa\u0303o Paulo",
                        "x");
        Arbitrary<String> optionalWord = word.injectNull(0.3);
        Arbitrary<String> notes = text().injectNull(0.2);
        Arbitrary<BigDecimal> credit = Arbitraries.of(new BigDecimal("1000"), new BigDecimal("1000.00"),
                new BigDecimal("250.50"), BigDecimal.ZERO).injectNull(0.3);
        return Combinators.combine(optionalWord, optionalWord, optionalWord, notes, notes, credit)
                .as((company, city, email, address, note, limit) -> new CustomerData(null, company, "Ana", null, email,
                        null, null, address, city, null, null, "Norway", note, limit));
    }
}
