package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.Customer;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.HistoryRepository;

/**
 * What the merge dialog says above its rows: the title (who saved or deleted when), the column headings, and from
 * the history who saved in between. Confined to the FX thread; the history is read through the dialog's scope, so a
 * summary for a merge the dialog has left behind is dropped.
 */
public final class MergeHeadings {

    final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(this, "title", "");
    final ReadOnlyStringWrapper historySummary = new ReadOnlyStringWrapper(this, "historySummary", "");
    final ReadOnlyStringWrapper baseHeading = new ReadOnlyStringWrapper(this, "baseHeading", "");
    final ReadOnlyStringWrapper mineHeading = new ReadOnlyStringWrapper(this, "mineHeading", "");
    final ReadOnlyStringWrapper theirsHeading = new ReadOnlyStringWrapper(this, "theirsHeading", "");
    final ReadOnlyStringWrapper resultHeading = new ReadOnlyStringWrapper(this, "resultHeading", "");

    private final HistoryRepository history;
    private final Clock clock;

    MergeHeadings(HistoryRepository history, Clock clock) {
        this.history = history;
        this.clock = clock;
    }

    /** The Base column's heading: which version, and what it is to the operator. */
    public ReadOnlyStringProperty baseHeadingProperty() {
        return baseHeading.getReadOnlyProperty();
    }

    /** The Mine column's heading. */
    public ReadOnlyStringProperty mineHeadingProperty() {
        return mineHeading.getReadOnlyProperty();
    }

    /** The Theirs column's heading: which version by whom, or that it was deleted. */
    public ReadOnlyStringProperty theirsHeadingProperty() {
        return theirsHeading.getReadOnlyProperty();
    }

    /** The Result column's heading. */
    public ReadOnlyStringProperty resultHeadingProperty() {
        return resultHeading.getReadOnlyProperty();
    }

    MergeHeader header() {
        return new MergeHeader(clock.getZone(), LocalDate.now(clock));
    }

    /** Headings of a merge of mine on {@code base} with {@code theirs} (null: deleted); then the history's summary. */
    void show(TaskScope scope, Customer base, Customer theirs, boolean refreshed) {
        MergeHeader h = header();
        baseHeading.set(MergeHeader.baseHeading(base.version(), refreshed));
        mineHeading.set(MergeHeader.mineHeading(refreshed));
        theirsHeading.set(MergeHeader.theirsHeading(theirs));
        resultHeading.set(MergeHeader.resultHeading(theirs == null));
        if (theirs == null) {
            title.set(h.deleted(Optional.empty(), edited(base, refreshed)));
        } else {
            title.set(refreshed ? h.savedWhileMerging(theirs, base.version())
                    : h.savedWhileEditing(theirs, base.version()));
        }
        loadHistory(scope, base, theirs, refreshed);
    }

    private void loadHistory(TaskScope scope, Customer base, Customer now, boolean refreshed) {
        historySummary.set(tr("Looking up who saved in between…"));
        long id = base.id();
        long fromVersion = base.version();
        MergeHeader.Since since = refreshed ? MergeHeader.Since.MERGED : MergeHeader.Since.LOADED;
        scope.execute(() -> now == null ? history.history(id) : history.between(id, fromVersion, now.version()),
                entries -> {
                    if (now == null) {
                        showDeletion(entries, fromVersion, since, edited(base, refreshed));
                    } else {
                        historySummary.set(MergeHeader.savesBetween(entries, since, fromVersion));
                    }
                },
                failure -> historySummary
                        .set(tr("Who saved in between is unknown: {0}", MergeStatus.message(failure))));
    }

    private void showDeletion(List<HistoryEntry> entries, long fromVersion, MergeHeader.Since since,
            OptionalLong activity) {
        Optional<HistoryEntry> deletion = entries.stream().filter(e -> e.op() == HistoryEntry.Op.DELETE)
                .reduce((first, second) -> second);
        title.set(header().deleted(deletion, activity));
        deletion.ifPresent(d -> theirsHeading.set(MergeHeader.deletedHeading(d)));
        List<HistoryEntry> saves = entries.stream()
                .filter(e -> e.op() == HistoryEntry.Op.UPDATE && e.version() > fromVersion).toList();
        historySummary.set(saves.isEmpty() ? "" : MergeHeader.savesThenDeleted(saves, since, fromVersion));
    }

    /** The version the operator was editing; empty when they were merging (after a refresh). */
    private static OptionalLong edited(Customer base, boolean refreshed) {
        return refreshed ? OptionalLong.empty() : OptionalLong.of(base.version());
    }
}
