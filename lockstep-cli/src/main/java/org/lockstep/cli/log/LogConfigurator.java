package org.lockstep.cli.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.jul.LevelChangePropagator;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Lockstep's logging set up in code, found by logback through {@code META-INF/services} before it looks for an XML
 * file: reading a {@code logback.xml} loaded logback's XML reader and configuration model, some 200 classes and 0.3
 * to 0.5 CPU-seconds of every command's start (issue 30, {@code -Xlog:class+load}). What it sets up is what that file
 * said:
 *
 * <ul>
 * <li>stderr is for the operator: Lockstep's own warnings, one line each, no stack trace ({@link ConsoleLogFilter};
 * every logger at {@code LOCKSTEP_LOG_LEVEL} and above when it is set). The details, libraries included, go to
 * {@code <data dir>/logs/lockstep.log} ({@link LogFile}, attached once the data directory is known).</li>
 * <li>java.util.logging (pgjdbc's) is routed here by {@link LogFile}; its levels follow logback's, so that disabled
 * messages are not even built ({@link LevelChangePropagator}).</li>
 * <li>{@code org.postgresql} at INFO: below it, pgjdbc logs statements with their bound values.</li>
 * </ul>
 *
 * <p>A {@code logback-test.xml} on the class path, or {@code -Dlogback.configurationFile}, is left to logback's own
 * configuration, as before.
 */
public final class LogConfigurator extends ContextAwareBase implements Configurator {

    /** The environment variable (or system property) that shows every logger's messages at this level on stderr. */
    static final String LEVEL_VARIABLE = "LOCKSTEP_LOG_LEVEL";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null
                || LogConfigurator.class.getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        String asked = System.getProperty(LEVEL_VARIABLE, System.getenv(LEVEL_VARIABLE));

        LevelChangePropagator julLevels = new LevelChangePropagator();
        julLevels.setContext(context);
        julLevels.setResetJUL(true);
        julLevels.start();
        context.addListener(julLevels);

        ConsoleLogFilter filter = new ConsoleLogFilter();
        filter.setLevel(asked);
        filter.start();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        // The message's first line only, and no stack trace: the log file has the rest.
        encoder.setPattern("lockstep: %replace(%msg){'(?s)[\\r\\n].*', ''}%n%nopex");
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.addFilter(filter);
        stderr.setEncoder(encoder);
        stderr.start();

        context.getLogger("org.postgresql").setLevel(Level.INFO);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(asked == null || asked.isBlank() ? null : asked.strip(), Level.INFO));
        root.addAppender(stderr);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
