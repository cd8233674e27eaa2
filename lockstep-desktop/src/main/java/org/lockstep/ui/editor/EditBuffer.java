package org.lockstep.ui.editor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Function;
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
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.FieldParser;
import org.lockstep.ui.EditorLocale;

/**
 * The editor's buffered values (mvvmFX {@code ModelWrapper} idea): the base record the edits are based on, the text
 * of every field as the operator typed it, the problems that keep it from being saved, and whether it differs from
 * the base ({@code dirty}). Texts are parsed with {@link FieldParser} in the editor's locale ({@link EditorLocale})
 * and checked with {@link CustomerValidator#validateChanges} against the base on every change, so a problem shows
 * while typing; a rule broken by a stored value the operator left alone is a warning, not a problem. Confined to one
 * thread (the FX thread in the application). The view binds to it through {@link CustomerEditorViewModel#buffer()}.
 */
public final class EditBuffer {

    /**
     * What one save writes: the texts as they were when Save was pressed, and the values parsed from them.
     *
     * @param texts        by field, never {@code null} values
     * @param data         the parsed values, free of problems
     * @param restoredFrom the earlier version these values restore ("Restore this version"); empty for a save of
     *                     edits
     */
    record Snapshot(Map<CustomerField, String> texts, CustomerData data, OptionalLong restoredFrom) {

        /** A save of edits: it restores no version. */
        Snapshot(Map<CustomerField, String> texts, CustomerData data) {
            this(texts, data, OptionalLong.empty());
        }

        /** The same save, recorded as restoring {@code version}. */
        Snapshot restoring(long version) {
            return new Snapshot(texts, data, OptionalLong.of(version));
        }
    }

    private final Map<CustomerField, StringProperty> texts = new EnumMap<>(CustomerField.class);
    private final Map<CustomerField, ReadOnlyStringWrapper> fieldErrors = new EnumMap<>(CustomerField.class);
    private final Map<CustomerField, ReadOnlyStringWrapper> fieldWarnings = new EnumMap<>(CustomerField.class);
    // One locale for the buffer's life: a text shown in it must parse back in it.
    private final FieldParser parser = EditorLocale.fields();
    private final Map<CustomerField, String> storeErrors = new EnumMap<>(CustomerField.class);
    private final List<String> recordErrors = new ArrayList<>();
    private final ReadOnlyObjectWrapper<Customer> base = new ReadOnlyObjectWrapper<>(this, "base");
    private final ReadOnlyBooleanWrapper dirty = new ReadOnlyBooleanWrapper(this, "dirty");
    private final ReadOnlyObjectWrapper<List<FieldError>> problems =
            new ReadOnlyObjectWrapper<>(this, "problems", List.of());
    private final ReadOnlyObjectWrapper<CustomerData> current =
            new ReadOnlyObjectWrapper<>(this, "current", CustomerData.EMPTY);
    // Set while many texts change at once, so that the buffer recomputes once, not per field.
    private boolean quiet;

    EditBuffer() {
        for (CustomerField f : CustomerField.values()) {
            StringProperty text = new SimpleStringProperty(this, f.column(), "");
            text.addListener((obs, was, now) -> edited(f));
            texts.put(f, text);
            fieldErrors.put(f, new ReadOnlyStringWrapper(this, f.column() + "Error"));
            fieldWarnings.put(f, new ReadOnlyStringWrapper(this, f.column() + "Warning"));
        }
        recompute();
    }

    /** The text of one field as typed; the view binds its control to it. */
    public StringProperty text(CustomerField field) {
        return texts.get(field);
    }

    /** Why the field's value cannot be saved, or {@code null} when it can. */
    public ReadOnlyStringProperty error(CustomerField field) {
        return fieldErrors.get(field).getReadOnlyProperty();
    }

    /** A rule the stored value of an untouched field breaks (it is saved as it is), or {@code null}. */
    public ReadOnlyStringProperty warning(CustomerField field) {
        return fieldWarnings.get(field).getReadOnlyProperty();
    }

    /** The parser this buffer reads and shows texts with. */
    FieldParser parser() {
        return parser;
    }

    /** The record the edits are based on; {@code null} for a new or not yet loaded customer. */
    public ReadOnlyObjectProperty<Customer> baseProperty() {
        return base.getReadOnlyProperty();
    }

    Customer base() {
        return base.get();
    }

    /** Unsaved edits exist: the values differ from the base (for a new customer: from blank). */
    public ReadOnlyBooleanProperty dirtyProperty() {
        return dirty.getReadOnlyProperty();
    }

    /** Every problem, in field order; a problem of the whole record has no field and comes first. */
    public ReadOnlyObjectProperty<List<FieldError>> problemsProperty() {
        return problems.getReadOnlyProperty();
    }

    /** The values as parsed now; a value that does not parse counts as absent. */
    ReadOnlyObjectProperty<CustomerData> currentProperty() {
        return current.getReadOnlyProperty();
    }

    /** Shows a record with no edits; {@code null} shows a blank new customer. */
    void reset(Customer record) {
        base.set(record);
        CustomerData data = record == null ? CustomerData.EMPTY : record.data();
        clearStoreErrors();
        setAll(f -> parser.format(data.get(f)));
    }

    /** Keeps every edit but bases it on another record (or on none: a new customer). */
    void rebase(Customer record) {
        base.set(record);
        recompute();
    }

    /**
     * The texts and values to save now.
     *
     * @throws IllegalStateException when a problem keeps the values from being saved
     */
    Snapshot snapshot() {
        if (!problems.get().isEmpty()) {
            throw new IllegalStateException("Cannot save: " + problems.get().get(0).message());
        }
        Map<CustomerField, String> copy = new EnumMap<>(CustomerField.class);
        texts.forEach((f, t) -> copy.put(f, t.get()));
        return new Snapshot(copy, current.get());
    }

    /**
     * A save of {@code snapshot} committed: {@code saved} becomes the base. A field left alone since the snapshot
     * shows the saved value (as the database normalized it, e.g. "1500" becomes "1500.00"); a field edited while
     * the save was in flight keeps the edit.
     */
    void saved(Customer saved, Snapshot snapshot) {
        base.set(saved);
        clearStoreErrors();
        setAll(f -> {
            String now = texts.get(f).get();
            return Objects.equals(now, snapshot.texts().get(f)) ? parser.format(saved.data().get(f)) : now;
        });
    }

    /** The database rejected the values: each problem marks its field until that field is edited. */
    void rejected(List<FieldError> errors) {
        for (FieldError e : errors) {
            if (e.field() == null) {
                recordErrors.add(e.message());
            } else {
                storeErrors.put(e.field(), e.message());
            }
        }
        recompute();
    }

    private void clearStoreErrors() {
        storeErrors.clear();
        recordErrors.clear();
    }

    private void edited(CustomerField field) {
        if (quiet) {
            return;
        }
        storeErrors.remove(field);
        recordErrors.clear();
        recompute();
    }

    private void setAll(Function<CustomerField, String> value) {
        quiet = true;
        try {
            for (CustomerField f : CustomerField.values()) {
                texts.get(f).set(value.apply(f));
            }
        } finally {
            quiet = false;
        }
        recompute();
    }

    /**
     * Checks the values again, so that what is wrong with them is said in the language now chosen (a language
     * switch); the values, the base and the store's errors stay. FX thread.
     */
    void speakAgain() {
        recompute();
    }

    private void recompute() {
        Map<CustomerField, Object> values = new EnumMap<>(CustomerField.class);
        List<FieldError> errors = new ArrayList<>();
        for (CustomerField f : CustomerField.values()) {
            try {
                values.put(f, parser.parse(f, texts.get(f).get()));
            } catch (FieldParser.InvalidValueException e) {
                errors.add(e.error());
            }
        }
        boolean unparsed = !errors.isEmpty();
        CustomerData data = CustomerData.fromMap(values);
        CustomerValidator.Findings findings = CustomerValidator.validateChanges(baseData(), data);
        errors.addAll(findings.errors());
        storeErrors.forEach((f, message) -> errors.add(new FieldError(f, message)));
        recordErrors.forEach(message -> errors.add(new FieldError(null, message)));
        errors.sort(Comparator.comparing(FieldError::field, Comparator.nullsFirst(Comparator.naturalOrder())));
        for (CustomerField f : CustomerField.values()) {
            fieldErrors.get(f).set(errors.stream().filter(e -> e.field() == f).map(FieldError::message)
                    .findFirst().orElse(null));
            fieldWarnings.get(f).set(findings.warnings().stream().filter(e -> e.field() == f)
                    .map(FieldError::message).findFirst().orElse(null));
        }
        current.set(data);
        problems.set(List.copyOf(errors));
        dirty.set(unparsed || differsFromBase(data));
    }

    private boolean differsFromBase(CustomerData data) {
        return !data.normalized().sameValues(baseData().normalized());
    }

    private CustomerData baseData() {
        return base.get() == null ? CustomerData.EMPTY : base.get().data();
    }
}
