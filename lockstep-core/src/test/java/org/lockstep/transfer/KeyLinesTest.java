package org.lockstep.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The keys of a file's rows checked in bounded memory: ten thousand keys in runs of a hundred, so that the check
 * reads them back from 100 temporary files; the keys given twice are found with their first line, exactly as an
 * in-memory check finds them, and the files are owner-only while they exist and gone after.
 */
class KeyLinesTest {

    @Test
    void keysGivenMoreThanOnceAreFoundAcrossRunsWithTheirFirstLineHoldingOneRunAtATime() throws Exception {
        List<String> firstUses = new ArrayList<>();
        List<String> repeats = new ArrayList<>();
        List<Path> files;
        try (KeyLines keys = new KeyLines(100)) {
            for (long line = 2; line < 10_002; line++) {
                // Every line its own key, except REF-00007 again on lines 5,000 and 9,999, and REF-09000 first on line 3.
                String key = line == 5_000 || line == 9_999 ? "REF-00007" : line == 3 ? "REF-09000"
                        : String.format("REF-%05d", line);
                keys.add(key, line, line == 9_999 ? 42L : null);
            }
            files = keys.runFiles();
            assertThat(files).hasSize(100);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(files.get(0))))
                    .isEqualTo("rw-------");

            keys.merge(first -> firstUses.add(first.key() + "@" + first.line()),
                    (again, first) -> repeats.add(again.key() + "@" + again.line() + " first " + first.line()
                            + " id " + again.id()));

            assertThat(keys.mostHeld()).isEqualTo(100);
        }
        assertThat(repeats).containsExactly("REF-00007@5000 first 7 id null", "REF-00007@9999 first 7 id 42",
                "REF-09000@9000 first 3 id null");
        assertThat(firstUses).hasSize(9_997).doesNotHaveDuplicates().isSorted().contains("REF-09000@3", "REF-00007@7");
        assertThat(files).noneMatch(Files::exists);
    }

    @Test
    void aFileWithFewerRowsThanARunNeverTouchesTheDisk() throws Exception {
        List<String> repeats = new ArrayList<>();
        try (KeyLines keys = new KeyLines(KeyLines.RUN_SIZE)) {
            keys.add("B", 2, null);
            keys.add("A", 3, null);
            keys.add("B", 4, null);
            keys.merge(first -> {}, (again, first) -> repeats.add(again.key() + "@" + again.line() + "/"
                    + first.line()));
            assertThat(keys.runFiles()).isEmpty();
        }
        assertThat(repeats).containsExactly("B@4/2");
    }
}
