package org.lockstep.ui.editor;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.FieldParser;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.ui.TaskExecutor;

/**
 * Buffered editing of one customer: the base record as loaded, the text of every field as edited, and whether the
 * edits differ from the base ({@code dirty}). Saves are versioned on the base version; a conflict keeps the edits
 * and says who saved first.
 *
 * <p>Interim version for main-window development; the ui-editor branch provides the full editor with the same API.
 */
public final class CustomerEditorViewModel {

    private final CustomerRepository repository;
    private final TaskExecutor executor;
    private final String user;
    private final Map<CustomerField, StringProperty> text = new EnumMap<>(CustomerField.class);
    private final ReadOnlyObjectWrapper<Customer> base = new ReadOnlyObjectWrapper<>(this, "base");
    private final ReadOnlyBooleanWrapper dirty = new ReadOnlyBooleanWrapper(this, "dirty");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private Consumer<Customer> onSaved = c -> { };
    private Consumer<Long> onDeleted = id -> { };

    /**
     * @param repository where customers are read and saved
     * @param executor   runs the database calls off the FX thread
     * @param user       the operator, for messages
     */
    public CustomerEditorViewModel(CustomerRepository repository, TaskExecutor executor, String user) {
        this.repository = repository;
        this.executor = executor;
        this.user = user;
        for (CustomerField f : CustomerField.values()) {
            StringProperty p = new SimpleStringProperty(this, f.column(), "");
            p.addListener((obs, was, now) -> updateDirty());
            text.put(f, p);
        }
    }

    /** Loads a customer from the database in the background; it becomes the base and fills every field. */
    public void load(long id) {
        busy.set(true);
        executor.execute(() -> repository.find(id), found -> {
            busy.set(false);
            found.ifPresentOrElse(this::setBase, () -> message.set("Customer " + id + " no longer exists."));
        }, this::failed);
    }

    /** Clears the form for a new customer: no base, every field empty, not dirty. */
    public void startNew() {
        base.set(null);
        fill(CustomerData.EMPTY);
        message.set("New customer");
    }

    /** Writes the edits: a create without a base, else a versioned save on the base version. */
    public void save() {
        CustomerData data;
        try {
            data = edited();
        } catch (FieldParser.InvalidValueException e) {
            message.set(e.getMessage());
            return;
        }
        Customer b = base.get();
        busy.set(true);
        if (b == null) {
            executor.execute(() -> repository.create(data), created -> {
                busy.set(false);
                saved(created);
            }, this::failed);
        } else {
            executor.execute(() -> repository.save(b.id(), b.version(), data), outcome -> {
                busy.set(false);
                if (outcome instanceof SaveOutcome.Saved s) {
                    saved(s.saved());
                } else if (outcome instanceof SaveOutcome.Conflict c) {
                    message.set(c.theirs()
                            .map(t -> "Not saved: " + by(t) + " saved version " + t.version() + " first. Your edits are kept.")
                            .orElse("Not saved: someone deleted this customer. Your edits are kept."));
                }
            }, this::failed);
        }
    }

    /** Puts the base values back into every field. */
    public void revert() {
        Customer b = base.get();
        fill(b == null ? CustomerData.EMPTY : b.data());
    }

    /** Deletes the base record, versioned on the base version; nothing happens for a new, unsaved customer. */
    public void requestDelete() {
        Customer b = base.get();
        if (b == null) {
            return;
        }
        busy.set(true);
        executor.execute(() -> repository.delete(b.id(), b.version()), outcome -> {
            busy.set(false);
            if (outcome instanceof DeleteOutcome.Deleted) {
                startNew();
                message.set("Deleted customer " + b.id());
                onDeleted.accept(b.id());
            } else if (outcome instanceof DeleteOutcome.Conflict c) {
                message.set(c.theirs().map(t -> "Not deleted: " + by(t) + " saved version " + t.version() + " since.")
                        .orElse("Already deleted by someone else."));
            }
        }, this::failed);
    }

    /** The text of one field as edited. */
    public StringProperty textProperty(CustomerField field) {
        return text.get(field);
    }

    /** Whether the edits differ from the base (or, for a new customer, from an empty form). */
    public ReadOnlyBooleanProperty dirtyProperty() {
        return dirty.getReadOnlyProperty();
    }

    /** The record the edits are based on; {@code null} for a new customer. */
    public ReadOnlyObjectProperty<Customer> baseProperty() {
        return base.getReadOnlyProperty();
    }

    /** Whether a database call is in flight. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** The last outcome or error, in the operator's words. */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** Called on the FX thread with the new base after every successful save or create. */
    public void setOnSaved(Consumer<Customer> listener) {
        onSaved = listener == null ? c -> { } : listener;
    }

    /** Called on the FX thread with the id after a successful delete. */
    public void setOnDeleted(Consumer<Long> listener) {
        onDeleted = listener == null ? id -> { } : listener;
    }

    private void saved(Customer c) {
        setBase(c);
        message.set("Saved version " + c.version());
        onSaved.accept(c);
    }

    private void setBase(Customer c) {
        base.set(c);
        fill(c.data());
        message.set(describe(c));
    }

    private void fill(CustomerData data) {
        for (CustomerField f : CustomerField.values()) {
            text.get(f).set(FieldParser.format(data.get(f)));
        }
        updateDirty();
    }

    private CustomerData edited() {
        Map<CustomerField, Object> values = new EnumMap<>(CustomerField.class);
        for (CustomerField f : CustomerField.values()) {
            values.put(f, FieldParser.parse(f, text.get(f).get()));
        }
        return CustomerData.fromMap(values);
    }

    private void updateDirty() {
        Customer b = base.get();
        CustomerData reference = b == null ? CustomerData.EMPTY : b.data();
        boolean changed = false;
        for (CustomerField f : CustomerField.values()) {
            String now = text.get(f).get() == null ? "" : text.get(f).get();
            if (!now.equals(FieldParser.format(reference.get(f)))) {
                changed = true;
                break;
            }
        }
        dirty.set(changed);
    }

    private void failed(Throwable e) {
        busy.set(false);
        if (e instanceof InvalidCustomerException invalid) {
            message.set("Not saved: " + invalid.getMessage());
        } else {
            message.set("The database did not answer: " + Optional.ofNullable(e.getMessage()).orElse(e.toString())
                    + ". Your edits are kept.");
        }
    }

    private String by(Customer c) {
        return c.updatedBy() == null ? "someone" : c.updatedBy().equals(user) ? "you (elsewhere)" : c.updatedBy();
    }

    private static String describe(Customer c) {
        return "version " + c.version() + " · saved by " + (c.updatedBy() == null ? "unknown" : c.updatedBy())
                + " at " + c.updatedAt();
    }
}
