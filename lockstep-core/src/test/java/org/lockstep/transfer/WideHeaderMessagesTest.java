package org.lockstep.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.lockstep.transfer.CustomerBulkStore.ImportKey;

/**
 * Every message about a header's columns names the first few and counts the rest, whatever the header's width (issue
 * 28): a 10,000-column header of one name printed its 10,000 positions on one line of 59,000 characters, and a
 * {@code --map} or {@code --key} the file could not satisfy listed every one of its column names.
 */
class WideHeaderMessagesTest {

    private static final int WIDE = 10_000;

    /** Far more than ten columns' worth of words, far less than ten thousand columns'. */
    private static final int BOUND = 1_000;

    private static List<String> header(java.util.function.IntFunction<String> name) {
        return IntStream.range(0, WIDE).mapToObj(name).toList();
    }

    @Test
    void tenThousandColumnsOfOneNameAreCountedInOneShortLine() {
        ImportMapping mapping = ImportMapping.of(header(i -> "company"), List.of(), ImportKey.NONE);

        assertThat(mapping.headerProblems()).singleElement().satisfies(p -> assertThat(p)
                .startsWith("header: column \"company\" appears 10,000 times (columns 1, 2, 3, 4, 5, 6, 7, 8, 9, 10"
                        + " and 9,990 more); use --map to choose one")
                .hasSizeLessThan(BOUND));
    }

    @Test
    void columnsOfLikeNamesFillingOneFieldAreCountedInOneShortLine() {
        ImportMapping mapping = ImportMapping.of(header(i -> i % 2 == 0 ? "company" : "Company"), List.of(),
                ImportKey.NONE);

        assertThat(mapping.headerProblems()).singleElement().satisfies(p -> assertThat(p)
                .startsWith("header: columns 1 (\"company\"), 2 (\"Company\"), 3 (\"company\")")
                .contains("10 (\"Company\") and 9,990 more all fill company").hasSizeLessThan(BOUND));
    }

    @Test
    void aMapOfAColumnTheWideFileLacksNamesItsFirstColumnsOnly() {
        List<String> header = header(i -> "column number " + i + " of a very wide export, far too long to print");

        assertThatThrownBy(() -> ImportMapping.of(header, List.of("nosuch=city"), ImportKey.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--map \"nosuch=city\": the file has no column \"nosuch\"; its columns are"
                        + " \"column number 0 of a very wide export, …\", \"column number 1")
                .hasMessageContaining(" and 9,990 more")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(BOUND));
    }

    @Test
    void aMapOfOneOfTenThousandLikeNamedColumnsCountsThem() {
        assertThatThrownBy(() -> ImportMapping.of(header(i -> "company"), List.of("company=company"), ImportKey.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the file has 10,000 columns named \"company\" (columns 1, 2, 3, 4, 5, 6, 7, 8,"
                        + " 9, 10 and 9,990 more)")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(BOUND));
    }

    @Test
    void aKeyTheWideFileLacksNamesItsFirstColumnsOnly() {
        List<String> header = header(i -> i == 0 ? "company" : "extra" + i);
        List<String> skipAll = IntStream.range(1, WIDE).mapToObj(i -> "extra" + i + "=").toList();

        assertThatThrownBy(() -> ImportMapping.of(header, skipAll, ImportKey.EXTERNAL_REF))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--key external_ref: the file has no external_ref column; its columns are"
                        + " \"company\", \"extra1\"")
                .hasMessageEndingWith("\"extra9\" and 9,990 more")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(BOUND));
    }

    @Test
    void aWideHeaderOfTwoPossibleDelimitersNamesItsFirstStrangersOnly() {
        String line = String.join(";", header(i -> "a" + i + ",b" + i));

        DelimiterDetection.Result result = DelimiterDetection.detect(line,
                names -> ImportMapping.unknownColumns(names, List.of()));

        assertThat(result).isInstanceOfSatisfying(DelimiterDetection.Undecided.class, u -> assertThat(u.message())
                .contains("\"a0\", \"b0;a1\"").contains(" and 9,991 more are not known columns")
                .contains(" and 9,990 more are not known columns").hasSizeLessThan(BOUND));
    }
}
