package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.HotRecordAdvice;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * Hot-record advice's counting on a real database: every versioned save or delete that meets a newer version leaves
 * one row in {@code customer_conflict}, read back here; nothing else does.
 */
@DatabaseTest
class CustomerConflictLogTest {

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository alice;
    static JdbiCustomerRepository bob;
    static int refs;

    record Row(long customerId, String detectedBy, String kind, OffsetDateTime detectedAt) {
    }

    @BeforeAll
    static void open() {
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        bob = new JdbiCustomerRepository(db.jdbi(), "Bob");
    }

    static Customer aCustomerAtVersionTwo() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HOT-" + ++refs).build());
        return ((SaveOutcome.Saved) alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Curitiba"))).saved();
    }

    static List<Row> rows(long customerId) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT customer_id, detected_by, kind, detected_at"
                + " FROM customer_conflict WHERE customer_id = :id ORDER BY id").bind("id", customerId)
                .map((rs, ctx) -> new Row(rs.getLong(1), rs.getString(2), rs.getString(3),
                        rs.getObject(4, OffsetDateTime.class)))
                .list());
    }

    static OffsetDateTime databaseNow() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT now()").mapTo(OffsetDateTime.class).one());
    }

    static void insertConflict(long customerId, String age) {
        db.jdbi().useHandle(h -> h.createUpdate("INSERT INTO customer_conflict (customer_id, detected_at,"
                + " detected_by, kind) VALUES (:id, now() - CAST(:age AS interval), 'Carol', 'save')")
                .bind("id", customerId).bind("age", age).execute());
    }

    @Test
    void aSaveThatMeetsANewerVersionRecordsOneSaveConflictByItsWriter() {
        Customer c = aCustomerAtVersionTwo();
        OffsetDateTime before = databaseNow();

        SaveOutcome outcome = bob.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+55 22 2222-2222"));

        assertThat(outcome).isInstanceOf(SaveOutcome.Conflict.class);
        assertThat(((SaveOutcome.Conflict) outcome).theirs()).contains(c);
        List<Row> rows = rows(c.id());
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).detectedBy()).isEqualTo("Bob");
        assertThat(rows.get(0).kind()).isEqualTo("save");
        assertThat(rows.get(0).detectedAt()).isAfterOrEqualTo(before).isBeforeOrEqualTo(databaseNow());
        assertThat(bob.recentConflicts(c.id(), HotRecordAdvice.WINDOW)).isEqualTo(1);
    }

    @Test
    void aDeleteThatMeetsANewerVersionRecordsOneDeleteConflictAndStillReturnsTheirs() {
        Customer c = aCustomerAtVersionTwo();

        DeleteOutcome outcome = bob.delete(c.id(), 1);

        assertThat(outcome).isEqualTo(new DeleteOutcome.Conflict(java.util.Optional.of(c)));
        assertThat(rows(c.id())).extracting(Row::kind, Row::detectedBy).containsExactly(
                org.assertj.core.groups.Tuple.tuple("delete", "Bob"));
        assertThat(alice.find(c.id())).contains(c);
    }

    @Test
    void successfulSavesAndDeletesRecordNothing() {
        Customer c = aCustomerAtVersionTwo();

        SaveOutcome saved = bob.save(c.id(), 2, c.data().with(CustomerField.PHONE, "+55 33 3333-3333"));
        DeleteOutcome deleted = alice.delete(c.id(), 3);

        assertThat(saved).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(deleted).isEqualTo(new DeleteOutcome.Deleted(c.id()));
        assertThat(rows(c.id())).isEmpty();
    }

    @Test
    void aWriteRefusedByAnotherSessionsLockIsNoConflictAndRecordsNothing() {
        Customer c = aCustomerAtVersionTwo();
        String session = "Carol-" + UUID.randomUUID();
        new JdbiLeaseRepository(db.jdbi(), "Carol", session).acquire(c.id(), 60_000);

        assertThat(bob.save(c.id(), 1, c.data())).isInstanceOf(SaveOutcome.Locked.class);
        assertThat(bob.delete(c.id(), 1)).isInstanceOf(DeleteOutcome.Locked.class);

        assertThat(rows(c.id())).isEmpty();
    }

    @Test
    void conflictsUnderALeaseAreRecordedToo() {
        Customer c = aCustomerAtVersionTwo();
        String session = "Bob-" + UUID.randomUUID();
        JdbiCustomerRepository bobsCustomers = new JdbiCustomerRepository(db.jdbi(), "Bob", session);
        long token = ((AcquireOutcome.Granted) new JdbiLeaseRepository(db.jdbi(), "Bob", session)
                .acquire(c.id(), 60_000)).lease().token();

        SaveOutcome saved = bobsCustomers.saveUnderLease(c.id(), 1, c.data().with(CustomerField.FAX, "1"), token);
        DeleteOutcome deleted = bobsCustomers.deleteUnderLease(c.id(), 1, token);

        assertThat(saved).isInstanceOf(SaveOutcome.Conflict.class);
        assertThat(deleted).isInstanceOf(DeleteOutcome.Conflict.class);
        assertThat(rows(c.id())).extracting(Row::kind).containsExactly("save", "delete");
    }

    @Test
    void aSaveThatMeetsADeletionCountsButTheDeletedCustomerIsNotHot() {
        Customer c = aCustomerAtVersionTwo();
        alice.delete(c.id(), 2);

        SaveOutcome outcome = bob.save(c.id(), 2, c.data());
        SaveOutcome typo = bob.save(c.id(), 3, c.data());

        assertThat(((SaveOutcome.Conflict) outcome).deleted()).isTrue();
        assertThat(((SaveOutcome.Conflict) typo).deleted()).isTrue();
        // Version 2 existed and met the deletion: a real conflict. Version 3 never existed: nothing.
        assertThat(rows(c.id())).extracting(Row::kind).containsExactly("save");
        assertThat(alice.recentConflicts(c.id(), HotRecordAdvice.WINDOW)).isZero();
    }

    @Test
    void aVersionAboveTheCurrentOneNeverExistedAndCountsNothing() {
        Customer c = aCustomerAtVersionTwo();

        SaveOutcome saved = bob.save(c.id(), 3, c.data().with(CustomerField.PHONE, "+55 22 2222-2222"));
        DeleteOutcome deleted = bob.delete(c.id(), 3);

        assertThat(((SaveOutcome.Conflict) saved).theirs()).contains(c);
        assertThat(((DeleteOutcome.Conflict) deleted).theirs()).contains(c);
        assertThat(rows(c.id())).isEmpty();
        // Version 1 existed (every customer starts there): a write based on it is a real stale write, and counts.
        assertThat(bob.delete(c.id(), 1)).isInstanceOf(DeleteOutcome.Conflict.class);
        assertThat(rows(c.id())).extracting(Row::kind).containsExactly("delete");
    }

    @Test
    void theDatabaseCountsForEveryWriterOnlyVersionsThatExistedOnCustomersThatExist() {
        Customer c = aCustomerAtVersionTwo();
        Customer gone = aCustomerAtVersionTwo();
        alice.delete(gone.id(), 2);

        List<Boolean> counted = db.jdbi().withHandle(h -> List.of(
                record(h, c.id(), 2), record(h, c.id(), 3), record(h, c.id(), 0), record(h, gone.id(), 3),
                record(h, NEVER_AN_ID, 1), record(h, c.id(), 1), record(h, gone.id(), 2)));

        assertThat(counted).containsExactly(false, false, false, false, false, true, true);
        assertThat(rows(c.id())).hasSize(1);
        assertThat(rows(gone.id())).hasSize(1);
        assertThat(rows(NEVER_AN_ID)).isEmpty();
    }

    static final long NEVER_AN_ID = 987_654_321L;

    static boolean record(org.jdbi.v3.core.Handle h, long id, long base) {
        return h.createQuery("SELECT lockstep_record_conflict(:id, 'Carol', 'save', 'psql', :base)").bind("id", id)
                .bind("base", base).mapTo(Boolean.class).one();
    }

    @Test
    void aDeletedCustomerIsNeverHotThoughItsConflictsStillCountOnTheirDays() {
        Customer c = aCustomerAtVersionTwo();
        for (int i = 0; i < HotRecordAdvice.THRESHOLD; i++) {
            insertConflict(c.id(), "1 minute");
        }
        JdbiConflictReports reports = new JdbiConflictReports(db.jdbi());
        assertThat(reports.read(1, java.time.ZoneOffset.UTC).alerts()).extracting(a -> a.customerId())
                .contains(c.id());

        alice.delete(c.id(), 2);

        assertThat(alice.recentConflicts(c.id(), HotRecordAdvice.WINDOW)).isZero();
        assertThat(reports.read(1, java.time.ZoneOffset.UTC).alerts()).extracting(a -> a.customerId())
                .doesNotContain(c.id());
        assertThat(rows(c.id())).hasSize(HotRecordAdvice.THRESHOLD);
    }

    @Test
    void recentConflictsCountsOnlyThatCustomerWithinTheWindowByTheDatabaseClock() {
        Customer c = aCustomerAtVersionTwo();
        Customer other = aCustomerAtVersionTwo();
        insertConflict(c.id(), "8 days");
        insertConflict(c.id(), "6 days 23 hours");
        insertConflict(c.id(), "1 minute");
        insertConflict(other.id(), "1 minute");
        bob.save(c.id(), 1, c.data());

        assertThat(alice.recentConflicts(c.id(), Duration.ofDays(7))).isEqualTo(3);
        assertThat(alice.recentConflicts(c.id(), Duration.ofDays(9))).isEqualTo(4);
        assertThat(alice.recentConflicts(c.id(), Duration.ofHours(1))).isEqualTo(2);
        assertThat(alice.recentConflicts(other.id(), Duration.ofDays(7))).isEqualTo(1);
        assertThat(alice.recentConflicts(Long.MAX_VALUE, Duration.ofDays(7))).isZero();
        assertThatThrownBy(() -> alice.recentConflicts(c.id(), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void recordingAConflictPurgesEveryoneElsesRowsOlderThanTheRetentionAndKeepsTheRest() {
        // 400 days since V17 (30 before): the conflict report reaches a year back.
        Customer c = aCustomerAtVersionTwo();
        Customer other = aCustomerAtVersionTwo();
        long deletedLongAgo = Long.MAX_VALUE - 1;
        insertConflict(other.id(), "401 days");
        insertConflict(deletedLongAgo, "450 days");
        insertConflict(other.id(), "399 days");
        insertConflict(c.id(), "400 days 1 minute");

        bob.save(c.id(), 1, c.data());

        assertThat(rows(deletedLongAgo)).isEmpty();
        assertThat(rows(other.id())).hasSize(1);
        assertThat(rows(c.id())).extracting(Row::detectedBy).containsExactly("Bob");
        assertThat(ConflictLog.RETENTION).isGreaterThan(HotRecordAdvice.WINDOW)
                .isGreaterThan(java.time.Duration.ofDays(org.lockstep.report.ConflictReport.MAX_DAYS));
    }
}
