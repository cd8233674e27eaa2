package org.lockstep.cli.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConsoleLogFilterTest {

    @ParameterizedTest(name = "{0} {1}, LOCKSTEP_LOG_LEVEL=''{2}'' → shown: {3}")
    @CsvSource(textBlock = """
            org.lockstep.server.Database,          WARN,  '',    true
            org.lockstep.store.PgChangeFeed,    ERROR, '',    true
            org.lockstep.store.PgChangeFeed,    INFO,  '',    false
            com.zaxxer.hikari.pool.HikariPool,  ERROR, '',    false
            org.jdbi.v3.core.Jdbi,              ERROR, '',    false
            org.postgresql.Driver,              WARN,  '',    false
            org.flywaydb.core.Flyway,           WARN,  '',    false
            com.zaxxer.hikari.pool.HikariPool,  ERROR, WARN,  true
            com.zaxxer.hikari.pool.HikariPool,  INFO,  WARN,  false
            org.postgresql.Driver,              INFO,  debug, true
            org.lockstep.server.Database,          DEBUG, DEBUG, true
            org.lockstep.server.Database,          WARN,  ERROR, false
            """)
    void stderrShowsLockstepsOwnWarningsUnlessALevelIsAskedFor(String logger, String level, String asked,
            boolean shown) {
        ConsoleLogFilter filter = new ConsoleLogFilter();
        filter.setLevel(asked);
        LoggingEvent event = new LoggingEvent(getClass().getName(), new LoggerContext().getLogger(logger),
                Level.toLevel(level), "a message", null, null);

        assertThat(filter.decide(event) != FilterReply.DENY).isEqualTo(shown);
    }
}
