package org.lockstep.ui.demo;

import static org.lockstep.text.Texts.tr;

import org.lockstep.domain.ConcurrencyMode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import javafx.scene.Node;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.TrainingRecords;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.editor.CustomerEditorViewModel;
import org.lockstep.ui.list.ListIds;
import org.lockstep.ui.lock.EditLockViewModel;

/**
 * Who acts in the trainer's scenarios: Alice's and Bob's hands, the demo's customers, and the customer the running
 * scenario uses. FX thread only.
 */
public final class Cast {

    private final Hands alice;
    private final Hands bob;
    private final TrainingRecords records;
    private final TaskExecutor executor;
    private final Duration leaseTtl;
    private final BlackFridayViewModel blackFriday;
    private Customer customer;
    private java.time.Instant stepStarted;

    /**
     * @param executor runs the data reset off the FX thread
     * @param leaseTtl the operators' lease TTL, for how long scenario 5 waits for a lapse
     */
    public Cast(Hands alice, Hands bob, TrainingRecords records, TaskExecutor executor, Duration leaseTtl) {
        this(alice, bob, records, executor, leaseTtl, null);
    }

    /** As the other constructor, with scenario 7's lab results ({@code null}: no scenario 7). */
    public Cast(Hands alice, Hands bob, TrainingRecords records, TaskExecutor executor, Duration leaseTtl,
            BlackFridayViewModel blackFriday) {
        this.blackFriday = blackFriday;
        this.alice = alice;
        this.bob = bob;
        this.records = records;
        this.executor = executor;
        this.leaseTtl = leaseTtl;
    }

    /** Alice's hands. */
    public Hands alice() {
        return alice;
    }

    /** Bob's hands. */
    public Hands bob() {
        return bob;
    }

    /** The operators' lease TTL. */
    public Duration leaseTtl() {
        return leaseTtl;
    }

    /** Scenario 7's lab and its results shown in the Trainer panel. */
    public BlackFridayViewModel blackFriday() {
        if (blackFriday == null) {
            throw new DemoStepException(tr("This demo has no contention lab for scenario 7."));
        }
        return blackFriday;
    }

    /** Before a scenario without a customer (scenario 7): both windows clean, the lab's results cleared. */
    public CompletableFuture<Void> resetLab() {
        customer = null; // the scenario before's customer is not this scenario's
        alice.stop();
        bob.stop();
        clean(alice);
        clean(bob);
        if (blackFriday != null) {
            blackFriday.clear();
        }
        return CompletableFuture.completedFuture(null);
    }

    /** A step begins: the captions of the step before are cleared, and the step's start is noted. */
    public void beginStep() {
        stepStarted = java.time.Instant.now();
        alice.operator().say("");
        bob.operator().say("");
    }

    /** When the last step began, by this client's clock; {@code null} before the first. */
    public java.time.Instant stepStarted() {
        return stepStarted;
    }

    /** The running scenario's customer as the last reset stored it, if a reset has run. */
    public java.util.Optional<Customer> prepared() {
        return java.util.Optional.ofNullable(customer);
    }

    /** The running scenario's customer as the last reset stored it. */
    public Customer customer() {
        if (customer == null) {
            throw new DemoStepException(tr("The scenario's customer has not been prepared: press Reset data."));
        }
        return customer;
    }

    /**
     * Puts both windows back to a clean state (no customer shown, optimistic mode, no dialog, not frozen) and the
     * scenario's customer back to {@code start} at version 1 (a new row), then remembers it.
     */
    public CompletableFuture<Customer> reset(CustomerData start) {
        // A step still under way stops at its next keystroke, click or poll: it must not act on the fresh data.
        alice.stop();
        bob.stop();
        clean(alice);
        clean(bob);
        CompletableFuture<Customer> done = new CompletableFuture<>();
        executor.execute(() -> records.reset(start), stored -> {
            customer = stored;
            done.complete(stored);
        }, done::completeExceptionally);
        return done;
    }

    private static void clean(Hands hands) {
        Operator operator = hands.operator();
        operator.freeze().thaw();
        operator.say("");
        for (Window w : Window.getWindows().toArray(Window[]::new)) {
            if (w instanceof Stage s && s.getOwner() == operator.stage() && s.isShowing()) {
                s.close(); // a confirmation left open by a step that failed
            }
        }
        // Scenario 1 ends on the History tab; the fields are on Details. Chosen before the editor is emptied: the main
        // window then takes the editor out of the window (EditorPane), where the tab is not found.
        hands.showDetails();
        CustomerEditorViewModel editor = operator.editor();
        editor.clear();
        editor.lock().notifyWhenFreeProperty().set(false);
        editor.lock().modeProperty().set(ConcurrencyMode.OPTIMISTIC);
        operator.viewModel().list().selectedProperty().set(null);
        Node filter = operator.stage().getScene().lookup("#" + ListIds.CUSTOMER_FILTER);
        if (filter instanceof TextInputControl text) {
            text.clear();
        }
    }
}
