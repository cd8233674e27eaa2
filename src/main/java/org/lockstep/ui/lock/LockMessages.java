package org.lockstep.ui.lock;

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

    /** "Locked by Alice until 10:07". */
    public static String lockedBy(LeaseInfo holder, ZoneId zone) {
        return "Locked by " + holder.holder() + " until " + time(holder.expiresAt(), zone);
    }

    /** "You no longer hold the lock — Bob took it at 10:07". */
    public static String takenBy(LeaseInfo holder, ZoneId zone) {
        return "You no longer hold the lock — " + holder.holder() + " took it at " + time(holder.acquiredAt(), zone);
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
