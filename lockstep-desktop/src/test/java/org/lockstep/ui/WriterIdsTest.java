package org.lockstep.ui;

import org.lockstep.editing.WriterIds;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A writer id names its client; every other id is a client of its own. */
class WriterIdsTest {

    @ParameterizedTest(name = "{0} belongs to {1}")
    @CsvSource(textBlock = """
            Alice-7f3a/editor-12,            Alice-7f3a
            Alice-7f3a,                      Alice-7f3a
            cli-0b9e2c,                      cli-0b9e2c
            a/editor-1/editor-2,             a/editor-1
            Alice-7f3a/editor-,              Alice-7f3a/editor-
            Alice-7f3a/editor-x1,            Alice-7f3a/editor-x1
            /editor-3,                       ''
            """)
    void theClientOfAnIdIsWhatItsEditorSuffixHangsFrom(String id, String client) {
        assertThat(WriterIds.clientOf(id)).isEqualTo(client == null ? "" : client);
    }

    @Test
    void newWriterIdsOfAClientAreDistinctAndBelongToIt() {
        String first = WriterIds.next("Alice-7f3a");
        String second = WriterIds.next(first);

        assertThat(first).isNotEqualTo(second).startsWith("Alice-7f3a/editor-");
        assertThat(WriterIds.clientOf(second)).isEqualTo("Alice-7f3a");
        assertThat(WriterIds.anotherWriterOfMyClient(second, first)).isTrue();
        assertThat(WriterIds.anotherWriterOfMyClient(first, first)).as("itself").isFalse();
        assertThat(WriterIds.anotherWriterOfMyClient(WriterIds.next("Bob-11c2"), first)).isFalse();
        assertThat(WriterIds.sameClient("Alice-7f3a", second)).isTrue();
        assertThat(WriterIds.sameClient("cli-0b9e2c", second)).as("the command line is another client").isFalse();
    }
}
