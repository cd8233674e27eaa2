package org.lockstep.editing;

import static org.lockstep.text.Texts.tr;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.lockstep.domain.LeaseInfo;

/** The sentences the lock UI shows, with times from the database clock in the operator's time zone. */
public final class LockMessages {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss"); // seconds: leases may last 15 s (the demo)

    private LockMessages() {
    }

    /**
     * "Alice is editing this customer (since 10:02). You can read it, and edit it once they are done." Not the
     * lease's expiry: it moves on with every renewal, so to an operator it only looked like a promise it is not.
     */
    public static String heldByOther(LeaseInfo holder, ZoneId zone) {
        return tr("{0} is editing this customer (since {1}). You can read it, and edit it once they are done.",
                holder.holder(), time(holder.acquiredAt(), zone));
    }

    /**
     * "You are editing this customer in another window (since 10:02). Save there, or Release there to edit here."
     * The banner of an editor whose operator holds the lease in another of their editors.
     */
    public static String heldInAnotherWindow(LeaseInfo holder, ZoneId zone) {
        return tr("You are editing this customer in another window (since {0}). Save there, or Release there to "
                + "edit here.", time(holder.acquiredAt(), zone));
    }

    /**
     * "Alice is editing this customer (since 10:02)", or "You are editing this customer in another window (since
     * 10:02)" when it is mine elsewhere: why a save or delete was refused, in the words the lock bar uses.
     */
    public static String lockedBy(LeaseInfo holder, boolean inAnotherWindow, ZoneId zone) {
        return inAnotherWindow
                ? tr("You are editing this customer in another window (since {0})", time(holder.acquiredAt(), zone))
                : tr("{0} is editing this customer (since {1})", holder.holder(), time(holder.acquiredAt(), zone));
    }

    /** "Alice is editing this customer (since 10:02)". */
    public static String lockedBy(LeaseInfo holder, ZoneId zone) {
        return lockedBy(holder, false, zone);
    }

    /** "You no longer hold the lock — Bob took it at 10:07". */
    public static String takenBy(LeaseInfo holder, ZoneId zone) {
        return tr("You no longer hold the lock — {0} took it at {1}", holder.holder(), time(holder.acquiredAt(), zone));
    }

    /** "You no longer hold the lock here — you took it in another window at 10:07". */
    public static String takenInAnotherWindow(LeaseInfo holder, ZoneId zone) {
        return tr("You no longer hold the lock here — you took it in another window at {0}",
                time(holder.acquiredAt(), zone));
    }

    /** "Lock released from another window — your edits are kept. Lock again to continue." */
    public static String releasedFromAnotherWindow() {
        return tr("Lock released from another window — your edits are kept. Lock again to continue.");
    }

    /** "Edit lock lost — Bob broke your lock at 10:07". */
    public static String brokenBy(String actor, Instant at, ZoneId zone) {
        return tr("Edit lock lost — {0} broke your lock at {1}", actor, time(at, zone));
    }

    /** A setting's length as the operator gave it, in the current language: "15 minutes", "1 minute", "90 s", "2 h". */
    static String duration(Duration d) {
        long s = d.toSeconds();
        if (s % 3_600 == 0) {
            return s / 3_600 + " h";
        }
        if (s % 60 == 0) {
            return tr("{0, plural, one {# minute} other {# minutes}}", s / 60);
        }
        return s + " s";
    }

    static String time(Instant at, ZoneId zone) {
        return TIME.format(at.atZone(zone));
    }
}
