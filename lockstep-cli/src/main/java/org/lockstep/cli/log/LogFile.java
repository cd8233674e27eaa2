package org.lockstep.cli.log;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.util.FileSize;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.Optional;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The detailed log: {@code <data dir>/logs/lockstep.log}, everything at INFO and above (or {@code LOCKSTEP_LOG_LEVEL})
 * from every library, with stack traces, for whoever investigates a failure the operator saw as one line on stderr.
 * It rolls over at {@value #MAX_FILE_SIZE}, keeping {@value #KEPT_FILES} older files ({@code lockstep.1.log} …), so
 * it never holds more than about 40 MB.
 *
 * <p>The data directory is only known once the command line is parsed, so the file is attached then, in code,
 * rather than in {@link LogConfigurator}. Nothing logged may contain row values: the database connections are set up so
 * that exception messages carry none (see {@code Database}).
 */
public final class LogFile {

    /** The largest a log file grows before it rolls over. */
    static final String MAX_FILE_SIZE = "10MB";
    /** How many rolled-over files are kept. */
    static final int KEPT_FILES = 3;

    private static final String APPENDER = "FILE";
    private static Path current;

    private static final Set<PosixFilePermission> PRIVATE_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> PRIVATE_FILE = PosixFilePermissions.fromString("rw-------");

    private LogFile() {
    }

    /** Where the log of a data directory is written. */
    public static Path in(Path dataDir) {
        return dataDir.resolve("logs").resolve("lockstep.log");
    }

    /**
     * Writes the detailed log into {@code dataDir} from now on (moving it from another data directory given before),
     * and routes java.util.logging (pgjdbc's) through the same configuration. Does nothing when logback is not the
     * logging backend. When the directory cannot be created, logs a warning and carries on without a file.
     *
     * @return the log file, when there is one
     */
    public static synchronized Optional<Path> useDataDirectory(Path dataDir) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return Optional.empty();
        }
        if (!SLF4JBridgeHandler.isInstalled()) {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
        Path file = in(dataDir).toAbsolutePath().normalize();
        if (file.equals(current)) {
            return Optional.of(file);
        }
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Appender<ILoggingEvent> previous = root.getAppender(APPENDER);
        if (previous != null) {
            root.detachAppender(previous);
            previous.stop();
            current = null;
        }
        try {
            createPrivateDirectory(file.getParent());
        } catch (IOException e) {
            LoggerFactory.getLogger(LogFile.class).warn("No log file: cannot create {} ({})", file.getParent(),
                    e.getMessage());
            return Optional.empty();
        }
        root.addAppender(appender(context, file));
        current = file;
        return Optional.of(file);
    }

    private static RollingFileAppender<ILoggingEvent> appender(LoggerContext context, Path file) {
        RollingFileAppender<ILoggingEvent> appender = new PrivateFileAppender();
        appender.setContext(context);
        appender.setName(APPENDER);
        appender.setFile(file.toString());

        FixedWindowRollingPolicy rolling = new FixedWindowRollingPolicy();
        rolling.setContext(context);
        rolling.setParent(appender);
        rolling.setFileNamePattern(file.resolveSibling("lockstep.%i.log").toString());
        rolling.setMinIndex(1);
        rolling.setMaxIndex(KEPT_FILES);
        rolling.start();

        SizeBasedTriggeringPolicy<ILoggingEvent> trigger = new SizeBasedTriggeringPolicy<>();
        trigger.setContext(context);
        trigger.setMaxFileSize(FileSize.valueOf(MAX_FILE_SIZE));
        trigger.start();

        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.setPattern("%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n");
        encoder.start();

        appender.setRollingPolicy(rolling);
        appender.setTriggeringPolicy(trigger);
        appender.setEncoder(encoder);
        appender.start();
        return appender;
    }

    /**
     * The log's directory, {@code 0700} whatever the umask: the log names customers and operators, which are nobody
     * else's to read on a shared machine (as the password files are kept).
     */
    private static void createPrivateDirectory(Path dir) throws IOException {
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (!posix) {
            Files.createDirectories(dir);
            return;
        }
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PRIVATE_DIRECTORY));
        }
        // Created under a umask that took nothing away, or by an older Lockstep: made private now.
        Files.setPosixFilePermissions(dir, PRIVATE_DIRECTORY);
    }

    /**
     * A rolling appender whose every file (the first, and each new one after a roll-over) is {@code 0600} before a
     * byte is written, whatever the umask: logback creates files with the process's umask.
     */
    private static final class PrivateFileAppender extends RollingFileAppender<ILoggingEvent> {
        @Override
        public void openFile(String fileName) throws IOException {
            Path path = Path.of(fileName);
            if (path.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                if (!Files.exists(path)) {
                    Files.createFile(path, PosixFilePermissions.asFileAttribute(PRIVATE_FILE));
                }
                Files.setPosixFilePermissions(path, PRIVATE_FILE);
            }
            super.openFile(fileName);
        }
    }
}
