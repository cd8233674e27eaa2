package org.lockstep.ui.demo;

import static org.lockstep.text.Texts.tr;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.lockstep.lab.Strategy;
import org.lockstep.lab.StrategyResult;

/**
 * Scenario 7, "Black Friday": the seeds' classic race of eight buyers for five units, run by the contention lab
 * inside the Trainer panel — "none" oversells, every other strategy stops at zero — then a sweep that shows where
 * optimistic retries start to cost more than pessimistic waits. It uses no customer and no operator window: the
 * lab's own rows (lab_stock, V5__lab.sql), reset by each run.
 */
final class BlackFriday {

    private BlackFriday() {
    }

    static Scenario scenario() {
        return new Scenario(7, tr("Black Friday"),
                tr("Five units of the deal of the year, eight buyers pressing Buy at the same moment. Each buyer reads "
                        + "the stock, thinks for 50 ms, and buys if it read more than zero. The contention lab runs "
                        + "the race once per strategy, each buyer on a database connection of its own, and the "
                        + "chart shows purchases confirmed beside units actually taken from the stock."),
                null, List.of(
                        new Step(tr("No concurrency control (\"none\"): every buyer writes stock = what it read − 1."),
                                tr("All eight were told they bought one, yet the stock fell by only one or two units: the "
                                        + "writes overwrote each other. That is overselling — the lost update at a till."),
                                c -> race(c, List.of(Strategy.NONE))),
                        new Step(tr("The same race under optimistic, pessimistic, conditional and lease locking."),
                                tr("Every one stops at zero: five confirmed, three told it is sold out, the stock never "
                                        + "below zero. They differ in how: retries, waits, the database deciding, a token."),
                                c -> race(c, List.of(Strategy.OPTIMISTIC, Strategy.PESSIMISTIC, Strategy.CONDITIONAL,
                                        Strategy.LEASE))),
                        new Step(tr("The sweep: 1 to 16 buyers, five purchases each, optimistic beside pessimistic."),
                                tr("With few buyers optimistic retries are cheap; as buyers grow, each conflict costs a "
                                        + "re-read and a retry, and waiting in line for the row lock starts to win. The "
                                        + "line under the charts says where that happened on this machine."),
                                c -> c.blackFriday().sweep().thenApply(r -> null))));
    }

    private static CompletableFuture<Void> race(Cast c, List<Strategy> strategies) {
        return c.blackFriday().race(strategies).thenApply(results -> {
            for (StrategyResult r : results) {
                if (r.strategy().safe() && (r.oversold() || r.finalStock() < 0)) {
                    throw new DemoStepException(tr("{0} oversold: {1, number} confirmed for {2, plural, one {# unit} "
                            + "other {# units}}", r.strategy().id(), r.confirmed(), r.initialStock()));
                }
            }
            return null;
        });
    }
}
