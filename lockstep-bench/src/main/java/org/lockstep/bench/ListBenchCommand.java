package org.lockstep.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.lockstep.server.Database;
import org.lockstep.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code lockstep-bench list}: the customer list on a large table (generated up to {@code --rows} first). */
@Command(name = "list", description = "Time to first page, filter latency while typing, keyset scrolling and "
        + "client heap, on a table of at least --rows customers (missing ones are generated).")
final class ListBenchCommand implements Callable<Integer> {

    /** The aims of issue 13: a keystroke's page, and its page and count, at the 95th percentile, in ms. */
    static final double AIM_PAGE_P95_MS = 100;
    static final double AIM_PAGE_AND_COUNT_P95_MS = 150;
    /** The aim of issue 6: the client's heap after a full collection, in MB. */
    static final double AIM_HEAP_MB = 256;

    @ParentCommand
    BenchCommand bench;

    @Spec
    CommandSpec spec;

    @Option(names = "--rows", paramLabel = "N", defaultValue = "1000000",
            description = "Measure on at least this many customers (default ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--passes", paramLabel = "N", defaultValue = "3",
            description = "How often the typed searches are replayed (default ${DEFAULT-VALUE}).")
    int passes;

    @Option(names = "--keystrokes", description = "Also list every keystroke's timings (slowest pass).")
    boolean keystrokes;

    @Option(names = "--json", description = "Print the results as JSON.")
    boolean json;

    @Option(names = "--searches", paramLabel = "FILE",
            description = "Type these searches instead of the built-in ones: one per line (UTF-8), each typed one "
                    + "character at a time; blank lines are skipped.")
    java.nio.file.Path searches;

    @Option(names = "--cold", description = "Restart the embedded server (after topping the table up) before "
            + "measuring, so that the first pass meets the cache an operator meets right after a start; the client "
            + "warms the cache in the background as the desktop does (CacheWarmUp).")
    boolean cold;

    @Override
    public Integer call() throws Exception {
        if (rows < 1 || passes < 1) {
            throw new ParameterException(spec.commandLine(), "--rows and --passes must be at least 1");
        }
        List<String> terms = searches == null ? ListBenchmark.TERMS : readSearches(searches);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Database db = bench.open();
        ListBenchmark.Result r;
        if (!cold) {
            try {
                r = new ListBenchmark(db, bench.user(), err).run(rows, passes, terms);
            } finally {
                db.closeAndStopIfLast();
            }
        } else {
            ListBenchmark.Size size;
            try {
                if (db.embeddedServer().isEmpty()) {
                    throw new ParameterException(spec.commandLine(), "--cold restarts the embedded server: give "
                            + "--data-dir, not --db-url");
                }
                size = new ListBenchmark(db, bench.user(), err).topUp(rows);
            } finally {
                db.closeAndStopIfLast();
            }
            err.println("Restarted the server; measuring at once…");
            err.flush();
            db = bench.open();
            try (org.lockstep.server.CacheWarmUp warmUp = org.lockstep.server.CacheWarmUp.start(db)) {
                r = new ListBenchmark(db, bench.user(), err).measureAsIs(size, passes, terms);
            } finally {
                db.closeAndStopIfLast();
            }
        }
        if (json) {
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(asJson(r)));
        } else {
            print(out, r);
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** The searches of {@code --searches}: each line stripped and in NFC (as the filter box sends it), blanks skipped. */
    private List<String> readSearches(java.nio.file.Path file) {
        List<String> lines;
        try {
            lines = java.nio.file.Files.readAllLines(file, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            throw new ParameterException(spec.commandLine(), "--searches: cannot read " + file + " as UTF-8 text ("
                    + e.getMessage() + ")");
        }
        List<String> terms = lines.stream().map(org.lockstep.domain.CustomerPageRequest::searchTerm)
                .filter(t -> !t.isEmpty()).toList();
        if (terms.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--searches: " + file + " holds no search");
        }
        terms = List.copyOf(terms);
        searchCount = terms.size();
        return terms;
    }

    private int searchCount = ListBenchmark.TERMS.size();

    private void print(PrintWriter out, ListBenchmark.Result r) {
        out.printf("Customer list on %,d customers%s; pages of %d rows; count budget %d ms; %d passes of %d "
                + "typed searches in 2 orders%n%n", r.rows(),
                r.generated() == 0 ? "" : String.format(" (%,d generated first, in %.1f s)", r.generated(),
                        r.generationS()),
                org.lockstep.domain.CustomerPageRequest.DEFAULT_LIMIT, ListBenchmark.COUNT_BUDGET_MS, passes,
                searchCount);
        Table t = new Table("measure", "n", "p50 ms", "p95 ms", "max ms");
        for (ListBenchmark.Measurement m : r.measurements()) {
            Latencies l = m.latencies();
            t.row(m.what(), l.count(), ms(l.percentileMs(50)), ms(l.percentileMs(95)), ms(l.maxMs()));
        }
        t.print(out);
        out.printf("%nClient heap after GC: %.0f MB (%.0f MB before measuring)%n", r.heapMb(), r.heapBaseMb());
        if (keystrokes) {
            out.println();
            Table k = new Table("search", "order", "shown", "count", "page ms", "count ms");
            for (ListBenchmark.Keystroke ks : r.keystrokes()) {
                k.row("\"" + ks.search() + "\"", ks.order(), ks.shown(), ks.count().describe(),
                        ms(ks.pageMs()), ms(ks.countMs()));
            }
            k.print(out);
        }
        out.println();
        out.printf("Aims (p95): page < %.0f ms, page + count < %.0f ms, at every search length; heap < %.0f MB%n",
                AIM_PAGE_P95_MS, AIM_PAGE_AND_COUNT_P95_MS, AIM_HEAP_MB);
        for (String group : java.util.List.of("", ", 1 character", ", 2 characters", ", 3+ characters")) {
            double page = find(r, "filter keystroke" + group + ": page").percentileMs(95);
            double both = find(r, "filter keystroke" + group + ": page + count").percentileMs(95);
            out.printf("  %-30s page %s (%.1f ms), page + count %s (%.1f ms)%n",
                    group.isEmpty() ? "all keystrokes:" : group.substring(2) + ":",
                    BenchCommand.verdict(page < AIM_PAGE_P95_MS), page,
                    BenchCommand.verdict(both < AIM_PAGE_AND_COUNT_P95_MS), both);
        }
        out.printf("  heap: %s (%.0f MB)%n", BenchCommand.verdict(r.heapMb() < AIM_HEAP_MB), r.heapMb());
    }

    private static Latencies find(ListBenchmark.Result r, String what) {
        return r.measurements().stream().filter(m -> m.what().equals(what)).findFirst().orElseThrow().latencies();
    }

    private static String ms(double v) {
        return String.format("%.1f", v);
    }

    private Map<String, Object> asJson(ListBenchmark.Result r) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("benchmark", "list");
        all.put("rows", r.rows());
        all.put("generated", r.generated());
        all.put("generation_seconds", r.generationS());
        List<Object> ms = new ArrayList<>();
        for (ListBenchmark.Measurement m : r.measurements()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("measure", m.what());
            row.put("n", m.latencies().count());
            row.put("p50_ms", m.latencies().percentileMs(50));
            row.put("p95_ms", m.latencies().percentileMs(95));
            row.put("max_ms", m.latencies().maxMs());
            ms.add(row);
        }
        all.put("measurements", ms);
        List<Object> ks = new ArrayList<>();
        for (ListBenchmark.Keystroke k : r.keystrokes()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("search", k.search());
            row.put("order", k.order());
            row.put("shown", k.shown());
            row.put("count", k.count().count());
            row.put("count_exact", k.count().exact());
            row.put("count_estimated", k.count().estimated());
            row.put("page_ms", k.pageMs());
            row.put("count_ms", k.countMs());
            ks.add(row);
        }
        all.put("keystrokes", ks);
        all.put("heap_base_mb", r.heapBaseMb());
        all.put("heap_mb", r.heapMb());
        return all;
    }
}
