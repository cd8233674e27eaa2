package org.lockstep.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.io.file.PathUtils;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import org.lockstep.cli.ExitCodes;
import org.lockstep.server.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep-bench startup}: how long Lockstep takes to start, from outside, as an operator and a script meet it
 * (issue 30) — the desktop from launch to the main window on screen and to the first page of customers laid out, and
 * the command line's {@code get 1}, {@code set}, {@code lease acquire} and {@code list}: wall time, CPU-seconds and
 * peak memory of each process, over {@code --runs} runs, with the embedded server of {@code --data-dir} already
 * running (the benchmark holds a connection to it, so that no run's exit stops it). It runs the product's jar under
 * any {@code --java} with any {@code --jvm-flags} (AppCDS, an AOT cache, a heap size), or an app image's {@code
 * bin/Lockstep}; prints the JVM and flags with the figures.
 */
@Command(name = "startup", description = "Start-up of the desktop (to its main window and first page) and of the "
        + "command line's get, set, lease acquire and list: wall, CPU-seconds, peak memory, over N runs.")
final class StartupBenchCommand implements Callable<Integer> {

    @ParentCommand
    BenchCommand bench;

    @Spec
    CommandSpec spec;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "3",
            description = "Runs of each measurement (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--java", paramLabel = "PATH",
            description = "The java binary to run the jar with (default: the one running this benchmark).")
    Path java;

    @Option(names = "--jvm-flags", paramLabel = "FLAGS", defaultValue = "",
            description = "JVM flags for every run, one string split at spaces, e.g. "
                    + "'-XX:SharedArchiveFile=/tmp/lockstep.jsa -Xshare:auto'.")
    String jvmFlags;

    @Option(names = "--jar", paramLabel = "PATH",
            description = "The product's jar (default: lockstep.jar beside this benchmark's jar).")
    Path jar;

    @Option(names = "--image", paramLabel = "DIR",
            description = "Run an app image's DIR/bin/Lockstep instead of a jar (flags through JAVA_TOOL_OPTIONS).")
    Path image;

    @Option(names = "--desktop", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Measure the desktop's start (needs a display: DISPLAY, or xvfb-run). Default on.")
    boolean desktop;

    @Option(names = "--commands", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Measure the command line's get, set, lease acquire and list. Default on.")
    boolean commands;

    @Option(names = "--idle-seconds", paramLabel = "S", defaultValue = "0",
            description = "After the desktop's first page, wait S seconds and read its resident memory (default "
                    + "${DEFAULT-VALUE}: not measured).")
    double idleSeconds;

    @Option(names = "--timeout-seconds", paramLabel = "S", defaultValue = "120",
            description = "The longest a desktop start may take to its first page (default ${DEFAULT-VALUE}).")
    double timeoutSeconds;

    @Option(names = "--fresh", description = "The desktop's first start ever: each run starts it on a new, empty "
            + "data directory under --data-dir (which must not be a data directory itself) with a new, empty cache "
            + "of the embedded server's binaries (XDG_CACHE_HOME), so that it extracts the server, makes the database"
            + " (initdb), migrates it and loads the samples before its first page; then stops that server and deletes"
            + " both. Desktop only (give --no-commands).")
    boolean fresh;

    @Option(names = "--json", description = "Print the results as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || idleSeconds < 0 || timeoutSeconds <= 0) {
            throw new ParameterException(spec.commandLine(),
                    "--runs must be at least 1, --idle-seconds not negative, --timeout-seconds positive");
        }
        if (fresh && (commands || !desktop)) {
            throw new ParameterException(spec.commandLine(), "--fresh measures the desktop's first start: give "
                    + "--no-commands");
        }
        if (bench.config().dbUrl().isPresent()) {
            throw new ParameterException(spec.commandLine(), "startup measures the embedded server's clients: give"
                    + " --data-dir (a scratch one), not --db-url");
        }
        List<String> flags = jvmFlags.isBlank() ? List.of() : Arrays.asList(jvmFlags.strip().split("\\s+"));
        StartupBenchmark.Launch launch = image != null ? StartupBenchmark.Launch.image(image, flags)
                : StartupBenchmark.Launch.jar(java != null ? java : defaultJava(), flags,
                        jar != null ? jar : defaultJar());
        PrintWriter err = spec.commandLine().getErr();
        Path dataDir = bench.config().dataDir();
        StartupBenchmark b = new StartupBenchmark(launch, dataDir, err);
        String runtime = runtime(launch, b);
        err.println("Runtime: " + runtime);
        err.println("Command: " + launch.describe());
        err.printf(Locale.ROOT, "Load average before: %s%n", loadAverage());
        List<StartupBenchmark.CommandRun> commandRuns = new ArrayList<>();
        List<StartupBenchmark.DesktopRun> desktopRuns = new ArrayList<>();
        if (fresh) {
            desktopRuns.addAll(freshRuns(launch, dataDir, err));
        } else {
            heldRuns(b, commandRuns, desktopRuns, err);
        }
        String loadAfter = loadAverage();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(asJson(runtime, launch, loadAfter, commandRuns, desktopRuns)));
        } else {
            print(out, runtime, launch, loadAfter, commandRuns, desktopRuns);
        }
        out.flush();
        return ExitCodes.OK;
    }

    /**
     * {@code --fresh}: each run the desktop on a new data directory and a new binaries' cache under {@code base},
     * removed after it (its server stopped first: the desktop stops the server it started when it ends, and {@code
     * db stop} makes sure).
     */
    private List<StartupBenchmark.DesktopRun> freshRuns(StartupBenchmark.Launch launch, Path base, PrintWriter err)
            throws Exception {
        if (Files.exists(base.resolve("pgdata")) || Files.exists(base.resolve("PG_VERSION"))) {
            throw new ParameterException(spec.commandLine(), "--fresh makes its data directories under --data-dir "
                    + base + ", which is a data directory itself: give an empty scratch directory");
        }
        Files.createDirectories(base);
        List<StartupBenchmark.DesktopRun> done = new ArrayList<>();
        for (int run = 1; run <= runs; run++) {
            err.printf(Locale.ROOT, "Run %d of %d (a new data directory)%n", run, runs);
            Path dir = Files.createTempDirectory(base, "fresh-" + run + "-");
            Path data = dir.resolve("data");
            StartupBenchmark b = new StartupBenchmark(launch, data, err,
                    Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString()));
            try {
                StartupBenchmark.DesktopRun d = b.desktop(List.of("-Dlockstep.startupReport=true"), timeoutSeconds,
                        idleSeconds);
                err.printf(Locale.ROOT, "  desktop: %s, %.0f CPU-ms (its JVM's own), %d MB peak%s%n", d.moments(),
                        d.cpuMsAtFirstPage(), d.peakRssKbAtFirstPage() / 1024,
                        d.idleRssKb().map(kb -> ", " + kb / 1024 + " MB idle").orElse(""));
                done.add(d);
            } finally {
                b.command("db", "stop");
                PathUtils.deleteDirectory(dir);
            }
        }
        return done;
    }

    /** The runs on {@code --data-dir}'s running server, which this benchmark's own connection keeps running. */
    private void heldRuns(StartupBenchmark b, List<StartupBenchmark.CommandRun> commandRuns,
            List<StartupBenchmark.DesktopRun> desktopRuns, PrintWriter err) throws Exception {
        // The embedded server runs before the first run and all along (a run's exit stops it when it is the last
        // client): this benchmark's own client holds a connection to it.
        try (Database db = bench.open(); Connection held = db.dataSource().getConnection()) {
            b.command("get", "1"); // untimed: the first start after a build warms the page cache
            for (int run = 1; run <= runs; run++) {
                err.printf(Locale.ROOT, "Run %d of %d%n", run, runs);
                if (commands) {
                    commandRuns.addAll(commandsOnce(b, held, run, err));
                }
                if (desktop) {
                    StartupBenchmark.DesktopRun d = b.desktop(List.of("-Dlockstep.startupReport=true"),
                            timeoutSeconds, idleSeconds);
                    err.printf(Locale.ROOT, "  desktop: %s, %.0f CPU-ms, %d MB peak%s%n", d.moments(),
                            d.cpuMsAtFirstPage(), d.peakRssKbAtFirstPage() / 1024,
                            d.idleRssKb().map(kb -> ", " + kb / 1024 + " MB idle").orElse(""));
                    desktopRuns.add(d);
                }
            }
        }
    }

    /** One run of each command: get 1, a versioned set, lease acquire (its lease given back, untimed), list. */
    private static List<StartupBenchmark.CommandRun> commandsOnce(StartupBenchmark b, Connection held, int run,
            PrintWriter err) throws Exception {
        List<StartupBenchmark.CommandRun> done = new ArrayList<>();
        done.add(b.command("get", "1"));
        long version;
        try (Statement s = held.createStatement();
                ResultSet rs = s.executeQuery("SELECT version FROM customer WHERE id = 1")) {
            rs.next();
            version = rs.getLong(1);
        }
        // A new value every time: a set of the values already stored saves nothing and is no measure of a save.
        done.add(b.command("set", "1", "notes=startup run " + run + " at " + System.nanoTime(), "--if-version",
                Long.toString(version)));
        StartupBenchmark.Output lease = b.commandWithOutput("lease", "acquire", "1", "--json");
        done.add(lease.run());
        String token = new ObjectMapper().readTree(lease.stdout()).path("token").asText();
        b.command("lease", "release", "1", "--token", token);
        done.add(b.command("list"));
        for (StartupBenchmark.CommandRun c : done) {
            err.printf(Locale.ROOT, "  %-40s %7.0f ms %6.0f CPU-ms %5d MB exit %d%n", abbreviate(c.command()),
                    c.wallMs(), c.cpuMs(), c.peakRssKb() / 1024, c.exit());
            if (c.exit() != 0) {
                throw new IllegalStateException("lockstep " + c.command() + " failed (exit " + c.exit() + ")");
            }
        }
        return done;
    }

    private static String abbreviate(String command) {
        return command.startsWith("set ") ? "set 1 notes=… --if-version N" : command;
    }

    private void print(PrintWriter out, String runtime, StartupBenchmark.Launch launch, String loadAfter,
            List<StartupBenchmark.CommandRun> commandRuns, List<StartupBenchmark.DesktopRun> desktopRuns) {
        out.printf("Start-up, %d run(s) each%s; runtime: %s%n", runs,
                fresh ? ", each on a new data directory" : "", runtime);
        out.printf("command: %s%nload average after: %s%n%n", launch.describe(), loadAfter);
        Table t = new Table("what", "median wall ms", "min–max wall ms", "median CPU ms", "min–max CPU ms",
                "median peak MB");
        for (String what : List.of("get 1", "set", "lease acquire 1 --json", "list")) {
            List<StartupBenchmark.CommandRun> of = commandRuns.stream()
                    .filter(c -> c.command().startsWith(what)).toList();
            if (!of.isEmpty()) {
                t.row(what.equals("set") ? "set 1 … --if-version N" : what,
                        ms(median(of, StartupBenchmark.CommandRun::wallMs)),
                        range(of, StartupBenchmark.CommandRun::wallMs),
                        ms(median(of, StartupBenchmark.CommandRun::cpuMs)),
                        range(of, StartupBenchmark.CommandRun::cpuMs),
                        ms(median(of, c -> c.peakRssKb() / 1024.0)));
            }
        }
        for (String moment : List.of("starting-shown", "main-shown", "first-page")) {
            List<StartupBenchmark.DesktopRun> of = desktopRuns.stream()
                    .filter(d -> d.moments().containsKey(moment)).toList();
            if (!of.isEmpty()) {
                boolean page = moment.equals("first-page");
                t.row("desktop → " + moment, ms(median(of, d -> d.moments().get(moment))),
                        range(of, d -> d.moments().get(moment)),
                        page ? ms(median(of, StartupBenchmark.DesktopRun::cpuMsAtFirstPage)) : "",
                        page ? range(of, StartupBenchmark.DesktopRun::cpuMsAtFirstPage) : "",
                        page ? ms(median(of, d -> d.peakRssKbAtFirstPage() / 1024.0)) : "");
            }
        }
        List<StartupBenchmark.DesktopRun> idle = desktopRuns.stream().filter(d -> d.idleRssKb().isPresent())
                .toList();
        if (!idle.isEmpty()) {
            t.row("desktop idle " + idleSeconds + " s: RSS MB", ms(median(idle,
                    d -> d.idleRssKb().get() / 1024.0)), range(idle, d -> d.idleRssKb().get() / 1024.0), "", "", "");
        }
        t.print(out);
    }

    private ObjectNode asJson(String runtime, StartupBenchmark.Launch launch, String loadAfter,
            List<StartupBenchmark.CommandRun> commandRuns, List<StartupBenchmark.DesktopRun> desktopRuns) {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        root.put("runtime", runtime);
        root.put("command", launch.describe());
        root.put("runs", runs);
        root.put("fresh", fresh);
        root.put("loadAverageAfter", loadAfter);
        ArrayNode commands = root.putArray("commands");
        for (StartupBenchmark.CommandRun c : commandRuns) {
            commands.addObject().put("command", abbreviate(c.command())).put("wallMs", round(c.wallMs()))
                    .put("cpuMs", round(c.cpuMs())).put("peakRssKb", c.peakRssKb()).put("exit", c.exit());
        }
        ArrayNode desktops = root.putArray("desktop");
        for (StartupBenchmark.DesktopRun d : desktopRuns) {
            ObjectNode o = desktops.addObject();
            d.moments().forEach((k, v) -> o.put(k + "Ms", round(v)));
            o.put("cpuMsAtFirstPage", round(d.cpuMsAtFirstPage()));
            o.put("peakRssKbAtFirstPage", d.peakRssKbAtFirstPage());
            d.idleRssKb().ifPresent(kb -> o.put("idleRssKb", kb));
        }
        return root;
    }

    /** The runtime's {@code java -version} first lines, one line, through the same launch (and so the same flags). */
    private static String runtime(StartupBenchmark.Launch launch, StartupBenchmark b) throws Exception {
        if (launch.prefix().size() == 1) {
            Path release = Path.of(launch.prefix().get(0)).getParent().getParent().resolve("lib").resolve("runtime")
                    .resolve("release");
            return Files.exists(release) ? Files.readAllLines(release).stream()
                    .filter(l -> l.startsWith("JAVA_VERSION=") || l.startsWith("IMPLEMENTOR="))
                    .reduce((x, y) -> x + " " + y).orElse("app image") : "app image";
        }
        List<String> command = new ArrayList<>(launch.prefix().subList(0, launch.prefix().size() - 2));
        command.add("-version");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return String.join(" | ", text.strip().lines().filter(l -> !l.isBlank()).toList());
    }

    private static Path defaultJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    private static Path defaultJar() throws Exception {
        Path here = Path.of(StartupBenchCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return here.resolveSibling("lockstep.jar");
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static <T> double median(List<T> of, ToDoubleFunction<T> f) {
        double[] v = of.stream().mapToDouble(f).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static <T> String range(List<T> of, ToDoubleFunction<T> f) {
        double[] v = of.stream().mapToDouble(f).sorted().toArray();
        return ms(v[0]) + "–" + ms(v[v.length - 1]);
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
