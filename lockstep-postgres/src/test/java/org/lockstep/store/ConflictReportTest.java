package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.editing.CustomerEditing;
import org.lockstep.editing.MergeSave;
import org.lockstep.report.ConflictReport;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * The conflict report's counts on a seeded history (issue 15): today's events through the real code paths (a save
 * that hits zero rows, a merge saved, a merge abandoned, a refused lease, a broken lease, a lab run's exhausted
 * retries), two days ago and forty days ago by direct inserts with known timestamps. Every column is asserted.
 */
@DatabaseTest
class ConflictReportTest {

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository alice;
    static JdbiCustomerRepository bob;
    static Customer hot;
    static Customer calm;
    static Customer old;
    static LocalDate today;

    @BeforeAll
    static void seed() {
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-" + UUID.randomUUID());
        bob = new JdbiCustomerRepository(db.jdbi(), "Bob", "bob-" + UUID.randomUUID());
        hot = alice.create(aCustomer().with(CustomerField.COMPANY, "Hot Harbour Ltd")
                .with(CustomerField.EXTERNAL_REF, "REP-1").build());
        calm = alice.create(aCustomer().with(CustomerField.COMPANY, "Calm Coast AB")
                .with(CustomerField.EXTERNAL_REF, "REP-2").build());
        old = alice.create(aCustomer().with(CustomerField.COMPANY, "Old Quarrel SA")
                .with(CustomerField.EXTERNAL_REF, "REP-3").build());
        OffsetDateTime now = db.jdbi().withHandle(h -> h.createQuery("SELECT now()").mapTo(OffsetDateTime.class).one());
        today = now.withOffsetSameInstant(ZoneOffset.UTC).toLocalDate();

        // Today, through the code paths that record them.
        Customer v2 = ((SaveOutcome.Saved) alice.save(hot.id(), 1, hot.data().with(CustomerField.CITY, "Leith")))
                .saved();
        assertThat(bob.save(hot.id(), 1, hot.data().with(CustomerField.PHONE, "+44 131 496 0000")))
                .isInstanceOf(SaveOutcome.Conflict.class);
        assertThat(new CustomerEditing(bob).mergeAndSave(hot, hot.data().with(CustomerField.PHONE,
                "+44 131 496 0000"), v2, 1)).isInstanceOf(MergeSave.Saved.class);
        new CustomerEditing(alice).mergeAbandoned(hot.id());
        JdbiLeaseRepository aliceLeases = new JdbiLeaseRepository(db.jdbi(), "Alice", alice.sessionId());
        assertThat(aliceLeases.acquire(calm.id(), 60_000)).isInstanceOf(AcquireOutcome.Granted.class);
        assertThat(new JdbiLeaseRepository(db.jdbi(), "Bob", bob.sessionId()).acquire(calm.id(), 60_000))
                .isInstanceOf(AcquireOutcome.HeldByOther.class);
        assertThat(new JdbiLeaseRepository(db.jdbi(), "Carol", "carol-1").breakLease(calm.id())).isPresent();
        new JdbiLabStore(db.jdbi(), () -> {}).recordRetriesExhausted("optimistic", 3);

        // Two days ago, at known times (UTC).
        OffsetDateTime d2 = today.minusDays(2).atTime(9, 0).atOffset(ZoneOffset.UTC);
        conflict(hot.id(), d2, "Carol", "save");
        conflict(hot.id(), d2.plusMinutes(5), "Carol", "save");
        conflict(hot.id(), d2.plusMinutes(10), "Carol", "delete");
        for (int v = 0; v < 4; v++) {
            history(calm.id(), 100 + v, d2.plusMinutes(v));
        }
        grant(calm.id(), 900, "Dave", d2, d2.plusHours(1)); // lapsed: no release, no break
        grant(calm.id(), 901, "Eve", d2.plusHours(2), d2.plusHours(3));
        leaseEvent(calm.id(), 901, "Eve", "released", d2.plusHours(3));
        grant(calm.id(), 902, "Fay", d2.plusHours(4), d2.plusHours(5)); // superseded by 903: no lapse
        grant(calm.id(), 903, "Fay", d2.plusHours(5), d2.plusHours(6)); // lapsed
        grant(calm.id(), 904, "Gus", d2.plusHours(7), d2.plusHours(8));
        leaseEvent(calm.id(), 904, "Gus", "broken", d2.plusHours(8));
        // Forty days ago: outside a 30-day report, inside a 60-day one.
        conflict(old.id(), today.minusDays(40).atTime(9, 0).atOffset(ZoneOffset.UTC), "Hal", "save");
    }

    static void conflict(long id, OffsetDateTime at, String who, String kind) {
        db.jdbi().useHandle(h -> h.createUpdate("INSERT INTO customer_conflict (customer_id, detected_at, detected_by,"
                + " kind) VALUES (:id, :at, :who, :kind)").bind("id", id).bind("at", at).bind("who", who)
                .bind("kind", kind).execute());
    }

    static void history(long id, long version, OffsetDateTime at) {
        db.jdbi().useHandle(h -> h.createUpdate("INSERT INTO customer_history (customer_id, version, op, changed_by,"
                + " changed_at, new_row) VALUES (:id, :v, 'UPDATE', 'Ivy', :at, '{}')").bind("id", id)
                .bind("v", version)
                .bind("at", at).execute());
    }

    static void grant(long id, long token, String holder, OffsetDateTime at, OffsetDateTime expires) {
        db.jdbi().useHandle(h -> h.createUpdate("INSERT INTO lease_event (record_id, token, holder, event, actor, at,"
                + " expires_at) VALUES (:id, :token, :holder, 'acquired', :holder, :at, :expires)").bind("id", id)
                .bind("token", token).bind("holder", holder).bind("at", at).bind("expires", expires).execute());
    }

    static void leaseEvent(long id, long token, String holder, String event, OffsetDateTime at) {
        db.jdbi().useHandle(h -> h.createUpdate("INSERT INTO lease_event (record_id, token, holder, event, actor, at)"
                + " VALUES (:id, :token, :holder, :event, :holder, :at)").bind("id", id).bind("token", token)
                .bind("holder", holder).bind("event", event).bind("at", at).execute());
    }

    @Test
    void everyDayHasEveryColumnCountedFromWhatTheDatabaseRecorded() {
        ConflictReport report = new JdbiConflictReports(db.jdbi()).read(30, ZoneOffset.UTC);

        assertThat(report.from()).isEqualTo(today.minusDays(29));
        assertThat(report.to()).isEqualTo(today);
        assertThat(report.daysList()).hasSize(30);
        assertThat(report.daysList().get(29)).isEqualTo(new ConflictReport.Day(today, 2, 1, 1, 1, 1, 1, 0, 3));
        assertThat(report.daysList().get(27)).isEqualTo(new ConflictReport.Day(today.minusDays(2), 4, 2, 0, 0, 0, 1,
                2, 0));
        assertThat(report.daysList().subList(0, 27)).allSatisfy(d -> assertThat(d)
                .isEqualTo(ConflictReport.Day.empty(d.day())));
        assertThat(report.daysList().get(28)).isEqualTo(ConflictReport.Day.empty(today.minusDays(1)));
        assertThat(report.total()).isEqualTo(new ConflictReport.Day(today, 6, 3, 1, 1, 1, 2, 2, 3));
        assertThat(report.daysList().get(29).conflictRate()).isEqualTo(1.0 / 3);
    }

    @Test
    void theCustomersWithMostConflictsNameWhoMetThemAndTheirSaves() {
        ConflictReport report = new JdbiConflictReports(db.jdbi()).read(30, ZoneOffset.UTC);

        assertThat(report.customers()).containsExactly(new ConflictReport.CustomerConflicts(hot.id(),
                "Hot Harbour Ltd", 4, 2, List.of("Carol", "Bob")));
        assertThat(new JdbiConflictReports(db.jdbi()).read(60, ZoneOffset.UTC).customers())
                .extracting(ConflictReport.CustomerConflicts::customerId, ConflictReport.CustomerConflicts::metBy)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(hot.id(), List.of("Carol", "Bob")),
                        org.assertj.core.groups.Tuple.tuple(old.id(), List.of("Hal")));
    }

    @Test
    void aCustomerAtTheHotRecordThresholdGetsTheEditorsAdviceAsAnAlertLine() {
        ConflictReport report = new JdbiConflictReports(db.jdbi()).read(1, ZoneOffset.UTC);

        assertThat(report.daysList()).hasSize(1);
        assertThat(report.alerts()).containsExactly(new ConflictReport.HotAlert(hot.id(), "Hot Harbour Ltd", 4,
                "Hot record: customer " + hot.id() + " (Hot Harbour Ltd) — 4 conflicts on this customer in the last"
                        + " 7 days — consider Lock for editing"));
    }

    @Test
    void theEventsKeepTheWritersSessionAndTheMergedVersion() {
        List<String> rows = db.jdbi().withHandle(h -> h.createQuery("SELECT kind || ' ' || operator || ' '"
                + " || coalesce(session_id, '-') || ' ' || coalesce(version::text, '-') || ' ' || count"
                + " FROM conflict_event ORDER BY id").mapTo(String.class).list());

        assertThat(rows).containsExactly("merge_saved Bob " + bob.sessionId() + " 3 1",
                "merge_abandoned Alice " + alice.sessionId() + " - 1",
                "lease_wait Bob " + bob.sessionId() + " - 1",
                "lab_retries_exhausted " + db.jdbi().withHandle(h -> h.createQuery("SELECT session_user")
                        .mapTo(String.class).one()) + " - - 3");
        List<String> sessions = db.jdbi().withHandle(h -> h.createQuery("SELECT session_id FROM customer_conflict"
                + " WHERE detected_by = 'Bob'").mapTo(String.class).list());
        assertThat(sessions).containsExactly(bob.sessionId());
    }
}
