package org.lockstep.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts Lockstep as an operator or a script does and measures it from outside (issue 30): each command-line command
 * and the desktop as a process of their own, on a data directory whose embedded server is already running.
 *
 * <p>Figures, Linux only: wall time from {@link ProcessBuilder#start} by this JVM's monotonic clock; CPU time (user +
 * system) from {@code /proc}: for a command, this JVM's {@code cutime + cstime} ({@code /proc/self/stat}) grown while
 * it waited for the command (the kernel adds an exited child's time there once it is waited for), for the desktop,
 * the process's own {@code utime + stime} when it reports a moment; the peak resident set ({@code VmHWM} of
 * {@code /proc/PID/status}), read every {@value #SAMPLE_MS} ms while it runs. The desktop tells its moments on stderr
 * ({@code org.lockstep.ui.StartupReport}, turned on with {@code -Dlockstep.startupReport=true}); each is stamped by
 * this JVM as it arrives.
 */
final class StartupBenchmark {

    /** How often a running command's peak memory is read, ms. */
    static final long SAMPLE_MS = 10;

    /** Clock ticks per second of {@code /proc}'s CPU times ({@code getconf CLK_TCK}, 100 on Linux x86-64). */
    static final double TICKS_PER_SECOND = 100;

    /** What runs Lockstep: a java binary with flags and a jar, or an app image's launcher. */
    record Launch(List<String> prefix, Map<String, String> environment, String describe) {

        /** {@code java FLAGS… -jar JAR}. */
        static Launch jar(Path java, List<String> flags, Path jar) {
            List<String> prefix = new ArrayList<>();
            prefix.add(java.toString());
            prefix.addAll(flags);
            prefix.add("-jar");
            prefix.add(jar.toString());
            return new Launch(prefix, Map.of(), String.join(" ", prefix));
        }

        /** {@code IMAGE/bin/Lockstep}, its JVM flags in {@code JAVA_TOOL_OPTIONS} (which the JVM reads; jpackage's launcher ignores JDK_JAVA_OPTIONS). */
        static Launch image(Path image, List<String> flags) {
            Path launcher = image.resolve("bin").resolve("Lockstep");
            Map<String, String> env = flags.isEmpty() ? Map.of() : Map.of("JAVA_TOOL_OPTIONS", String.join(" ", flags));
            return new Launch(List.of(launcher.toString()), env,
                    (flags.isEmpty() ? "" : "JAVA_TOOL_OPTIONS='" + String.join(" ", flags) + "' ") + launcher);
        }
    }

    /** One command-line run: wall and CPU time, ms; peak resident set, kB; exit code. */
    record CommandRun(String command, double wallMs, double cpuMs, long peakRssKb, int exit) {
    }

    /**
     * One desktop start: when each moment came, ms after the launch (absent when it did not come), the CPU time spent
     * by then, ms, the peak resident set then and, after {@code idle} seconds more, the resident set, kB.
     */
    record DesktopRun(Map<String, Double> moments, double cpuMsAtFirstPage, long peakRssKbAtFirstPage,
            Optional<Long> idleRssKb) {
    }

    private final Launch launch;
    private final Path dataDir;
    private final PrintWriter progress;
    private final Map<String, String> environment;

    StartupBenchmark(Launch launch, Path dataDir, PrintWriter progress) {
        this(launch, dataDir, progress, Map.of());
    }

    /**
     * @param environment variables every run gets on top of the launch's own, e.g. {@code XDG_CACHE_HOME} naming an
     *         empty directory, so that a run extracts the embedded server's binaries as a first start ever does
     */
    StartupBenchmark(Launch launch, Path dataDir, PrintWriter progress, Map<String, String> environment) {
        this.launch = launch;
        this.dataDir = dataDir;
        this.progress = progress;
        this.environment = Map.copyOf(environment);
    }

    /** Runs {@code lockstep --data-dir DIR ARGS…} to its end, its stdout discarded, and measures it. */
    CommandRun command(String... args) throws IOException, InterruptedException {
        return command(false, args).run();
    }

    /** As {@link #command(String...)}, keeping its stdout. */
    Output commandWithOutput(String... args) throws IOException, InterruptedException {
        return command(true, args);
    }

    /** A run and what it printed on stdout. */
    record Output(CommandRun run, String stdout) {
    }

    private Output command(boolean keepOutput, String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = builder(List.of(), args);
        Path out = keepOutput ? Files.createTempFile("lockstep-startup", ".out") : null;
        pb.redirectOutput(keepOutput ? ProcessBuilder.Redirect.to(out.toFile()) : ProcessBuilder.Redirect.DISCARD);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        long childCpuBefore = childrenCpuTicks();
        long start = System.nanoTime();
        Process p = pb.start();
        long peak = 0;
        while (!p.waitFor(SAMPLE_MS, TimeUnit.MILLISECONDS)) {
            peak = Math.max(peak, status(p.pid(), "VmHWM").orElse(0L));
        }
        double wall = (System.nanoTime() - start) / 1e6;
        double cpu = (childrenCpuTicks() - childCpuBefore) * 1000 / TICKS_PER_SECOND;
        String stdout = "";
        if (keepOutput) {
            stdout = Files.readString(out, StandardCharsets.UTF_8);
            Files.delete(out);
        }
        return new Output(new CommandRun(String.join(" ", args), wall, cpu, peak, p.exitValue()), stdout);
    }

    /**
     * Starts the desktop and waits for its first page of customers (at most {@code timeoutSeconds}), then {@code
     * idleSeconds} more when positive, and ends it.
     *
     * @throws IllegalStateException when the first page did not come in time, or the desktop ended before it
     */
    DesktopRun desktop(List<String> jvmFlags, double timeoutSeconds, double idleSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder pb = builder(jvmFlags);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        long start = System.nanoTime();
        Process p = pb.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "startup-stderr");
        reader.setDaemon(true);
        reader.start();
        Map<String, Double> moments = new LinkedHashMap<>();
        double cpuAtFirstPage = -1;
        long peakAtFirstPage = 0;
        try {
            long deadline = start + (long) (timeoutSeconds * 1e9);
            while (!moments.containsKey("first-page")) {
                String line = lines.poll(SAMPLE_MS, TimeUnit.MILLISECONDS);
                if (line == null) {
                    if (!p.isAlive()) {
                        throw new IllegalStateException("The desktop ended (exit " + p.exitValue()
                                + ") before its first page; its log is in " + dataDir.resolve("logs"));
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("No first page within " + timeoutSeconds + " s");
                    }
                    continue;
                }
                if (!line.startsWith(REPORT)) {
                    progress.println("  desktop: " + line);
                    continue;
                }
                String moment = line.substring(REPORT.length()).strip();
                moments.put(moment, (System.nanoTime() - start) / 1e6);
                if (moment.equals("first-page")) {
                    cpuAtFirstPage = cpuTicks(p.pid()) * 1000 / TICKS_PER_SECOND;
                    peakAtFirstPage = status(p.pid(), "VmHWM").orElse(0L);
                }
            }
            Optional<Long> idle = Optional.empty();
            if (idleSeconds > 0) {
                p.waitFor((long) (idleSeconds * 1000), TimeUnit.MILLISECONDS);
                idle = status(p.pid(), "VmRSS");
            }
            return new DesktopRun(moments, cpuAtFirstPage, peakAtFirstPage, idle);
        } finally {
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** The desktop's report lines start so ({@code org.lockstep.ui.StartupReport}). */
    static final String REPORT = "lockstep-startup ";

    private ProcessBuilder builder(List<String> desktopFlags, String... args) {
        List<String> command = new ArrayList<>(launch.prefix());
        ProcessBuilder pb = new ProcessBuilder();
        pb.environment().putAll(launch.environment());
        pb.environment().putAll(environment);
        if (!desktopFlags.isEmpty()) {
            if (launch.prefix().size() == 1) {
                // The app image: the report's property through JAVA_TOOL_OPTIONS (its launcher ignores JDK_JAVA_OPTIONS).
                String before = pb.environment().getOrDefault("JAVA_TOOL_OPTIONS", "");
                pb.environment().put("JAVA_TOOL_OPTIONS", (before + " " + String.join(" ", desktopFlags)).strip());
            } else {
                command.addAll(1, desktopFlags);
            }
        }
        command.add("--data-dir");
        command.add(dataDir.toString());
        command.addAll(List.of(args));
        pb.command(command);
        return pb;
    }

    /** This JVM's waited-for children's CPU time, clock ticks ({@code cutime + cstime}). */
    static long childrenCpuTicks() throws IOException {
        String[] f = statFields(Path.of("/proc/self/stat"));
        return Long.parseLong(f[13]) + Long.parseLong(f[14]);
    }

    /** A process's own CPU time, clock ticks ({@code utime + stime}); 0 when it is gone. */
    static long cpuTicks(long pid) {
        try {
            String[] f = statFields(Path.of("/proc", Long.toString(pid), "stat"));
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * The fields of a {@code /proc/PID/stat} line after the command name (which may hold spaces): index 0 is the
     * state (field 3 of proc(5)), so field N is at index N - 3.
     */
    private static String[] statFields(Path stat) throws IOException {
        String line = Files.readString(stat);
        return line.substring(line.lastIndexOf(')') + 2).split(" ");
    }

    private static final Pattern KB = Pattern.compile("\\s*(\\d+)\\s*kB");

    /** A {@code kB} figure of {@code /proc/PID/status} ({@code VmHWM}, {@code VmRSS}); empty when it is gone. */
    static Optional<Long> status(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(field + ":")) {
                    Matcher m = KB.matcher(line.substring(field.length() + 1));
                    return m.matches() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
                }
            }
        } catch (IOException e) {
            // gone
        }
        return Optional.empty();
    }
}
