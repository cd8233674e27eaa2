package org.lockstep.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The size of the embedded server's buffer cache ({@code shared_buffers}), given at each start (issue 13). */
final class ServerCache {

    private static final Logger LOG = LoggerFactory.getLogger(ServerCache.class);

    private ServerCache() {
    }

    /**
     * The option {@code pg_ctl start -o} gets for the cache in {@code pgData}: {@code " -c shared_buffers=…MB"}
     * ({@link #sharedBuffersMb}), or nothing when the size was {@link #chosen} there.
     */
    static String startOption(Path pgData) {
        return chosen(pgData) ? "" : " -c shared_buffers=" + sharedBuffersMb() + "MB";
    }

    /**
     * The option that loads {@code pg_prewarm} at start, when the server's binaries ship it (zonky's do):
     * {@code " -c shared_preload_libraries=pg_prewarm"}. Its autoprewarm worker (PostgreSQL docs, F.27.1) writes the
     * list of cached pages to the data directory every five minutes and at shutdown, and at the next start loads them
     * again in the background, before and while the first clients connect; {@code lockstep_warm_up()} (V24) then
     * loads whatever the list needs that was not cached.
     */
    static String prewarmOption(Path binaries) {
        return Files.exists(binaries.resolve("lib/postgresql/pg_prewarm.so"))
                ? " -c shared_preload_libraries=pg_prewarm" : "";
    }

    /**
     * The embedded server's buffer cache, in MB: a sixteenth of the machine's memory, at least 128 MB and at most
     * 1 GB. The list's search on a large table reads rows scattered over the whole table, and each one found in the
     * operating system's cache rather than PostgreSQL's own costs several times more (docs/benchmarks.md, "The filter
     * on 1,000,000 customers": 64 MB, the old size, held a fifth of a million customers' table). PostgreSQL's docs
     * suggest a quarter of the memory for a dedicated server (19.4.1 "Memory", {@code shared_buffers}); a desktop runs
     * other programs, hence a sixteenth. The cache is memory the server touches only as it fills it, so a small
     * database costs no more than before. Given at start, so a data directory made with the old size gets it too;
     * not when it was chosen with ALTER SYSTEM ({@link #chosen}).
     */
    static long sharedBuffersMb() {
        long total = 0;
        try {
            if (java.lang.management.ManagementFactory
                    .getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                total = os.getTotalMemorySize();
            }
        } catch (LinkageError noJdkManagement) {
            // A runtime without the jdk.management module (the app image links it in: pom.xml, dist.modules).
            LOG.info("The machine's memory is unknown ({}); the embedded server gets the smallest cache",
                    noJdkManagement.toString());
        }
        return Math.max(128, Math.min(1024, total / 16 / (1024 * 1024)));
    }

    /**
     * Whether someone chose the cache's size with {@code ALTER SYSTEM SET shared_buffers} (PostgreSQL docs, ALTER
     * SYSTEM: it writes {@code postgresql.auto.conf}): then that size stands, since a setting given at start would
     * beat it without a word.
     */
    static boolean chosen(Path pgData) {
        try {
            return Files.readAllLines(pgData.resolve("postgresql.auto.conf"), StandardCharsets.UTF_8).stream()
                    .anyMatch(line -> line.strip().matches("(?i)shared_buffers\\s*=.*"));
        } catch (IOException e) {
            return false;
        }
    }
}
