package org.lockstep.bench.generate;

import org.lockstep.synthetic.SyntheticCustomers;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.lockstep.domain.CustomerData;
import org.lockstep.store.CustomerBulkLoader;

/**
 * Adds synthetic customers to the database: producer threads make batches of {@link SyntheticCustomers} while the
 * calling thread writes finished batches, in order, with {@link CustomerBulkLoader#copy}. Making rows and writing
 * them overlap, so the load runs about as fast as the slower of the two. Progress goes to a writer, once per tenth.
 *
 * <p>Numbering continues after the highest {@code GEN-<seed>-n} already stored, so running it again with the same
 * seed adds new rows instead of colliding with the old ones, and row n is always the same customer.
 */
public final class SyntheticLoad {

    /** Rows per COPY: large enough that the round trip does not matter, small enough to hold a few in memory. */
    public static final int BATCH_ROWS = 5_000;

    private final CustomerBulkLoader loader;
    private final PrintWriter progress;
    private final int producers;

    /**
     * @param loader    where rows go
     * @param progress  where progress lines go (stderr in the CLI)
     * @param producers threads making rows, at least 1
     */
    public SyntheticLoad(CustomerBulkLoader loader, PrintWriter progress, int producers) {
        this.loader = loader;
        this.progress = progress;
        this.producers = Math.max(1, producers);
    }

    /**
     * What a load did.
     *
     * @param added    rows written
     * @param firstRow the row number (n in {@code GEN-seed-n}) of the first row written
     * @param elapsed  wall-clock time of the load
     */
    public record Result(long added, long firstRow, Duration elapsed) {

        /** Rows per second, 0 when nothing was added. */
        public double rowsPerSecond() {
            return added == 0 ? 0 : added / Math.max(1e-9, elapsed.toNanos() / 1e9);
        }
    }

    /**
     * Adds {@code rows} customers of a seed.
     *
     * @throws SyntheticLoadException when writing fails; it says how many rows were written before (they stay)
     */
    public Result run(long seed, long rows) {
        long first = nextRow(seed);
        long started = System.nanoTime();
        long written = 0;
        long step = Math.max(1, rows / 10);
        long nextReport = step;
        ThreadLocal<SyntheticCustomers> generators = ThreadLocal.withInitial(() -> new SyntheticCustomers(seed));
        ExecutorService pool = Executors.newFixedThreadPool(producers, r -> {
            Thread t = new Thread(r, "lockstep-generate");
            t.setDaemon(true);
            return t;
        });
        Deque<Future<List<CustomerData>>> pending = new ArrayDeque<>();
        long queued = 0;
        try {
            while (written < rows) {
                // Keep a few batches ahead of the writer: enough to keep the producers busy, few enough to stay small.
                while (queued < rows && pending.size() < producers + 2) {
                    long from = first + queued;
                    int size = (int) Math.min(BATCH_ROWS, rows - queued);
                    pending.add(pool.submit(() -> batch(generators.get(), from, size)));
                    queued += size;
                }
                written += loader.copy(take(pending.removeFirst()));
                if (written >= nextReport || written == rows) {
                    progress.printf("%,d / %,d rows…%n", written, rows);
                    progress.flush();
                    nextReport = (written / step + 1) * step;
                }
            }
        } catch (RuntimeException e) {
            throw new SyntheticLoadException(written, e);
        } finally {
            pool.shutdownNow();
        }
        return new Result(written, first, Duration.ofNanos(System.nanoTime() - started));
    }

    /** The row number after the highest one of this seed already stored; 1 when there is none. */
    long nextRow(long seed) {
        String prefix = SyntheticCustomers.externalRefPrefix(seed);
        return loader.lastExternalRef(prefix).map(ref -> {
            try {
                return Long.parseLong(ref.substring(prefix.length())) + 1;
            } catch (NumberFormatException e) {
                throw new IllegalStateException("Cannot continue the numbering after external ref " + ref
                        + "; choose another --seed");
            }
        }).orElse(1L);
    }

    private static List<CustomerData> batch(SyntheticCustomers generator, long from, int size) {
        List<CustomerData> rows = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            rows.add(generator.customer(from + i));
        }
        return rows;
    }

    private static List<CustomerData> take(Future<List<CustomerData>> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while generating customers", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    /** A load that stopped part-way; the rows written before stay in the database. */
    public static final class SyntheticLoadException extends RuntimeException {
        private final long written;

        SyntheticLoadException(long written, RuntimeException cause) {
            super(cause.getMessage() + String.format(" (%,d rows were added before this)", written), cause);
            this.written = written;
        }

        /** Rows written before the failure. */
        public long written() {
            return written;
        }
    }
}
