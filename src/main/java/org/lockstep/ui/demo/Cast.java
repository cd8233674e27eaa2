package org.lockstep.ui.demo;

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
    private Customer customer;

    /**
     * @param executor runs the data reset off the FX thread
     * @param leaseTtl the operators' lease TTL, for how long scenario 5 waits for a lapse
     */
    public Cast(Hands alice, Hands bob, TrainingRecords records, TaskExecutor executor, Duration leaseTtl) {
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

    /** A step begins: the captions of the step before are cleared. */
    public void beginStep() {
        alice.operator().say("");
        bob.operator().say("");
    }

    /** The running scenario's customer as the last reset stored it. */
    public Customer customer() {
        if (customer == null) {
            throw new DemoStepException("The scenario's customer has not been prepared: press Reset data.");
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
        CustomerEditorViewModel editor = operator.editor();
        editor.clear();
        editor.lock().notifyWhenFreeProperty().set(false);
        editor.lock().modeProperty().set(ConcurrencyMode.OPTIMISTIC);
        operator.viewModel().list().selectedProperty().set(null);
        hands.showDetails(); // scenario 1 ends on the History tab; the fields are on Details
        Node filter = operator.stage().getScene().lookup("#customer-filter");
        if (filter instanceof TextInputControl text) {
            text.clear();
        }
    }
}
