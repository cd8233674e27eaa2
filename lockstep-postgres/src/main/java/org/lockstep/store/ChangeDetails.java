package org.lockstep.store;

import java.sql.Array;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.lockstep.domain.ChangeDetail;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.CustomerField;

/**
 * Reads, for a batch of change notifications, what the database recorded about each: the customer history row of
 * that version and operation (V2; since V16 an update stores its new row only, so the fields it changed are found by
 * comparing it with the version before it), or the lease's audit entry for that fencing token (V3). One query
 * per kind per batch, each row found through an index ({@code customer_history (customer_id, version)},
 * {@code lease_event (record_id, id)}), so a burst of notifications costs two round trips, not one per change.
 */
public final class ChangeDetails {

    private static final String CUSTOMERS = """
            SELECT e.ord, cur.changed_by, cur.changed_at,
                   coalesce(cur.new_row, cur.old_row) ->> 'company' AS company,
                   (SELECT array_agg(n.key) FROM jsonb_each(cur.new_row) n
                    WHERE cur.op = 'UPDATE' AND n.value IS DISTINCT FROM
                          coalesce(cur.old_row, prev.new_row) -> n.key) AS changed
            FROM unnest(:ids, :versions, :ops) WITH ORDINALITY AS e(id, version, op, ord)
            CROSS JOIN LATERAL (SELECT h.id, h.op, h.changed_by, h.changed_at, h.old_row, h.new_row
                                FROM customer_history h
                                WHERE h.customer_id = e.id AND h.version = e.version AND h.op = e.op
                                ORDER BY h.id DESC LIMIT 1) cur
            LEFT JOIN LATERAL (SELECT p.new_row FROM customer_history p
                               WHERE p.customer_id = e.id AND p.version < e.version AND p.id < cur.id
                               ORDER BY p.version DESC, p.id DESC LIMIT 1) prev ON cur.op = 'UPDATE'
            """;

    /**
     * The trail entries of the given grants after the given entry ids, oldest first, and each lease's state now. A
     * loss recorded by the holder's client ({@code lost}) is left out: it writes no lease row, so no notification
     * announces it, and handed out in order it would take the place of the break or release a later notification of
     * the same grant announced.
     */
    private static final String LEASES = """
            SELECT e.id AS record_id, e.token, le.id AS entry, le.event, le.actor, le.holder, le.at,
                   l.token AS current_token, l.ended, l.expires_at
            FROM unnest(:ids, :tokens, :after) AS e(id, token, after)
            LEFT JOIN LATERAL (SELECT x.id, x.event, x.actor, x.holder, x.at FROM lease_event x
                               WHERE x.record_id = e.id AND x.token = e.token AND x.id > e.after
                                 AND x.event <> 'lost'
                               ORDER BY x.id LIMIT 100) le ON true
            LEFT JOIN record_lease l ON l.record_id = e.id
            ORDER BY e.id, e.token, le.id
            """;

    /** How many grants' trail positions are remembered; older ones start again from the mark. */
    private static final int REMEMBERED_GRANTS = 10_000;

    private final Jdbi jdbi;
    /** Per grant (customer id, token): the last trail entry printed; entries at or before it are not news. */
    private final Map<List<Long>, Long> printed = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<Long>, Long> eldest) {
            return size() > REMEMBERED_GRANTS;
        }
    };
    /** Trail entries at or before it are history, not news; moved to the trail's end after a resync. */
    private long mark;

    /**
     * Reads the lease trail's current end as the mark: trail entries written before it are history, not news, never
     * handed to a notification heard later.
     *
     * @param jdbi the database
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be read
     */
    public ChangeDetails(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.mark = DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(
                "SELECT coalesce(max(id), 0) FROM lease_event").mapTo(Long.class).one()));
    }

    /**
     * Moves every grant's trail position to the trail's current end, after a lost connection: the resync prints the
     * leases in force from the database, so the entries written while disconnected are not news any more. A
     * notification heard later is then handed only an entry written after this call — a lock taken while
     * disconnected and broken after the reconnection is told as broken, never as the older "acquired" entry. Call it
     * before reading the leases in force, so that an entry written between the two is printed twice rather than
     * never.
     *
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be read
     */
    public void skipToTrailEnd() {
        long end = DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(
                "SELECT coalesce(max(id), 0) FROM lease_event").mapTo(Long.class).one()));
        printed.clear();
        mark = end;
    }

    /**
     * The details of each change in {@code events}, in the same order: present for the customer and lease changes
     * the database still records, empty for other tables, {@code MANY} events and changes whose trail is gone.
     *
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be read
     */
    public List<Optional<ChangeDetail>> of(List<ChangeEvent> events) {
        List<ChangeEvent> customers = events.stream().filter(e -> e.isCustomer() && !e.isManyCustomers()).toList();
        List<ChangeEvent> leases = events.stream().filter(ChangeEvent::isLease).toList();
        // Keyed by identity: two notifications may be equal (a grant and its break, both "token 2 UPDATE").
        Map<ChangeEvent, ChangeDetail> details = new IdentityHashMap<>();
        if (customers.isEmpty() && leases.isEmpty()) {
            return events.stream().map(e -> Optional.<ChangeDetail>empty()).toList();
        }
        DatabaseCalls.read(() -> jdbi.withHandle(h -> {
            if (!customers.isEmpty()) {
                h.createQuery(CUSTOMERS)
                        .bindArray("ids", Long.class, customers.stream().map(ChangeEvent::id).toList())
                        .bindArray("versions", Long.class, customers.stream().map(ChangeEvent::version).toList())
                        .bindArray("ops", String.class, customers.stream().map(ChangeEvent::op).toList())
                        .map((rs, ctx) -> {
                            ChangeEvent e = customers.get(rs.getInt("ord") - 1);
                            Array changed = rs.getArray("changed");
                            List<CustomerField> fields = changed == null ? List.of()
                                    : fieldsInFormOrder((String[]) changed.getArray());
                            return Map.entry(e, new ChangeDetail(rs.getString("changed_by"),
                                    Optional.of(rs.getObject("changed_at", OffsetDateTime.class).toInstant()), fields,
                                    Optional.ofNullable(rs.getString("company")), Optional.empty()));
                        }).forEach(en -> details.put(en.getKey(), en.getValue()));
            }
            if (!leases.isEmpty()) {
                details.putAll(leaseSteps(h, leases));
            }
            return null;
        }));
        return events.stream().map(e -> Optional.ofNullable(details.get(e))).toList();
    }

    /**
     * Tells each lease notification the trail entry it announced. A notification carries only the grant's token, and
     * by the time it is read the grant may already have been released or broken; so the grant's unprinted entries
     * are handed out in order, one per notification of that grant. Grants, releases and breaks each write one entry
     * and one notification; a renewal writes no entry and is not announced (V4); a client's record of a loss writes
     * an entry and no notification, and is not handed out. The expiry is told only while the
     * grant is still in force: an ended grant's entry holds its end, not the expiry it had.
     */
    private Map<ChangeEvent, ChangeDetail> leaseSteps(org.jdbi.v3.core.Handle h, List<ChangeEvent> leases) {
        List<List<Long>> grants = leases.stream().map(e -> List.of(e.id(), e.version())).distinct().toList();
        Map<List<Long>, Deque<Entry>> unprinted = new HashMap<>();
        h.createQuery(LEASES)
                .bindArray("ids", Long.class, grants.stream().map(g -> g.get(0)).toList())
                .bindArray("tokens", Long.class, grants.stream().map(g -> g.get(1)).toList())
                .bindArray("after", Long.class, grants.stream().map(g -> printed.getOrDefault(g, mark)).toList())
                .map((rs, ctx) -> {
                    List<Long> grant = List.of(rs.getLong("record_id"), rs.getLong("token"));
                    boolean current = rs.getObject("current_token") != null
                            && rs.getLong("current_token") == grant.get(1) && rs.getString("ended") == null;
                    OffsetDateTime expires = current ? rs.getObject("expires_at", OffsetDateTime.class) : null;
                    if (rs.getObject("entry") == null) {
                        return null;
                    }
                    OffsetDateTime at = rs.getObject("at", OffsetDateTime.class);
                    return Map.entry(grant, new Entry(rs.getLong("entry"), rs.getString("event"),
                            rs.getString("actor"), rs.getString("holder"), at, expires));
                }).forEach(en -> {
                    if (en != null) {
                        unprinted.computeIfAbsent(en.getKey(), g -> new ArrayDeque<>()).add(en.getValue());
                    }
                });
        Map<ChangeEvent, ChangeDetail> steps = new IdentityHashMap<>();
        for (ChangeEvent e : leases) {
            List<Long> grant = List.of(e.id(), e.version());
            Entry entry = Optional.ofNullable(unprinted.get(grant)).map(Deque::poll).orElse(null);
            if (entry != null) {
                printed.put(grant, entry.id());
                steps.put(e, entry.detail());
            } else if ("DELETE".equals(e.op())) {
                // The lease row goes with its customer (ON DELETE CASCADE), leaving no trail entry.
                steps.put(e, new Entry(0, "removed", "", "", null, null).detail());
            }
        }
        return steps;
    }

    /** One lease trail entry, or (id 0, no time) "removed": the lease row went with its customer. */
    private record Entry(long id, String event, String actor, String holder, OffsetDateTime at,
            OffsetDateTime expiresAt) {

        ChangeDetail detail() {
            Optional<Instant> expiry = Optional.ofNullable(expiresAt).map(OffsetDateTime::toInstant)
                    .filter(t -> event.equals("acquired") || event.equals("expired_takeover"));
            return new ChangeDetail(holder, Optional.ofNullable(at).map(OffsetDateTime::toInstant), List.of(),
                    Optional.empty(), Optional.of(new ChangeDetail.LeaseStep(event, actor, holder, expiry)));
        }
    }

    private static List<CustomerField> fieldsInFormOrder(String[] columns) {
        List<CustomerField> fields = new ArrayList<>();
        for (CustomerField f : CustomerField.values()) {
            for (String c : columns) {
                if (f.column().equals(c)) {
                    fields.add(f);
                }
            }
        }
        return fields;
    }
}
