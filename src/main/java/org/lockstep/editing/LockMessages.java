package org.lockstep.editing;

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

    /** "Alice is editing this customer — locked since 10:02, until 10:07 unless renewed". */
    public static String heldByOther(LeaseInfo holder, ZoneId zone) {
        return holder.holder() + " is editing this customer — locked since " + time(holder.acquiredAt(), zone)
                + ", until " + time(holder.expiresAt(), zone) + " unless renewed";
    }

    /**
     * "Locked by you in another window — since 10:02, until 10:07 unless renewed. Save there, or Release there to
     * edit here." The banner of an editor whose operator holds the lease in another of their editors.
     */
    public static String heldInAnotherWindow(LeaseInfo holder, ZoneId zone) {
        return "Locked by you in another window — since " + time(holder.acquiredAt(), zone) + ", until "
                + time(holder.expiresAt(), zone) + " unless renewed. Save there, or Release there to edit here.";
    }

    /** "Locked by Alice until 10:07", or "Locked by you in another window until 10:07" when it is mine elsewhere. */
    public static String lockedBy(LeaseInfo holder, boolean inAnotherWindow, ZoneId zone) {
        return "Locked by " + (inAnotherWindow ? "you in another window" : holder.holder()) + " until "
                + time(holder.expiresAt(), zone);
    }

    /** "Locked by Alice until 10:07". */
    public static String lockedBy(LeaseInfo holder, ZoneId zone) {
        return lockedBy(holder, false, zone);
    }

    /** "You no longer hold the lock — Bob took it at 10:07". */
    public static String takenBy(LeaseInfo holder, ZoneId zone) {
        return "You no longer hold the lock — " + holder.holder() + " took it at " + time(holder.acquiredAt(), zone);
    }

    /** "You no longer hold the lock here — you took it in another window at 10:07". */
    public static String takenInAnotherWindow(LeaseInfo holder, ZoneId zone) {
        return "You no longer hold the lock here — you took it in another window at "
                + time(holder.acquiredAt(), zone);
    }

    /** "Lock released from another window — your edits are kept. Lock again to continue." */
    public static String releasedFromAnotherWindow() {
        return "Lock released from another window — your edits are kept. Lock again to continue.";
    }

    /** "Edit lock lost — Bob broke your lock at 10:07". */
    public static String brokenBy(String actor, Instant at, ZoneId zone) {
        return "Edit lock lost — " + actor + " broke your lock at " + time(at, zone);
    }

    /** A setting's length as the operator gave it: "15 minutes", "1 minute", "90 s", "2 h". */
    static String duration(Duration d) {
        long s = d.toSeconds();
        if (s % 3_600 == 0) {
            return s / 3_600 + " h";
        }
        if (s % 60 == 0) {
            return s / 60 == 1 ? "1 minute" : s / 60 + " minutes";
        }
        return s + " s";
    }

    static String time(Instant at, ZoneId zone) {
        return TIME.format(at.atZone(zone));
    }
}
