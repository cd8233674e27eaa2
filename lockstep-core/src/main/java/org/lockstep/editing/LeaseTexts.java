package org.lockstep.editing;

import static org.lockstep.text.Texts.tr;

import java.time.ZoneId;
import java.util.Optional;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseRepository;

/** What a {@link LeaseSession} says: the banner for each state and why a lease was lost. */
final class LeaseTexts {

    private final LeaseRepository leases;
    private final ZoneId zone;

    LeaseTexts(LeaseRepository leases, ZoneId zone) {
        this.leases = leases;
        this.zone = zone;
    }

    String describe(LockState s) {
        if (s instanceof LockState.HeldByOther other) {
            return LockMessages.heldByOther(other.holder(), zone);
        }
        if (s instanceof LockState.HeldInAnotherWindow there) {
            return LockMessages.heldInAnotherWindow(there.holder(), zone);
        }
        if (s instanceof LockState.Lost lost) {
            return lost.message();
        }
        if (s instanceof LockState.Held held) {
            // The fencing token is the mechanism's word: the timeline and the CLI show it, the operator needs not.
            return tr("Locked for you until {0} (renewed while you edit) — others can read but not edit",
                    LockMessages.time(held.lease().expiresAt(), zone));
        }
        if (s instanceof LockState.Acquiring) {
            return tr("Locking…");
        }
        return "";
    }

    /** "Could not lock: …" with why. */
    static String lockFailed(Throwable failure) {
        return tr("Could not lock: {0}", failure.getMessage());
    }

    /** The lease was asked for a customer that is gone. */
    static String noSuchCustomer() {
        return tr("Could not lock: this customer no longer exists");
    }

    /** "Could not release the lock: …" with why. */
    static String releaseFailed(Throwable failure) {
        return tr("Could not release the lock: {0}", failure.getMessage());
    }

    /** "Could not break the lock: …" with why. */
    static String breakFailed(Throwable failure) {
        return tr("Could not break the lock: {0}", failure.getMessage());
    }

    /** The lease is gone and the database could not say how. */
    static String unreachable() {
        return tr("Edit lock lost — the database could not be reached; your edits are kept");
    }

    /** Why the lease is gone, naming who holds the record now, when someone other than this editor does. */
    String lostTo(Optional<LeaseInfo> current) {
        return current.filter(h -> !h.sessionId().equals(leases.sessionId()))
                .map(h -> WriterIds.anotherWriterOfMyClient(h.sessionId(), leases.sessionId())
                        ? LockMessages.takenInAnotherWindow(h, zone) : LockMessages.takenBy(h, zone))
                .orElseGet(() -> tr("Edit lock lost — your edits are kept"));
    }

    /** How the lease with {@code token} ended: broken by whom and when, else taken by whom. Blocking. */
    String lossReason(long id, long token, Optional<LeaseInfo> current) {
        Optional<LeaseEvent> broken = leases.events(id).stream()
                .filter(e -> e.kind() == LeaseEvent.Kind.BROKEN && e.token() == token).findFirst();
        return broken.map(b -> LockMessages.brokenBy(b.actor(), b.at(), zone)).orElseGet(() -> lostTo(current));
    }
}
