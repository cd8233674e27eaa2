package org.lockstep.ui.demo;

import static org.lockstep.text.Texts.tr;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.Customer;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.editing.timeline.Timeline;
import org.lockstep.editing.timeline.TimelineEvent;
import org.lockstep.ui.timeline.TimelineViewModel;

/**
 * The Trainer panel's live timeline of the running scenario's customer: what the database recorded, plus what Alice's
 * and Bob's clients know of their own (their reads, a save refused for its fencing token). It reads again after every
 * step and whenever the change feed reports a change, and highlights the events of the step just run under that
 * step's "what to notice". FX thread only.
 */
final class DemoTimeline {

    private final TimelineViewModel timeline;
    private final TrainerViewModel trainer;
    private final Cast cast;

    /**
     * @param history  the database's records, read through {@code executor}
     * @param executor keeps the reads off the FX thread
     */
    DemoTimeline(TrainerViewModel trainer, Cast cast, Operator alice, Operator bob, HistoryRepository history,
            TaskExecutor executor) {
        this.trainer = trainer;
        this.cast = cast;
        this.timeline = new TimelineViewModel(history, executor, ZoneId.systemDefault());
        timeline.addClientKnowledge(() -> {
            List<TimelineEvent> known = new ArrayList<>(alice.clientLog().events());
            known.addAll(bob.clientLog().events());
            return known;
        }, List.of(alice.name(), Timeline.DATABASE, bob.name()));
        timeline.setActive(true);
        // Only the customer: the step count is still the scenario before's until the trainer model resets it.
        trainer.selectedProperty().addListener(o -> showCustomer());
        trainer.doneProperty().addListener(o -> follow());
        trainer.runningProperty().addListener(o -> follow());
        trainer.noticeProperty().addListener(o -> follow());
        // A lease lapse changes no row and sends nothing: the step that waits for it ends with a read anyway.
        alice.live().subscribe(changes -> {
            if (changes.stream().anyMatch(c -> c.event().isCustomer() || c.event().isLease())) {
                timeline.refresh();
            }
        });
    }

    /** The timeline's state, for the pane. */
    TimelineViewModel viewModel() {
        return timeline;
    }

    private void follow() {
        showCustomer();
        Scenario scenario = trainer.selectedProperty().get();
        int done = trainer.doneProperty().get();
        if (scenario == null || done > scenario.steps().size()) {
            return; // chosen a moment ago: the step count is still the scenario before's
        }
        if (trainer.runningProperty().get() && done < scenario.steps().size()) {
            timeline.highlightStep(cast.stepStarted(), tr("Step {0} running: {1}", done + 1,
                    scenario.steps().get(done).text()));
        } else if (done > 0) {
            timeline.highlightStep(cast.stepStarted(), tr("Step {0}: {1} — Notice: {2}", done,
                    scenario.steps().get(done - 1).text(), trainer.noticeProperty().get()));
        } else {
            timeline.highlightStep(null, trainer.noticeProperty().get());
        }
    }

    private void showCustomer() {
        Scenario scenario = trainer.selectedProperty().get();
        // Only the chosen scenario's own customer: the one the last reset prepared may be another scenario's (issue
        // 27: scenario 7, which has none, showed scenario 5's).
        if (scenario == null || scenario.start() == null) {
            timeline.showNone(scenario == null ? tr("No timeline: no scenario is chosen.")
                    : tr("No timeline: this scenario edits no customer."));
            return;
        }
        cast.prepared().filter(c -> Objects.equals(c.data().externalRef(), scenario.start().externalRef()))
                .map(Customer::id).ifPresentOrElse(timeline::show, () -> timeline.showNone(
                        tr("No timeline yet: step 1, or Reset data, makes this scenario's customer.")));
    }
}
