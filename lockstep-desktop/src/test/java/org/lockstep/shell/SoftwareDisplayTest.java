package org.lockstep.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memo of a display whose GPU JavaFX refused: where it is for a display, that only a start which chose no pipeline
 * writes or deletes it, and what its first line says (the launcher reads it: {@code smoke-test.sh} starts the app
 * image's windows under Xvfb three times and checks what each loaded).
 */
class SoftwareDisplayTest {

    private static final Instant REFUSED = Instant.parse("2026-12-05T15:30:00Z");

    @TempDir
    Path cache;

    @Test
    void theMemoIsNamedByTheDisplayWithOnlyLettersAndDigits() {
        assertThat(SoftwareDisplay.memo(Map.of("DISPLAY", ":0"), cache)).contains(cache.resolve("display/_0"));
        assertThat(SoftwareDisplay.memo(Map.of("DISPLAY", "localhost:10.0"), cache))
                .contains(cache.resolve("display/localhost_10_0"));
        assertThat(SoftwareDisplay.memo(Map.of("DISPLAY", ".."), cache)).contains(cache.resolve("display/__"));
        assertThat(SoftwareDisplay.memo(Map.of("DISPLAY", "../x/:1"), cache))
                .contains(cache.resolve("display/___x__1"));
    }

    @Test
    void withoutAnXDisplayThereIsNoMemo() {
        assertThat(SoftwareDisplay.memo(Map.of(), cache)).isEmpty();
        assertThat(SoftwareDisplay.memo(Map.of("DISPLAY", " "), cache)).isEmpty();
    }

    @Test
    void aStartWhoseGpuWasRefusedWritesTheTimeOnTheFirstLine() throws Exception {
        Path memo = cache.resolve("display/_0");

        SoftwareDisplay.record(memo, false, null, REFUSED);

        assertThat(Files.readAllLines(memo, StandardCharsets.UTF_8).get(0)).isEqualTo("1796484600");
        assertThat(Files.readString(memo)).contains("Delete this file to try the GPU");
    }

    @Test
    void aLaterRefusalRenewsTheMemo() throws Exception {
        Path memo = cache.resolve("display/_0");
        SoftwareDisplay.record(memo, false, null, REFUSED);

        SoftwareDisplay.record(memo, false, null, REFUSED.plusSeconds(8 * 86_400));

        assertThat(Files.readAllLines(memo).get(0)).isEqualTo(String.valueOf(REFUSED.getEpochSecond() + 8 * 86_400));
    }

    @Test
    void aStartThatHadTheGpuDeletesTheMemo() throws Exception {
        Path memo = cache.resolve("display/_0");
        SoftwareDisplay.record(memo, false, null, REFUSED);

        SoftwareDisplay.record(memo, true, null, REFUSED);

        assertThat(memo).doesNotExist();
        assertThat(memo.getParent()).isDirectory();
    }

    @Test
    void aStartWithAChosenPipelineLearnsNothing() throws Exception {
        Path memo = cache.resolve("display/_0");

        SoftwareDisplay.record(memo, false, "sw", REFUSED);
        assertThat(memo).doesNotExist();

        SoftwareDisplay.record(memo, false, null, REFUSED);
        SoftwareDisplay.record(memo, true, "es2,sw", REFUSED.plusSeconds(60));
        SoftwareDisplay.record(memo, false, "sw", REFUSED.plusSeconds(120));
        assertThat(Files.readAllLines(memo).get(0)).isEqualTo(String.valueOf(REFUSED.getEpochSecond()));
    }

    @Test
    void whatIsAtTheMemosPathIsReplacedNeverWrittenThrough(@TempDir Path elsewhere) throws Exception {
        Path outside = Files.writeString(elsewhere.resolve("notes.txt"), "not Lockstep's\n");
        Path memo = cache.resolve("display/_0");
        Files.createDirectories(memo.getParent());
        Files.createSymbolicLink(memo, outside);

        SoftwareDisplay.record(memo, false, null, REFUSED);

        assertThat(outside).hasContent("not Lockstep's");
        assertThat(memo).isRegularFile().isNotEqualTo(outside);
        assertThat(Files.isSymbolicLink(memo)).isFalse();
        assertThat(Files.readAllLines(memo).get(0)).isEqualTo("1796484600");
        try (Stream<Path> files = Files.list(memo.getParent())) {
            assertThat(files).containsExactly(memo);
        }
    }

    @Test
    void aDirectoryAtTheMemosPathStaysAndLeavesNothingBehind() throws Exception {
        Path memo = cache.resolve("display/_0");
        Files.createDirectories(memo);
        Files.writeString(memo.resolve("kept"), "someone's");

        SoftwareDisplay.record(memo, false, null, REFUSED);

        assertThat(memo.resolve("kept")).hasContent("someone's");
        try (Stream<Path> files = Files.list(memo.getParent())) {
            assertThat(files).containsExactly(memo);
        }
    }

    @Test
    void aMemoThatCannotBeWrittenDoesNotFailTheStart() throws Exception {
        Files.writeString(cache.resolve("display"), "a file where the memo's directory would be");
        Path memo = cache.resolve("display/_0");

        SoftwareDisplay.record(memo, false, null, REFUSED);
        SoftwareDisplay.record(memo, true, null, REFUSED);

        assertThat(cache.resolve("display")).isRegularFile();
    }
}
