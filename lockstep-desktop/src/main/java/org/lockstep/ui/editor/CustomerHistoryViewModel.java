package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.EditorLocale;
import org.lockstep.text.Texts;

/**
 * The editor's History tab: every version of the customer from {@code customer_history}, which the database's
 * trigger writes for every writer (Lockstep, a script, psql), newest first, each with who, when in local time, the
 * operation and the fields it changed (old → new); and the field-by-field difference of any two versions. Reads run
 * through the {@link TaskExecutor}; the list is read only while the tab is shown ({@link #setActive}).
 */
public final class CustomerHistoryViewModel {

    /** "—": how an absent value reads in the history. */
    public static final String ABSENT = "—";

    /**
     * One field's values in two versions.
     *
     * @param field the field
     * @param from  its value in the earlier version as text, {@link #ABSENT} when absent
     * @param to    its value in the later version as text, {@link #ABSENT} when absent
     */
    public record FieldDifference(CustomerField field, String from, String to) {

        /** "Phone: +1 555 0100 → +1 555 0199". */
        public String describe() {
            return tr("{0}: {1} → {2}", field.label(), from, to);
        }
    }

    /**
     * One version as the History tab lists it.
     *
     * @param entry   the change as recorded
     * @param when    when it was committed, in local time ("2026-03-01 14:05:09")
     * @param changes the fields it changed, old → new (every field it set, for an insert; none for a delete)
     */
    public record Version(HistoryEntry entry, String when, List<FieldDifference> changes) {

        /** The version's number. */
        public long version() {
            return entry.version();
        }

        /** Who wrote it: the Lockstep user, else the database role. */
        public String who() {
            return entry.changedBy();
        }

        /** INSERT, UPDATE or DELETE. */
        public String op() {
            return entry.op().name();
        }

        /**
         * What happened, as the History tab shows it to an operator: Created, Saved, Restored version 4 (a save of an
         * earlier version's values by "Restore this version", as the database recorded it) or Deleted, not the SQL
         * verb (which {@link #op()} keeps for tests and the timeline).
         */
        public String opLabel() {
            return switch (entry.op()) {
                case INSERT -> tr("Created");
                case UPDATE -> entry.restoredFrom().isPresent()
                        ? tr("Restored version {0}", entry.restoredFrom().getAsLong()) : tr("Saved");
                case DELETE -> tr("Deleted");
            };
        }

        /** The values this version holds (for a delete: the values deleted). */
        public CustomerData values() {
            return entry.after().or(entry::before).orElse(CustomerData.EMPTY);
        }

        /** Whether these values can be restored: a version that held values, not a delete. */
        public boolean restorable() {
            return entry.after().isPresent();
        }

        /** "Phone: a → b; Email: — → c", "deleted", or "no field changed". */
        public String changesText() {
            if (entry.op() == HistoryEntry.Op.DELETE) {
                return tr("deleted");
            }
            return changes.isEmpty() ? tr("no field changed")
                    : changes.stream().map(FieldDifference::describe).collect(Collectors.joining("; "));
        }
    }

    private final HistoryRepository history;
    private final TaskExecutor executor;
    private final ZoneId zone;
    private final ObservableList<Version> versions = FXCollections.observableArrayList();
    private final ObservableList<Version> versionsView = FXCollections.unmodifiableObservableList(versions);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper(this, "loading");
    private long customerId = -1;
    private boolean active;
    // A late answer for an earlier customer or read must not replace the one shown now.
    private int generation;

    /** A history reading through {@code executor}, telling times in {@code zone}. */
    public CustomerHistoryViewModel(HistoryRepository history, TaskExecutor executor, ZoneId zone) {
        this.history = Objects.requireNonNull(history);
        this.executor = Objects.requireNonNull(executor);
        this.zone = Objects.requireNonNull(zone);
    }

    /** Shows the history of a customer ({@code -1}: none), reading it now when the tab is shown. */
    public void show(long id) {
        if (id != customerId) {
            customerId = id;
            versions.clear();
        }
        refresh();
    }

    /** Whether the tab is shown; becoming shown reads the history. */
    public void setActive(boolean shown) {
        active = shown;
        refresh();
    }

    /** Reads the history again in the background, when a customer is shown and the tab is too. */
    public void refresh() {
        int gen = ++generation;
        if (customerId < 0 || !active) {
            status.set(customerId < 0 ? tr("No history: the customer is not saved yet.") : "");
            return;
        }
        long id = customerId;
        loading.set(true);
        status.set(tr("Loading history…"));
        executor.execute(() -> history.history(id), entries -> {
            if (gen == generation) {
                loading.set(false);
                List<Version> rows = new ArrayList<>(entries.stream().map(this::version).toList());
                Collections.reverse(rows);
                versions.setAll(rows);
                status.set(rows.isEmpty() ? tr("No recorded versions.")
                        : tr("{0, plural, one {# version} other {# versions}}", rows.size()));
            }
        }, failure -> {
            if (gen == generation) {
                loading.set(false);
                status.set(tr("Can't reach the database — the history could not be read. {0}",
                        Optional.ofNullable(failure.getMessage()).orElse("")));
            }
        });
    }

    /** The customer's versions, newest first. */
    public ObservableList<Version> versions() {
        return versionsView;
    }

    /** The version with that number, if listed. */
    public Optional<Version> version(long number) {
        return versions.stream().filter(v -> v.version() == number).findFirst();
    }

    /** "12 versions", "Loading history…" or why the history could not be read. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** A read is in flight. */
    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    /** The fields whose values differ between two versions, earlier → later, in field order. */
    public static List<FieldDifference> difference(Version a, Version b) {
        boolean aFirst = a.version() <= b.version();
        Version earlier = aFirst ? a : b;
        Version later = aFirst ? b : a;
        return differences(earlier.values(), later.values());
    }

    private Version version(HistoryEntry e) {
        List<FieldDifference> changes = e.op() == HistoryEntry.Op.DELETE ? List.of()
                : differences(e.before().orElse(CustomerData.EMPTY), e.after().orElse(CustomerData.EMPTY));
        return new Version(e, Texts.language().numericDateTime(true).format(e.changedAt().atZone(zone)), changes);
    }

    private static List<FieldDifference> differences(CustomerData from, CustomerData to) {
        return LiveCheck.changedFields(from, to).stream()
                .map(f -> new FieldDifference(f, text(from.get(f)), text(to.get(f)))).toList();
    }

    private static String text(Object value) {
        String text = EditorLocale.fields().format(value);
        return text == null || text.isEmpty() ? ABSENT : text;
    }
}
