package org.lockstep.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;

class SaveStampTest {

    // 29 Nov 2026 12:00 in Berlin (UTC+1)
    static final Clock NOW = Clock.fixed(Instant.parse("2026-11-29T11:00:00Z"), ZoneId.of("Europe/Berlin"));

    @ParameterizedTest
    @CsvSource(textBlock = """
            2026-11-29T09:03:00Z, 10:03
            2026-11-28T23:30:00Z, 00:30
            2026-11-28T09:03:00Z, 28 Nov 10:03
            2025-11-28T09:03:00Z, 28 Nov 2025 10:03
            """)
    void aSaveTimeIsShownInLocalTimeRelativeToToday(String at, String shown) {
        assertThat(SaveStamp.time(Instant.parse(at), NOW)).isEqualTo(shown);
    }

    @ParameterizedTest
    @CsvSource(textBlock = """
            Bob, 'version 3 · saved by Bob at 10:03'
            ,    'version 3 · saved at 10:03'
            """)
    void theVersionLineNamesWhoSavedWhenKnown(String by, String line) {
        Customer c = new Customer(7, 3, CustomerData.EMPTY, Instant.parse("2026-11-29T09:03:00Z"), by);
        assertThat(SaveStamp.versionLine(c, NOW)).isEqualTo(line);
    }
}
