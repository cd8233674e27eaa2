package org.lockstep.editing.timeline;

import static org.lockstep.text.Texts.tr;

import java.time.Instant;
import java.util.Objects;
import org.lockstep.domain.UnicodeText;

/**
 * One event of a record's timeline: who did what to the record, when, and who knows it — the database (a history row,
 * a lease event, a conflict row, or an expiry the database judged) or only the client that did it (a read, a save
 * the database refused without recording it).
 *
 * @param at         when: the database clock for {@link Source#DATABASE}, the client's clock for {@link Source#CLIENT}
 * @param lane       the operator (or, for what the database did by itself, {@link Timeline#DATABASE})
 * @param customerId the customer concerned (a re-created customer has another id)
 * @param kind       what happened
 * @param label      a short text for the arrow: "v4 saved", "0 rows: conflict", "refused: stale token 2 &lt; 3"
 * @param detail     a longer line under it: the fields changed, a token's expiry, a lost value; may be empty
 * @param source     who recorded it
 * @param version    the version read or written, 0 when none
 * @param alarm      a lost update, a refusal or a conflict: drawn in red
 */
public record TimelineEvent(Instant at, String lane, long customerId, Kind kind, String label, String detail,
        Source source, long version, boolean alarm) {

    /** Who recorded an event. */
    public enum Source {
        /** A row the database wrote, or an expiry it judged by its clock. */
        DATABASE,
        /** Only the client knows: the database keeps no row of it. */
        CLIENT
    }

    /** How an event is drawn: an arrow to the database, one from it, or a box on the database's lane. */
    public enum Shape {
        TO_DATABASE, FROM_DATABASE, ON_DATABASE
    }

    /** What happened. */
    public enum Kind {
        CREATED, RECREATED, READ, SAVED, MERGED, CONFLICT, REFUSED, DELETED,
        LEASE_GRANTED, LEASE_TAKEN_OVER, LEASE_RELEASED, LEASE_BROKEN, LEASE_LAPSED, LEASE_LOST;

        /** How events of this kind are drawn. */
        public Shape shape() {
            return this == READ ? Shape.FROM_DATABASE : this == LEASE_LAPSED ? Shape.ON_DATABASE : Shape.TO_DATABASE;
        }

        /** Whether this is a lease event. */
        public boolean lease() {
            return name().startsWith("LEASE_");
        }
    }

    /** Checks the texts; the lane (an operator's name) is kept in NFC. */
    public TimelineEvent {
        Objects.requireNonNull(at, "at");
        // One operator is one lane whichever Unicode form their desk gave the name in (NFD from a macOS keyboard).
        lane = UnicodeText.nfc(Objects.requireNonNull(lane, "lane"));
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(label, "label");
        detail = detail == null ? "" : detail;
        Objects.requireNonNull(source, "source");
    }

    /**
     * A client's read: its editor now holds {@code version} ("Bob loaded v3"). The database keeps no row of reads.
     *
     * @param at the client's clock
     */
    public static TimelineEvent loaded(Instant at, String who, long customerId, long version) {
        return new TimelineEvent(at, who, customerId, Kind.READ, tr("{0} loaded v{1}", who, version), "",
                Source.CLIENT, version, false);
    }

    /**
     * A save under a lease that the database refused because its fencing token is no longer the record's lease
     * ("refused: stale token 2 &lt; 3"). A refused save writes nothing, so only the client knows of it.
     *
     * @param staleToken   the token the save carried
     * @param currentToken the record's lease now, or 0 when nobody holds it
     */
    public static TimelineEvent refused(Instant at, String who, long customerId, long staleToken, long currentToken) {
        String label = currentToken > 0 ? tr("refused: stale token {0} < {1}", staleToken, currentToken)
                : tr("refused: token {0} has lapsed", staleToken);
        return new TimelineEvent(at, who, customerId, Kind.REFUSED, label,
                tr("0 rows: its fencing token is no longer the lease"), Source.CLIENT, 0, true);
    }

    /** The same event with another detail line and in red. */
    TimelineEvent alarmed(String newDetail) {
        return new TimelineEvent(at, lane, customerId, kind, label, newDetail, source, version, true);
    }

    /** The same event as another kind with another label. */
    TimelineEvent as(Kind newKind, String newLabel, String newDetail) {
        return new TimelineEvent(at, lane, customerId, newKind, newLabel, newDetail, source, version, alarm);
    }
}
