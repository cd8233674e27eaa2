package org.lockstep.cli.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Decides what reaches stderr (configured by {@link LogConfigurator}): an operator reads it, so by default only
 * Lockstep's own warnings and errors, one line each; the libraries' messages (HikariCP, Jdbi, pgjdbc, Flyway) and
 * every stack trace go to the log file only ({@link LogFile}). With {@code LOCKSTEP_LOG_LEVEL} set, everything at
 * that level or above is shown, from every logger.
 */
public final class ConsoleLogFilter extends Filter<ILoggingEvent> {

    /** The loggers whose warnings an operator sees by default. */
    static final String OWN_LOGGERS = "org.lockstep.";

    private Level level;

    /**
     * The level asked for with {@code LOCKSTEP_LOG_LEVEL} ({@code TRACE}, {@code DEBUG}, {@code INFO}, {@code WARN},
     * {@code ERROR}); blank or unknown for the default.
     */
    public void setLevel(String level) {
        this.level = level == null || level.isBlank() ? null : Level.toLevel(level.strip(), null);
    }

    @Override
    public FilterReply decide(ILoggingEvent event) {
        if (level != null) {
            return event.getLevel().isGreaterOrEqual(level) ? FilterReply.NEUTRAL : FilterReply.DENY;
        }
        return event.getLoggerName().startsWith(OWN_LOGGERS) && event.getLevel().isGreaterOrEqual(Level.WARN)
                ? FilterReply.NEUTRAL : FilterReply.DENY;
    }
}
