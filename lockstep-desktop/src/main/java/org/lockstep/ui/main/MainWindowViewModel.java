package org.lockstep.ui.main;

import static org.lockstep.text.Texts.tr;

import java.util.function.LongConsumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.ui.live.OwnWrites;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.editor.CustomerEditorViewModel;
import org.lockstep.ui.list.CustomerListViewModel;

/**
 * The main window: the customer list, an editor pane for the selected customer, and the actions on them (new,
 * open in a new window, delete, refresh). It decides what a change of selection does to the pane: load the newly
 * selected customer, or, when the pane holds unsaved edits, ask the operator first, so that edits are never dropped
 * silently.
 *
 * <p>The list follows every write of this process by one path, the services' {@link EditorServices#ownWrites()}:
 * the pane's, those of separate editor windows and of their merges alike. A save in the pane also selects the
 * record it saved (a new customer's first save).
 */
public final class MainWindowViewModel {

    private final String user;
    private final CustomerListViewModel list;
    private final CustomerEditorViewModel editor;
    private PendingEdits.Prompt prompt = (question, offerNewWindow) -> PendingEdits.KEEP_EDITING;
    private LongConsumer windowOpener = id -> {};

    /**
     * @param services the process's services: repositories (customers, history, leases acting as one session), the
     *                 executor, the FX thread (where reports of other windows' writes are delivered) and the
     *                 operator's name, shown in the title and written with every save
     */
    public MainWindowViewModel(EditorServices services) {
        CustomerRepository repository = services.customers();
        this.user = services.user();
        this.list = new CustomerListViewModel(repository, services.executor(), services.leases());
        this.editor = new CustomerEditorViewModel(services);
        services.ownWrites().subscribe(new OwnWrites.Listener() {
            @Override
            public void stored(Customer customer) {
                list.applySaved(customer);
            }

            @Override
            public void deleted(long id) {
                list.applyDeleted(id);
            }
        });
        // The list heard of the save already (the report is queued before the save's result): select it.
        editor.setOnSaved(saved -> list.select(saved.id()));
        list.selectedProperty().addListener((obs, was, now) -> {
            if (now != null) {
                show(now);
            }
        });
    }

    /** Reads the first page of the list; call once when the window is shown. */
    public void start() {
        list.start();
    }

    /** The list of customers. */
    public CustomerListViewModel list() {
        return list;
    }

    /** The editor in the pane. */
    public CustomerEditorViewModel editor() {
        return editor;
    }

    /** The operator's name. */
    public String user() {
        return user;
    }

    /** The window title: "Lockstep — " and the operator's name. */
    public String title() {
        return tr("Lockstep — {0}", user);
    }

    /** Sets how the operator is asked about unsaved edits (the view shows a dialog). */
    public void setPendingEditsPrompt(PendingEdits.Prompt prompt) {
        this.prompt = prompt;
    }

    /** Sets how a customer is opened in its own window (the view opens an editor window). */
    public void setWindowOpener(LongConsumer opener) {
        this.windowOpener = opener;
    }

    /** Whether anything is being read or written. */
    public BooleanBinding busy() {
        return list.loadingProperty().or(editor.busyProperty());
    }

    /** The status line: the list's error if it has one, else its counts. */
    public StringBinding status() {
        return Bindings.createStringBinding(
                () -> list.errorProperty().get().isEmpty() ? list.statusProperty().get() : list.errorProperty().get(),
                list.errorProperty(), list.statusProperty());
    }

    /** Whether there is a customer to open in a new window: the selected row, else the one in the pane. */
    public BooleanBinding canOpen() {
        return list.selectedProperty().isNotNull().or(editor.buffer().baseProperty().isNotNull());
    }

    /** Whether the pane holds a stored customer that could be deleted. */
    public BooleanBinding canDelete() {
        return editor.buffer().baseProperty().isNotNull().and(editor.busyProperty().not());
    }

    /** Shows a customer in the pane, asking first when that would replace unsaved edits. */
    public void show(Customer next) {
        Customer base = editor.buffer().baseProperty().get();
        if (base != null && base.id() == next.id()) {
            return;
        }
        if (!editor.buffer().dirtyProperty().get()) {
            editor.load(next.id());
            return;
        }
        PendingEdits choice =
                prompt.ask(tr("You have unsaved changes to {0}. Discard them and open “{1}”?", editingName(),
                        next.data().displayName()), true);
        switch (choice) {
            case DISCARD -> editor.load(next.id());
            case OPEN_IN_NEW_WINDOW -> {
                windowOpener.accept(next.id());
                selectEdited();
            }
            case KEEP_EDITING -> selectEdited();
        }
    }

    /** Starts a new customer in the pane, asking first when that would replace unsaved edits. */
    public void newCustomer() {
        if (editor.buffer().dirtyProperty().get() && prompt.ask(tr("You have unsaved changes to {0}. Discard "
                + "them and start a new customer?", editingName()), false) != PendingEdits.DISCARD) {
            return;
        }
        editor.startNew();
        list.selectedProperty().set(null);
    }

    /** Opens the selected customer (else the one in the pane) in its own window; the pane keeps its edits. */
    public void openInNewWindow() {
        Customer selected = list.selectedProperty().get();
        Customer target = selected != null ? selected : editor.buffer().baseProperty().get();
        if (target != null) {
            windowOpener.accept(target.id());
        }
    }

    /** Asks the pane's editor to delete its customer (versioned; the editor reports the outcome). */
    public void delete() {
        editor.saves().requestDelete();
    }

    /**
     * Reads the list again, and the pane's customer too when it has no unsaved edits (with edits, the pane keeps
     * its base version, so that a later save still detects anyone else's change).
     */
    public void refresh() {
        list.refresh();
        Customer base = editor.buffer().baseProperty().get();
        if (base != null && !editor.buffer().dirtyProperty().get()) {
            editor.load(base.id());
        }
    }

    /** Whether the window may close: yes without unsaved edits in the pane, else only if the operator discards them. */
    public boolean canClose() {
        return !editor.buffer().dirtyProperty().get() || prompt.ask(tr("You have unsaved changes to {0}. Discard "
                + "them and close the window?", editingName()), false) == PendingEdits.DISCARD;
    }

    private String editingName() {
        Customer base = editor.buffer().baseProperty().get();
        return base == null ? tr("a new customer") : "“" + base.data().displayName() + "”";
    }

    private void selectEdited() {
        Customer base = editor.buffer().baseProperty().get();
        if (base != null) {
            list.select(base.id());
        } else {
            list.selectedProperty().set(null);
        }
    }
}
