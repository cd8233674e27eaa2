package org.lockstep.server;

import org.lockstep.lab.LabProgress;
import org.lockstep.lab.LabRun;
import org.lockstep.lab.LabRunner;
import org.lockstep.lab.RetryPolicy;
import org.lockstep.lab.Strategy;
import org.lockstep.lab.StrategyResult;
import org.lockstep.lab.SweepPlan;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * The contention lab on a real database: the classic run, the safety of every safe strategy over many random runs,
 * and the lost updates of the blind write, each checked against what the database holds afterwards. The version
 * column counts the writes that changed the row, independently of the lab's own counters.
 */
@DatabaseTest
class ContentionLabTest {

    @FreshDatabase
    static Database db;
    static LabRunner lab;

    @BeforeAll
    static void open() {
        lab = LabConnections.runner(db);
    }

    /** What the database holds for a strategy's row: {stock, version}. */
    static long[] row(Strategy strategy) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT stock, version FROM lab_stock WHERE name = :name")
                .bind("name", strategy.id()).map((rs, ctx) -> new long[]{rs.getLong(1), rs.getLong(2)}).one());
    }

    static Map<Strategy, StrategyResult> byStrategy(List<StrategyResult> results) {
        return results.stream().collect(Collectors.toMap(StrategyResult::strategy, Function.identity()));
    }

    @Test
    void theClassicRunLosesSevenUpdatesWithoutALockAndSellsExactlyFiveWithEach() {
        Map<Strategy, StrategyResult> results = byStrategy(lab.run(LabRun.CLASSIC, List.of(Strategy.values()),
                LabProgress.NONE));

        StrategyResult none = results.get(Strategy.NONE);
        assertThat(none.confirmed()).isEqualTo(8);
        assertThat(none.finalStock()).isEqualTo(4);
        assertThat(none.lostUpdates()).isEqualTo(7);
        assertThat(row(Strategy.NONE)).containsExactly(4, 8);
        for (Strategy safe : List.of(Strategy.OPTIMISTIC, Strategy.PESSIMISTIC, Strategy.CONDITIONAL,
                Strategy.LEASE)) {
            StrategyResult r = results.get(safe);
            assertThat(r.confirmed()).as(safe.id()).isEqualTo(5);
            assertThat(r.finalStock()).as(safe.id()).isZero();
            assertThat(r.lostUpdates()).as(safe.id()).isZero();
            assertThat(r.soldOut()).as(safe.id()).isEqualTo(3);
            assertThat(r.retriesExhausted()).as(safe.id()).isZero();
            assertThat(row(safe)).as(safe.id()).containsExactly(0, 5);
        }
        assertThat(results.get(Strategy.OPTIMISTIC).conflicts()).isPositive();
        assertThat(results.get(Strategy.OPTIMISTIC).retries()).isEqualTo(results.get(Strategy.OPTIMISTIC).conflicts());
        assertThat(results.get(Strategy.PESSIMISTIC).lockWaits()).isPositive();
        assertThat(results.get(Strategy.LEASE).lockWaits()).isPositive();
        assertThat(results.get(Strategy.CONDITIONAL).conflicts()).isZero();
    }

    @Test
    void noSafeStrategyEverOversellsOrLosesAnUpdateOverTwentyRandomRuns() {
        Random random = new Random(20);
        List<Strategy> safe = List.of(Strategy.OPTIMISTIC, Strategy.PESSIMISTIC, Strategy.CONDITIONAL,
                Strategy.LEASE);
        for (int i = 0; i < 20; i++) {
            LabRun run = LabRun.CLASSIC.withWorkers(2 + random.nextInt(7)).withStock(random.nextInt(12))
                    .withOpsPerWorker(1 + random.nextInt(3)).withThinkMs(0, random.nextInt(6)).withSeed(i);

            for (StrategyResult r : lab.run(run, safe, LabProgress.NONE)) {
                long[] row = row(r.strategy());
                String what = r.strategy() + " in run " + i + " " + run;
                assertThat(row[0]).as(what).isEqualTo(r.finalStock()).isGreaterThanOrEqualTo(0);
                assertThat(r.confirmed()).as(what).isEqualTo(run.stock() - row[0]).isLessThanOrEqualTo(run.stock())
                        .isEqualTo(row[1]);
                assertThat(r.lostUpdates()).as(what).isZero();
                assertThat(r.ops()).as(what).isEqualTo(run.totalOps())
                        .isEqualTo(r.confirmed() + r.soldOut() + r.retriesExhausted());
            }
        }
    }

    @Test
    void theBlindWriteCountsItsLostUpdatesAsTheDatabaseShowsThem() {
        Random random = new Random(7);
        long lostInAll = 0;
        for (int i = 0; i < 20; i++) {
            LabRun run = LabRun.CLASSIC.withWorkers(2 + random.nextInt(7)).withStock(random.nextInt(12))
                    .withOpsPerWorker(1 + random.nextInt(3)).withThinkMs(0, random.nextInt(6)).withSeed(i);

            StrategyResult none = lab.run(run, List.of(Strategy.NONE), LabProgress.NONE).get(0);

            long[] row = row(Strategy.NONE);
            String what = "run " + i + " " + run;
            assertThat(none.finalStock()).as(what).isEqualTo(row[0]);
            // Every confirmed blind write raised the version once; the stock shows only some of them.
            assertThat(none.confirmed()).as(what).isEqualTo(row[1]);
            assertThat(none.lostUpdates()).as(what).isEqualTo(row[1] - (run.stock() - row[0]))
                    .isGreaterThanOrEqualTo(0);
            lostInAll += none.lostUpdates();
        }
        assertThat(lostInAll).as("some of the 20 races lose an update").isPositive();
    }

    @Test
    void outOfStockIsNeverRetried() {
        LabRun empty = LabRun.CLASSIC.withStock(0).withThinkMs(0);

        for (StrategyResult r : lab.run(empty, List.of(Strategy.values()), LabProgress.NONE)) {
            assertThat(r.soldOut()).as(r.strategy().id()).isEqualTo(8);
            assertThat(r.retries()).as(r.strategy().id()).isZero();
            assertThat(r.confirmed()).as(r.strategy().id()).isZero();
            assertThat(row(r.strategy())).as(r.strategy().id()).containsExactly(0, 0);
        }
    }

    @Test
    void aBuyerGivesUpAfterItsLastAttemptAndIsCountedAsExhausted() {
        LabRun oneAttempt = LabRun.CLASSIC.withStock(100).withRetry(new RetryPolicy(0, 0, 1));

        StrategyResult r = lab.run(oneAttempt, List.of(Strategy.OPTIMISTIC), LabProgress.NONE).get(0);

        assertThat(r.confirmed()).isBetween(1L, 7L);
        assertThat(r.retries()).isZero();
        assertThat(r.retriesExhausted()).isEqualTo(r.conflicts()).isEqualTo(8 - r.confirmed());
        assertThat(row(Strategy.OPTIMISTIC)).containsExactly(100 - r.confirmed(), r.confirmed());
    }

    @Test
    void aLockHeldPastTheLockTimeoutEndsTheOtherBuyersWaits() {
        LabRun impatient = LabRun.CLASSIC.withWorkers(3).withStock(10).withThinkMs(300).withLockTimeoutMs(30)
                .withRetry(new RetryPolicy(0, 0, 1));

        for (StrategyResult r : lab.run(impatient, List.of(Strategy.PESSIMISTIC, Strategy.LEASE),
                LabProgress.NONE)) {
            assertThat(r.confirmed()).as(r.strategy().id()).isEqualTo(1);
            assertThat(r.lockWaits()).as(r.strategy().id()).isEqualTo(2);
            assertThat(r.lockTimeouts()).as(r.strategy().id()).isEqualTo(2);
            assertThat(r.retriesExhausted()).as(r.strategy().id()).isEqualTo(2);
            assertThat(row(r.strategy())).as(r.strategy().id()).containsExactly(9, 1);
        }
    }

    @Test
    void aWriteAfterItsLeaseExpiredIsFencedOut() {
        LabRun slow = LabRun.CLASSIC.withWorkers(1).withStock(3).withThinkMs(150).withLeaseTtlMs(20)
                .withRetry(new RetryPolicy(0, 0, 2));

        StrategyResult r = lab.run(slow, List.of(Strategy.LEASE), LabProgress.NONE).get(0);

        assertThat(r.confirmed()).isZero();
        assertThat(r.conflicts()).isEqualTo(2);
        assertThat(r.retries()).isEqualTo(1);
        assertThat(r.retriesExhausted()).isEqualTo(1);
        assertThat(row(Strategy.LEASE)).containsExactly(3, 0);
    }

    @Test
    void aSweepRunsEveryStrategyAtEveryWorkerCountWithStockForEveryAttempt() {
        SweepPlan plan = new SweepPlan(List.of(1, 3), List.of(Strategy.values()),
                LabRun.CLASSIC.withOpsPerWorker(2).withThinkMs(0, 2));
        List<Long> progress = new ArrayList<>();
        AtomicLong total = new AtomicLong();

        List<StrategyResult> results = lab.sweep(plan, (done, all) -> {
            synchronized (progress) {
                progress.add(done);
            }
            total.set(all);
        });

        assertThat(results).extracting(StrategyResult::workers)
                .containsExactly(1, 1, 1, 1, 1, 3, 3, 3, 3, 3);
        assertThat(results).extracting(StrategyResult::initialStock)
                .containsExactly(2, 2, 2, 2, 2, 6, 6, 6, 6, 6);
        results.stream().filter(r -> r.strategy().safe())
                .forEach(r -> assertThat(r.confirmed() + r.retriesExhausted()).as(r.toString()).isEqualTo(r.ops()));
        assertThat(total.get()).isEqualTo(40);
        assertThat(progress).hasSize(40).contains(40L);
    }
}
