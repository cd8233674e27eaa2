package org.lockstep.shell;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.lockstep.config.LockstepConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remembers an X display on which JavaFX refused the GPU, so that the app image's launcher starts the next windows on
 * it in the software pipeline at once (issue 30).
 *
 * <p>Why: JavaFX tries its hardware pipeline (es2) first. On a display with only software OpenGL — a virtual machine,
 * a remote desktop, Xvfb — it loads Mesa's whole GL stack (llvmpipe, with libLLVM), fails its own "graphics hardware
 * qualifier" check and falls back to the software pipeline (Prism SW), the one it then uses for the rest of the run.
 * GTK also loads that stack at start to choose its windows' visuals. The stack stays mapped: 49 MB of the client's
 * resident memory and about 0.1 CPU-s of its start, for nothing (docs/benchmarks.md, "Issue 30, phase 5"). Told
 * beforehand ({@code -Dprism.order=sw}, and {@code GDK_GL=disable} for GTK), neither loads it, and the windows look the
 * same: the software pipeline is the one JavaFX falls back to.
 *
 * <p>Only a start that chose nothing learns: when {@code prism.order} was given (by the operator, an administrator's
 * {@code Lockstep.cfg}, or the launcher acting on this memo), nothing is recorded. A start that had the GPU deletes the
 * memo. The launcher ({@code lockstep-app/src/dist/launcher.sh}) trusts a memo for {@link #TRUSTED_FOR_DAYS} days, so
 * that a display that gains a GPU is tried again within a week.
 *
 * <p>The memo: {@code <cache>/display/<DISPLAY>} under Lockstep's cache directory ({@link LockstepConfig#cacheDir}),
 * the display's name with every character but ASCII letters and digits as {@code _} ({@code :0} is {@code _0},
 * {@code localhost:10.0} {@code localhost_10_0});
 * its first line the time JavaFX refused the GPU, in seconds since the epoch, which the launcher compares with its
 * clock (bash's {@code printf '%(%s)T'}), then a sentence for whoever finds the file.
 */
final class SoftwareDisplay {

    /** How long the launcher acts on a memo: a display refused longer ago is tried with the GPU again. */
    static final int TRUSTED_FOR_DAYS = 7;

    private static final Logger LOG = LoggerFactory.getLogger(SoftwareDisplay.class);

    private SoftwareDisplay() {
    }

    /**
     * The memo's file for the display in {@code env} ({@code DISPLAY}), under {@code cacheDir}; empty without an X
     * display (Windows, macOS, Wayland without XWayland), where the launcher has nothing to choose.
     */
    static Optional<Path> memo(Map<String, String> env, Path cacheDir) {
        String display = env.get("DISPLAY");
        if (display == null || display.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(cacheDir.resolve("display").resolve(display.replaceAll("[^A-Za-z0-9]", "_")));
    }

    /**
     * Records what this start's JavaFX chose, once its toolkit runs: the GPU refused ({@code hardware} false) writes
     * the memo, the GPU used deletes it; a pipeline that was chosen for it ({@code prismOrder} not null) records
     * nothing. Never fails the start: a memo that cannot be written only costs the next start the GPU's probe.
     *
     * @param memo       the memo's file ({@link #memo})
     * @param hardware   whether JavaFX runs a hardware pipeline ({@code Platform.isSupported(SCENE3D)})
     * @param prismOrder the {@code prism.order} system property, or {@code null} when JavaFX chose by itself
     * @param now        this start's time
     */
    static void record(Path memo, boolean hardware, String prismOrder, Instant now) {
        if (prismOrder != null) {
            return;
        }
        try {
            if (hardware) {
                Files.deleteIfExists(memo);
                return;
            }
            Files.createDirectories(memo.getParent());
            // Written beside it and renamed over it: whatever is at the memo's path (a link to a file elsewhere, a
            // memo another start is writing) is replaced, never written through, and the launcher reads either the
            // old memo or the new one, never half of one.
            Path written = Files.createTempFile(memo.getParent(), "." + memo.getFileName(), ".new");
            try {
                Files.writeString(written, now.getEpochSecond() + "\nJavaFX refused this display's GPU at that time "
                        + "(seconds since 1970): Lockstep's launcher starts in software rendering on it for "
                        + TRUSTED_FOR_DAYS + " days after. Delete this file to try the GPU at the next start.\n",
                        StandardCharsets.UTF_8);
                Files.move(written, memo, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(written);
            }
            LOG.info("No GPU that JavaFX takes on this display: the next starts on it render in software at once");
        } catch (IOException | RuntimeException e) {
            LOG.debug("Cannot record this display's rendering in {}: {}", memo, e.toString());
        }
    }

    /** {@link #record} for this process: its environment, Lockstep's cache directory and {@code prism.order}. */
    static void recordThisStart(boolean hardware) {
        memo(System.getenv(), LockstepConfig.cacheDir(System.getenv()))
                .ifPresent(m -> record(m, hardware, System.getProperty("prism.order"), Instant.now()));
    }
}
