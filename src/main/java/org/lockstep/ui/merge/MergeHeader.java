package org.lockstep.ui.merge;

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
import org.lockstep.domain.Customer;
import org.lockstep.domain.HistoryEntry;

/**
 * The sentences the merge and delete-conflict dialogs put above the fields: who saved which version when, and how
 * many saves by whom came in between. Pure formatting, no JavaFX; times are shown in the operator's zone, as a time
 * of day when it is today and with the date otherwise.
 */
public final class MergeHeader {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm", Locale.ENGLISH);
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("d MMM yyyy", Locale.ENGLISH);

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
        return who(theirs.updatedBy()) + " saved version " + theirs.version() + when(theirs.updatedAt())
                + " while you were editing version " + baseVersion;
    }

    /** "Carol saved version 9 at 10:05 while you were merging against version 7", after a refresh in place. */
    public String savedWhileMerging(Customer theirs, long mergedAgainstVersion) {
        return who(theirs.updatedBy()) + " saved version " + theirs.version() + when(theirs.updatedAt())
                + " while you were merging against version " + mergedAgainstVersion;
    }

    /** "Carol saved version 9 while you were merging — review the new changes": why the dialog changed under you. */
    public String newChangesWhileMerging(Customer theirs) {
        return who(theirs.updatedBy()) + " saved version " + theirs.version()
                + " while you were merging — review the new changes";
    }

    /** "Carol saved version 9 while you were deciding — review the new changes", for the delete conflict. */
    public String newChangesWhileDeciding(Customer theirs) {
        return who(theirs.updatedBy()) + " saved version " + theirs.version()
                + " while you were deciding — review the new changes";
    }

    /**
     * "Changed since you loaded it: Bob saved version 7 at 10:03; you loaded version 5", for my delete on a stale
     * version.
     */
    public String changedSinceLoaded(Customer theirs, long baseVersion) {
        return "Changed since you loaded it: " + who(theirs.updatedBy()) + " saved version " + theirs.version()
                + when(theirs.updatedAt()) + "; you loaded version " + baseVersion;
    }

    /**
     * "Changed again: Carol saved version 9 at 10:05, after the version 7 you decided on", when Delete anyway found
     * the record changed once more.
     */
    public String changedWhileDeciding(Customer theirs, long decidedVersion) {
        return "Changed again: " + who(theirs.updatedBy()) + " saved version " + theirs.version()
                + when(theirs.updatedAt()) + ", after the version " + decidedVersion + " you decided on";
    }

    /**
     * "This customer was deleted by Alice at 10:04 while you were editing version 5".
     *
     * @param deletion the history's DELETE entry; empty when the history does not have it (yet)
     * @param activity what the operator was doing: "editing version 5", "merging"
     */
    public String deleted(Optional<HistoryEntry> deletion, String activity) {
        return deletion.map(d -> "This customer was deleted by " + who(d.changedBy()) + when(d.changedAt())
                + " while you were " + activity)
                .orElse("This customer was deleted while you were " + activity);
    }

    /**
     * How many saves by whom a list of history entries holds: "3 saves since you loaded it: Bob (2), Carol (1)".
     * Writers are listed by their number of saves, most first; ties in the order they first saved.
     *
     * @param entries     the history between two versions, oldest first
     * @param sincePhrase what the count is relative to, e.g. "since you loaded it"
     * @return the sentence; "No saves are recorded since you loaded it" when the list is empty
     */
    public static String savesBetween(List<HistoryEntry> entries, String sincePhrase) {
        if (entries.isEmpty()) {
            return "No saves are recorded " + sincePhrase;
        }
        Map<String, Integer> byWriter = new LinkedHashMap<>();
        for (HistoryEntry e : entries) {
            byWriter.merge(who(e.changedBy()), 1, Integer::sum);
        }
        StringBuilder out = new StringBuilder();
        out.append(entries.size()).append(entries.size() == 1 ? " save " : " saves ").append(sincePhrase).append(": ");
        List<Map.Entry<String, Integer>> writers = byWriter.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).toList();
        for (int i = 0; i < writers.size(); i++) {
            if (i > 0) {
                out.append(", ");
            }
            out.append(writers.get(i).getKey());
            if (entries.size() > 1) {
                out.append(" (").append(writers.get(i).getValue()).append(')');
            }
        }
        return out.toString();
    }

    /** "2 of 3 conflicts resolved"; when nothing conflicts, a sentence saying every change merged on its own. */
    public static String progress(int resolved, int conflicts) {
        if (conflicts == 0) {
            return "No conflicts: every change merged on its own";
        }
        return resolved + " of " + conflicts + (conflicts == 1 ? " conflict" : " conflicts") + " resolved";
    }

    /** The Base column's heading: "Base: version 5, when you loaded it", or after a refresh what I merged against. */
    public static String baseHeading(long version, boolean refreshed) {
        return "Base: version " + version + (refreshed ? ", what you merged against" : ", when you loaded it");
    }

    /** The Mine column's heading: my edits, or after a refresh my merge. */
    public static String mineHeading(boolean refreshed) {
        return refreshed ? "Mine: your merge" : "Mine: your edits";
    }

    /** The Theirs column's heading: "Theirs: version 7 by Bob"; "Theirs: deleted" when {@code theirs} is null. */
    public static String theirsHeading(Customer theirs) {
        return theirs == null ? "Theirs: deleted"
                : "Theirs: version " + theirs.version() + " by " + who(theirs.updatedBy());
    }

    /** The Theirs column's heading once the history named who deleted it: "Theirs: deleted by Alice". */
    public static String deletedHeading(HistoryEntry deletion) {
        return "Theirs: deleted by " + who(deletion.changedBy());
    }

    /** The Result column's heading: what Save merged, or for a deleted record Re-create, writes. */
    public static String resultHeading(boolean deleted) {
        return deleted ? "Result: what Re-create writes" : "Result: what Save merged writes";
    }

    /** A writer's name for a sentence: "Someone" when unknown. */
    public static String who(String user) {
        return user == null || user.isBlank() ? "Someone" : user;
    }

    /** " at 10:03" for a time today, " on 2 Mar 2025 at 10:03" otherwise; empty when unknown. */
    String when(Instant at) {
        if (at == null) {
            return "";
        }
        ZonedDateTime local = at.atZone(zone);
        String time = " at " + TIME.format(local);
        return local.toLocalDate().equals(today) ? time : " on " + DATE.format(local) + time;
    }
}
