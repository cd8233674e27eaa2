package org.lockstep.bench;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lockstep.server.Database;
import org.lockstep.bench.generate.SyntheticLoad;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.CustomerSort;
import org.lockstep.store.CustomerBulkLoader;
import org.lockstep.store.JdbiCustomerRepository;

/**
 * What an operator waits for in the customer list on a large table: the first page, each keystroke in the filter
 * box (a page of matches and the count for the status bar, as the list asks for them), keyset scrolling, and the
 * client's heap. The table is topped up with synthetic customers first when it holds fewer rows than asked.
 */
final class ListBenchmark {

    /** The count budget the list gives the status bar's count, in milliseconds. */
    static final long COUNT_BUDGET_MS = 300;

    /** Pages scrolled through with keyset paging. */
    static final int SCROLL_PAGES = 50;

    /** The search of the filtered scrolls in the Updated order: a free-mail domain, about 3 % of the customers. */
    static final String SCROLL_FILTER = "gmail";

    /**
     * Searches typed one character at a time: a common German surname (with an umlaut), a city, a company-name
     * fragment, mail domains (free-mail and a country's), and a term that matches nothing.
     */
    static final List<String> TERMS = List.of("müller", "clermont", "schmidt", "web.de", "orange.fr", ".co.jp",
            "zqxjv");

    /** One timed measurement: what was measured and its latencies. */
    record Measurement(String what, Latencies latencies) {
    }

    /**
     * One keystroke of the filter: the search text and order, the slowest of its passes.
     *
     * @param shown the rows on the first page; -1 when the page ran into the statement timeout
     */
    record Keystroke(String search, CustomerSort sort, boolean descending, int shown, CustomerCount count,
            double pageMs, double countMs) {
        /** The order as the table prints it: the column, and "desc" when descending. */
        String order() {
            return sort.column() + (descending ? " desc" : "");
        }
    }

    /**
     * The orders the searches are typed in: by id (the table's order), by company (a text order) and by Updated,
     * newest first (issue 29: its index left the customer table for customer_updated).
     */
    static final List<Keystroke> ORDERS = List.of(order(CustomerSort.ID, false), order(CustomerSort.COMPANY, false),
            order(CustomerSort.UPDATED_AT, true));

    private static Keystroke order(CustomerSort sort, boolean descending) {
        return new Keystroke("", sort, descending, 0, null, 0, 0);
    }

    /**
     * The table's size after {@link #topUp}.
     *
     * @param rows      customers in the table
     * @param generated customers added to reach it
     * @param seconds   the time adding them took, 0 when none was needed
     */
    record Size(long rows, long generated, double seconds) {
    }

    /**
     * Everything measured.
     *
     * @param rows          customers in the table when measuring
     * @param generated     customers added first to reach the requested size
     * @param generationS   seconds the generation took, 0 when none was needed
     * @param heapBaseMb    heap used after a full GC before measuring, in MB
     * @param heapMb        heap used after a full GC at the end, in MB
     */
    record Result(long rows, long generated, double generationS, List<Measurement> measurements,
            List<Keystroke> keystrokes, double heapBaseMb, double heapMb) {
    }

    private final Database db;
    private final CustomerRepository repository;
    private final String user;
    private final PrintWriter progress;

    ListBenchmark(Database db, String user, PrintWriter progress) {
        this.db = db;
        this.repository = new JdbiCustomerRepository(db.jdbi(), user);
        this.user = user;
        this.progress = progress;
    }

    /**
     * @param rows   the table size to measure at; missing rows are generated
     * @param passes how often the filter keystrokes are replayed (the first pass meets a colder cache)
     */
    Result run(long rows, int passes) {
        return run(rows, passes, TERMS);
    }

    /**
     * As {@link #run(long, int)}, typing {@code terms} (each one character at a time) instead of {@link #TERMS}.
     */
    Result run(long rows, int passes, List<String> terms) {
        double heapBase = heapAfterGcMb();
        // Measured before anything else touches the table: what an operator opening Lockstep waits for.
        Map<String, Latencies> firstCalls = firstCalls();
        Size size = topUp(rows);
        if (size.generated() > 0) {
            firstCalls = firstCalls();
        }
        return measure(size, passes, terms, heapBase, firstCalls);
    }

    /**
     * Measures on the table as it is, the first calls included: what {@code --cold} runs right after the server
     * started again.
     */
    Result measureAsIs(Size size, int passes, List<String> terms) {
        double heapBase = heapAfterGcMb();
        return measure(size, passes, terms, heapBase, firstCalls());
    }

    /** Adds synthetic customers until the table holds {@code rows}. */
    Size topUp(long rows) {
        long have = repository.count("", 120_000).count();
        long generated = 0;
        double generationS = 0;
        if (have < rows) {
            progress.printf("The table holds %,d customers; adding %,d…%n", have, rows - have);
            progress.flush();
            CustomerBulkLoader loader = new CustomerBulkLoader(db.jdbi(), user);
            SyntheticLoad.Result r = new SyntheticLoad(loader, progress, 1).run(1, rows - have);
            progress.println("Updating the planner's statistics…");
            progress.flush();
            if (!loader.vacuumAnalyze()) {
                progress.println("The vacuum took too long and was stopped: counts may be slower until autovacuum"
                        + " finishes it");
            }
            generated = r.added();
            generationS = r.elapsed().toMillis() / 1000.0;
            have += generated;
        }
        return new Size(have, generated, generationS);
    }

    private Result measure(Size size, int passes, List<String> terms, double heapBase,
            Map<String, Latencies> firstCalls) {

        progress.println("Measuring the first page…");
        progress.flush();
        Latencies byId = new Latencies();
        Latencies byCompany = new Latencies();
        Latencies newest = new Latencies();
        Latencies oldest = new Latencies();
        for (int i = 0; i < 10; i++) {
            byId.add(time(() -> repository.page(CustomerPageRequest.first(""))));
            byCompany.add(time(() -> repository.page(firstPage(CustomerSort.COMPANY))));
            newest.add(time(() -> repository.page(firstPage(CustomerSort.UPDATED_AT, true, ""))));
            oldest.add(time(() -> repository.page(firstPage(CustomerSort.UPDATED_AT, false, ""))));
        }

        progress.println("Typing searches…");
        progress.flush();
        Latencies page = new Latencies();
        Latencies count = new Latencies();
        Latencies both = new Latencies();
        // The first pass apart from the others: it meets the cache as the server left it (cold after a start).
        Latencies[] pageByPass = {new Latencies(), new Latencies()};
        Latencies[] bothByPass = {new Latencies(), new Latencies()};
        // By length: one character, two characters, three or more (a short search finds the start of words).
        Latencies[] pageByLength = {new Latencies(), new Latencies(), new Latencies()};
        Latencies[] bothByLength = {new Latencies(), new Latencies(), new Latencies()};
        Map<String, Keystroke> keystrokes = new LinkedHashMap<>();
        for (int pass = 0; pass < passes; pass++) {
            for (Keystroke order : ORDERS) {
                for (String term : terms) {
                    for (int chars = 1; chars <= term.codePointCount(0, term.length()); chars++) {
                        int len = term.offsetByCodePoints(0, chars);
                        Keystroke k = keystroke(term.substring(0, len), order.sort(), order.descending());
                        page.recordNanos((long) (k.pageMs() * 1e6));
                        count.recordNanos((long) (k.countMs() * 1e6));
                        both.recordNanos((long) ((k.pageMs() + k.countMs()) * 1e6));
                        pageByPass[Math.min(pass, 1)].recordNanos((long) (k.pageMs() * 1e6));
                        bothByPass[Math.min(pass, 1)].recordNanos((long) ((k.pageMs() + k.countMs()) * 1e6));
                        int group = Math.min(chars, 3) - 1;
                        pageByLength[group].recordNanos((long) (k.pageMs() * 1e6));
                        bothByLength[group].recordNanos((long) ((k.pageMs() + k.countMs()) * 1e6));
                        keystrokes.merge(k.order() + " " + k.search(), k,
                                (a, b) -> a.pageMs() + a.countMs() >= b.pageMs() + b.countMs() ? a : b);
                    }
                }
            }
        }

        progress.println("Scrolling…");
        progress.flush();
        Latencies scrollId = scroll(firstPage(CustomerSort.ID));
        Latencies scrollCompany = scroll(firstPage(CustomerSort.COMPANY));
        Latencies scrollNewest = scroll(firstPage(CustomerSort.UPDATED_AT, true, ""));
        Latencies scrollOldest = scroll(firstPage(CustomerSort.UPDATED_AT, false, ""));
        Latencies scrollNewestFiltered = scroll(firstPage(CustomerSort.UPDATED_AT, true, SCROLL_FILTER));
        Latencies scrollOldestFiltered = scroll(firstPage(CustomerSort.UPDATED_AT, false, SCROLL_FILTER));

        List<Measurement> m = new ArrayList<>();
        firstCalls.forEach((what, l) -> m.add(new Measurement(what, l)));
        m.add(new Measurement("first page by id", byId));
        m.add(new Measurement("first page by company", byCompany));
        m.add(new Measurement("first page by updated, newest first", newest));
        m.add(new Measurement("first page by updated, oldest first", oldest));
        m.add(new Measurement("filter keystroke: page", page));
        m.add(new Measurement("filter keystroke: count", count));
        m.add(new Measurement("filter keystroke: page + count", both));
        m.add(new Measurement("filter keystroke, first pass: page", pageByPass[0]));
        m.add(new Measurement("filter keystroke, first pass: page + count", bothByPass[0]));
        if (passes > 1) {
            m.add(new Measurement("filter keystroke, later passes: page", pageByPass[1]));
            m.add(new Measurement("filter keystroke, later passes: page + count", bothByPass[1]));
        }
        // Each length apart: one or two letters find the start of words, three or more any substring.
        String[] lengths = {"1 character", "2 characters", "3+ characters"};
        for (int i = 0; i < lengths.length; i++) {
            m.add(new Measurement("filter keystroke, " + lengths[i] + ": page", pageByLength[i]));
            m.add(new Measurement("filter keystroke, " + lengths[i] + ": page + count", bothByLength[i]));
        }
        m.add(new Measurement("scroll to page " + SCROLL_PAGES + " by id, per page", scrollId));
        m.add(new Measurement("scroll to page " + SCROLL_PAGES + " by company, per page", scrollCompany));
        m.add(new Measurement("scroll to page " + SCROLL_PAGES + " by updated, newest first, per page", scrollNewest));
        m.add(new Measurement("scroll to page " + SCROLL_PAGES + " by updated, oldest first, per page", scrollOldest));
        m.add(new Measurement("scroll to page " + SCROLL_PAGES + " by updated, newest first, '" + SCROLL_FILTER
                + "', per page", scrollNewestFiltered));
        m.add(new Measurement("scroll to page " + SCROLL_PAGES + " by updated, oldest first, '" + SCROLL_FILTER
                + "', per page", scrollOldestFiltered));
        return new Result(size.rows(), size.generated(), size.seconds(), m, List.copyOf(keystrokes.values()),
                heapBase, heapAfterGcMb());
    }

    /** The first page in each order, each the first query of its kind in this process. */
    private Map<String, Latencies> firstCalls() {
        Map<String, Latencies> first = new LinkedHashMap<>();
        first.put("first page by id, first call", time(() -> repository.page(CustomerPageRequest.first(""))));
        first.put("first page by company, first call", time(() -> repository.page(firstPage(CustomerSort.COMPANY))));
        return first;
    }

    private Keystroke keystroke(String search, CustomerSort sort, boolean descending) {
        CustomerPageRequest request = new CustomerPageRequest(search, sort, descending, null,
                CustomerPageRequest.DEFAULT_LIMIT);
        long t0 = System.nanoTime();
        int shown;
        try {
            shown = repository.page(request).size();
        } catch (org.lockstep.domain.StoreUnavailableException e) {
            // The page ran into the statement timeout (a loaded server): counted with the time it took, shown as -1.
            shown = -1;
        }
        long t1 = System.nanoTime();
        CustomerCount n = repository.count(search, COUNT_BUDGET_MS);
        long t2 = System.nanoTime();
        return new Keystroke(search, sort, descending, shown, n, (t1 - t0) / 1e6, (t2 - t1) / 1e6);
    }

    private Latencies scroll(CustomerPageRequest first) {
        Latencies perPage = new Latencies();
        CustomerPageRequest request = first;
        for (int i = 0; i < SCROLL_PAGES; i++) {
            long t0 = System.nanoTime();
            List<Customer> rows = repository.page(request);
            perPage.recordNanos(System.nanoTime() - t0);
            if (rows.isEmpty()) {
                break;
            }
            request = request.next(rows.get(rows.size() - 1));
        }
        return perPage;
    }

    private static CustomerPageRequest firstPage(CustomerSort sort) {
        return firstPage(sort, false, "");
    }

    private static CustomerPageRequest firstPage(CustomerSort sort, boolean descending, String search) {
        return new CustomerPageRequest(search, sort, descending, null, CustomerPageRequest.DEFAULT_LIMIT);
    }

    private static Latencies time(Runnable body) {
        Latencies l = new Latencies();
        long t0 = System.nanoTime();
        body.run();
        l.recordNanos(System.nanoTime() - t0);
        return l;
    }

    /** Heap in use after a full collection, in MB (MemoryMXBean): what the client really holds on to. */
    static double heapAfterGcMb() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        memory.gc();
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
    }
}
