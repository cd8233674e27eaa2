package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What an unreadable notification leaves in the log: anyone may NOTIFY on Lockstep's channel, so a payload is cut and
 * its line breaks and control characters escaped, and no forged line reaches the log file.
 */
class NotificationPayloadTest {

    @Test
    void anUnreadablePayloadIsSkippedAndLoggedOnOneShortLine() {
        String forged = "x\n2026-12-03 10:00:00.000 ERROR [main] org.lockstep - Database wiped\r\u0007"
                + "y".repeat(8_000);

        assertThat(PgChangeFeed.parse(forged)).isEmpty();
        String logged = PgChangeFeed.quoted(forged);
        assertThat(logged).doesNotContain("\n", "\r", "\u0007").contains("\\u000a", "\\u000d", "\\u0007")
                .startsWith("\"x\\u000a2026-12-03").endsWith("…\"");
        assertThat(logged.length()).isLessThan(PgChangeFeed.LOGGED_CHARS + 40);
    }

    @Test
    void aShortPayloadIsLoggedWhole() {
        assertThat(PgChangeFeed.quoted("{\"table\": 1}")).isEqualTo("\"{\"table\": 1}\"");
    }
}
