package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.lockstep.domain.Customer;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.text.Texts;

/**
 * The sentences the merge and delete-conflict dialogs put above the fields: who saved which version when, and how
 * many saves by whom came in between. Pure formatting, no JavaFX; times are shown in the operator's zone, as a time
 * of day when it is today and with the date otherwise.
 */
public final class MergeHeader {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm", Locale.ENGLISH);

    private final ZoneId zone;
    private final LocalDate today;

    /**
     * @param zone  the operator's time zone
     * @param today the operator's date, so that a time from today is shown without its date
     */
    public MergeHeader(ZoneId zone, LocalDate today) {
        this.zone = zone;
        this.today = today;
    }

    /** "Bob saved version 7 at 10:03 while you were editing version 5". */
    public String savedWhileEditing(Customer theirs, long baseVersion) {
        When w = when(theirs.updatedAt());
        return tr("{0} saved version {1}{2, select, today { at {3}} day { on {4} at {3}} other {}}"
                + " while you were editing version {5}", who(theirs.updatedBy()), theirs.version(), w.kind, w.time,
                w.date, baseVersion);
    }

    /** "Carol saved version 9 at 10:05 while you were merging against version 7", after a refresh in place. */
    public String savedWhileMerging(Customer theirs, long mergedAgainstVersion) {
        When w = when(theirs.updatedAt());
        return tr("{0} saved version {1}{2, select, today { at {3}} day { on {4} at {3}} other {}}"
                + " while you were merging against version {5}", who(theirs.updatedBy()), theirs.version(), w.kind,
                w.time, w.date, mergedAgainstVersion);
    }

    /** "Carol saved version 9 while you were merging — review the new changes": why the dialog changed under you. */
    public String newChangesWhileMerging(Customer theirs) {
        return tr("{0} saved version {1} while you were merging — review the new changes", who(theirs.updatedBy()),
                theirs.version());
    }

    /** "Carol saved version 9 while you were deciding — review the new changes", for the delete conflict. */
    public String newChangesWhileDeciding(Customer theirs) {
        return tr("{0} saved version {1} while you were deciding — review the new changes", who(theirs.updatedBy()),
                theirs.version());
    }

    /**
     * "Changed since you loaded it: Bob saved version 7 at 10:03; you loaded version 5", for my delete on a stale
     * version.
     */
    public String changedSinceLoaded(Customer theirs, long baseVersion) {
        When w = when(theirs.updatedAt());
        return tr("Changed since you loaded it: {0} saved version {1}"
                + "{2, select, today { at {3}} day { on {4} at {3}} other {}}; you loaded version {5}",
                who(theirs.updatedBy()), theirs.version(), w.kind, w.time, w.date, baseVersion);
    }

    /**
     * "Changed again: Carol saved version 9 at 10:05, after the version 7 you decided on", when Delete anyway found
     * the record changed once more.
     */
    public String changedWhileDeciding(Customer theirs, long decidedVersion) {
        When w = when(theirs.updatedAt());
        return tr("Changed again: {0} saved version {1}{2, select, today { at {3}} day { on {4} at {3}} other {}},"
                + " after the version {5} you decided on", who(theirs.updatedBy()), theirs.version(), w.kind, w.time,
                w.date, decidedVersion);
    }

    /**
     * "This customer was deleted by Alice at 10:04 while you were editing version 5", or "… while you were merging".
     *
     * @param deletion      the history's DELETE entry; empty when the history does not have it (yet)
     * @param editedVersion the version the operator was editing; empty when they were merging (after a refresh)
     */
    public String deleted(Optional<HistoryEntry> deletion, OptionalLong editedVersion) {
        String activity = editedVersion.isPresent() ? "editing" : "merging";
        long version = editedVersion.orElse(0);
        if (deletion.isEmpty()) {
            return tr("This customer was deleted while you were {0, select, editing {editing version {1}}"
                    + " other {merging}}", activity, version);
        }
        When w = when(deletion.get().changedAt());
        return tr("This customer was deleted by {0}{1, select, today { at {2}} day { on {3} at {2}} other {}}"
                + " while you were {4, select, editing {editing version {5}} other {merging}}",
                who(deletion.get().changedBy()), w.kind, w.time, w.date, activity, version);
    }

    /** What a count of saves is relative to: the version loaded, the version merged against, the one decided on. */
    public enum Since {
        /** Since the operator loaded the record (the first merge, the first delete conflict). */
        LOADED,
        /** Since the version the operator merged against (after a refresh in place). */
        MERGED,
        /** Since the version the operator decided on (a delete conflict shown again). */
        DECIDED
    }

    /**
     * How many saves by whom a list of history entries holds: "3 saves since you loaded it: Bob (2), Carol (1)".
     * Writers are listed by their number of saves, most first; ties in the order they first saved.
     *
     * @param entries the history between two versions, oldest first
     * @param since   what the count is relative to
     * @param version the version merged against, for {@link Since#MERGED}
     * @return the sentence; "No saves are recorded since you loaded it" when the list is empty
     */
    public static String savesBetween(List<HistoryEntry> entries, Since since, long version) {
        if (entries.isEmpty()) {
            return switch (since) {
                case LOADED -> tr("No saves are recorded since you loaded it");
                case MERGED -> tr("No saves are recorded since you merged against version {0}", version);
                case DECIDED -> tr("No saves are recorded since you decided");
            };
        }
        int n = entries.size();
        String writers = writers(entries);
        return switch (since) {
            case LOADED -> tr("{0, plural, one {# save} other {# saves}} since you loaded it: {1}", n, writers);
            case MERGED -> tr("{0, plural, one {# save} other {# saves}} since you merged against version {2}: {1}", n,
                    writers, version);
            case DECIDED -> tr("{0, plural, one {# save} other {# saves}} since you decided: {1}", n, writers);
        };
    }

    /**
     * The saves before a deletion: "2 saves since you loaded it: Bob (1), Carol (1), then deleted".
     *
     * @param saves   the history's updates after the version the operator had, oldest first; not empty
     * @param since   what the count is relative to: {@link Since#LOADED} or {@link Since#MERGED}
     * @param version the version merged against, for {@link Since#MERGED}
     */
    public static String savesThenDeleted(List<HistoryEntry> saves, Since since, long version) {
        int n = saves.size();
        String writers = writers(saves);
        return since == Since.MERGED
                ? tr("{0, plural, one {# save} other {# saves}} since you merged against version {2}: {1},"
                        + " then deleted", n, writers, version)
                : tr("{0, plural, one {# save} other {# saves}} since you loaded it: {1}, then deleted", n, writers);
    }

    /** "Bob (2), Carol (1)": the writers, most saves first; only names when there is one save. */
    private static String writers(List<HistoryEntry> entries) {
        Map<String, Integer> byWriter = new LinkedHashMap<>();
        for (HistoryEntry e : entries) {
            byWriter.merge(who(e.changedBy()), 1, Integer::sum);
        }
        StringBuilder out = new StringBuilder();
        List<Map.Entry<String, Integer>> writers = byWriter.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).toList();
        for (int i = 0; i < writers.size(); i++) {
            if (i > 0) {
                out.append(", ");
            }
            out.append(writers.get(i).getKey());
            if (entries.size() > 1) {
                out.append(" (").append(Texts.number(writers.get(i).getValue())).append(')');
            }
        }
        return out.toString();
    }

    /** "2 of 3 conflicts resolved"; when nothing conflicts, a sentence saying every change merged on its own. */
    public static String progress(int resolved, int conflicts) {
        if (conflicts == 0) {
            return tr("No conflicts: every change merged on its own");
        }
        return tr("{0, number} of {1, plural, one {# conflict resolved} other {# conflicts resolved}}", resolved,
                conflicts);
    }

    /** The Base column's heading: "Base: version 5, when you loaded it", or after a refresh what I merged against. */
    public static String baseHeading(long version, boolean refreshed) {
        return refreshed ? tr("Base: version {0}, what you merged against", version)
                : tr("Base: version {0}, when you loaded it", version);
    }

    /** The Mine column's heading: my edits, or after a refresh my merge. */
    public static String mineHeading(boolean refreshed) {
        return refreshed ? tr("Mine: your merge") : tr("Mine: your edits");
    }

    /** The Theirs column's heading: "Theirs: version 7 by Bob"; "Theirs: deleted" when {@code theirs} is null. */
    public static String theirsHeading(Customer theirs) {
        return theirs == null ? tr("Theirs: deleted")
                : tr("Theirs: version {0} by {1}", theirs.version(), who(theirs.updatedBy()));
    }

    /** The Theirs column's heading once the history named who deleted it: "Theirs: deleted by Alice". */
    public static String deletedHeading(HistoryEntry deletion) {
        return tr("Theirs: deleted by {0}", who(deletion.changedBy()));
    }

    /** The Result column's heading: what Save merged, or for a deleted record Re-create, writes. */
    public static String resultHeading(boolean deleted) {
        return deleted ? tr("Result: what Re-create writes") : tr("Result: what Save merged writes");
    }

    /** A writer's name for a sentence: "Someone" when unknown. */
    public static String who(String user) {
        return user == null || user.isBlank() ? tr("Someone") : user;
    }

    /**
     * When something happened, for a sentence's {@code select}: {@code today} (the time alone), {@code day} (the date
     * and the time) or {@code unknown}; the date in the language's {@code dayMonthYear} ("2 Mar 2025").
     */
    private record When(String kind, String time, String date) {
    }

    private When when(Instant at) {
        if (at == null) {
            return new When("unknown", "", "");
        }
        ZonedDateTime local = at.atZone(zone);
        String time = TIME.format(local);
        return local.toLocalDate().equals(today) ? new When("today", time, "")
                : new When("day", time, Texts.language().dayMonthYear().format(local));
    }
}
