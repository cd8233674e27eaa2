package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * A restore is recorded as one (issue 27, V23): the history row a restore's save leaves names the version it restored
 * ({@code customer_history.restored_from}), read here as the trigger wrote it; a plain save names none; and no writer —
 * Lockstep or psql — records a restore of a version the customer's history does not hold.
 */
@DatabaseTest
class RestoredFromTest {

    private static final String ROWS =
            "SELECT version, op, restored_from FROM customer_history WHERE customer_id = :id ORDER BY id";

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository alice;

    @BeforeAll
    static void open() {
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
    }

    /** A customer at version {@code versions}, each save a city of its own. */
    private static Customer customerAt(String ref, int versions) {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, ref).build());
        for (int v = 2; v <= versions; v++) {
            c = ((SaveOutcome.Saved) alice.save(c.id(), c.version(), c.data().with(CustomerField.CITY, "City " + v)))
                    .saved();
        }
        return c;
    }

    private static List<Map<String, Object>> rows(long id) {
        return db.jdbi().withHandle(h -> h.createQuery(ROWS).bind("id", id).mapToMap().list());
    }

    @Test
    void theRestoresHistoryRowNamesTheVersionRestoredAndAPlainSavesNamesNone() {
        Customer v6 = customerAt("RF-1", 6);
        String v4City = "City 4";

        Customer v7 = ((SaveOutcome.Saved) alice.restoring(4).save(v6.id(), 6,
                v6.data().with(CustomerField.CITY, v4City))).saved();
        alice.save(v7.id(), 7, v7.data().with(CustomerField.CITY, "After"));

        assertThat(rows(v6.id())).extracting(r -> r.get("version"), r -> r.get("op"), r -> r.get("restored_from"))
                .containsExactly(tuple(1L, "INSERT", null), tuple(2L, "UPDATE", null), tuple(3L, "UPDATE", null),
                        tuple(4L, "UPDATE", null), tuple(5L, "UPDATE", null), tuple(6L, "UPDATE", null),
                        tuple(7L, "UPDATE", 4L), tuple(8L, "UPDATE", null));
    }

    @Test
    void aLockstepClaimOfAVersionNeverThereIsRefusedAndNothingIsWritten() {
        Customer v2 = customerAt("RF-2", 2);

        assertThatThrownBy(() -> alice.restoring(5).save(v2.id(), 2, v2.data()))
                .isInstanceOf(StoreUnavailableException.class).hasMessageContaining("has no version 5 to restore");

        assertThat(rows(v2.id())).hasSize(2);
        assertThat(alice.find(v2.id()).orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void psqlMayRecordARestoreOfAVersionTheHistoryHoldsAndNoOtherForEveryRowItWrites() {
        Customer v3 = customerAt("RF-3", 3);

        db.jdbi().useTransaction(h -> {
            h.createQuery("SELECT set_config('lockstep.restore', '2', true)").mapTo(String.class).one();
            h.execute("UPDATE customer SET city = 'City 2' WHERE id = ?", v3.id());
        });
        assertThatThrownBy(() -> db.jdbi().useTransaction(h -> {
            h.createQuery("SELECT set_config('lockstep.restore', '40', true)").mapTo(String.class).one();
            h.execute("UPDATE customer SET city = 'Nowhere' WHERE id = ?", v3.id());
        })).rootCause().isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("LS422"));
        // The setting lasts the transaction only: the next write restores nothing.
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET city = 'Later' WHERE id = ?", v3.id()));

        assertThat(rows(v3.id())).extracting(r -> r.get("version"), r -> r.get("restored_from")).containsExactly(
                tuple(1L, null), tuple(2L, null), tuple(3L, null), tuple(4L, 2L), tuple(5L, null));
    }

    /**
     * The attack of a hostile operator in psql: naming a version the history holds while writing other values, so the
     * History tab would say "Restored version 2" of an edit. Whether set for the transaction, left for the whole
     * session, or passed to lockstep_write, the claim is refused and nothing is written.
     */
    @Test
    void noWriterRecordsAnEditAsARestoreOfAVersionWhoseValuesItDoesNotSave() {
        Customer v3 = customerAt("RF-4", 3);
        List<String> forgeries = List.of(
                "BEGIN; SET LOCAL lockstep.restore = '2'; "
                        + "UPDATE customer SET city = 'Forged' WHERE id = %d; COMMIT",
                "SET lockstep.restore = '2'; "
                        + "UPDATE customer SET city = 'City 2', notes = 'slipped in' WHERE id = %d",
                "UPDATE customer SET city = 'City 2', credit_limit = 1 WHERE id = %d "
                        + "AND lockstep_write(NULL, NULL, NULL, NULL, NULL, NULL, NULL, 2)");

        for (String forgery : forgeries) {
            assertThatThrownBy(() -> db.jdbi().useHandle(h -> {
                try {
                    h.createScript(forgery.formatted(v3.id())).execute();
                } finally {
                    h.execute("ROLLBACK");
                    h.execute("RESET lockstep.restore");
                }
            })).as(forgery).rootCause().isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("LS422"))
                    .hasMessageContaining("not those of version 2");
        }

        assertThat(rows(v3.id())).hasSize(3);
        assertThat(alice.find(v3.id()).orElseThrow().data().get(CustomerField.CITY)).isEqualTo("City 3");
    }

    /**
     * A version a script wrote unnormalised (padded, NFD accents, CRLF, an empty string, 12.5) is restored by Lockstep
     * in the normalised form every save writes, and is still recorded as that version's restore.
     */
    @Test
    void lockstepRestoresAScriptsUnnormalisedValuesAsThatVersion() {
        Customer v1 = customerAt("RF-5", 1);
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET city = ?, company = '', notes = ?, "
                + "credit_limit = 12.5, contact_title = ? WHERE id = ?", "  Jose\u0301 \t", "one\r\ntwo\r\n",
                "\u00A0Chef\u3000", v1.id()));
        Customer v2 = alice.find(v1.id()).orElseThrow();
        Customer v3 = ((SaveOutcome.Saved) alice.save(v2.id(), 2, v2.data().with(CustomerField.CITY, "Elsewhere")))
                .saved();
        org.lockstep.domain.CustomerData v2Values =
                new JdbiHistoryRepository(db.jdbi()).valuesAt(v1.id(), 2).orElseThrow().normalized();

        Customer v4 = ((SaveOutcome.Saved) alice.restoring(2).save(v3.id(), 3, v2Values)).saved();

        assertThat(v4.data().get(CustomerField.CITY)).isEqualTo("Jos\u00e9");
        assertThat(rows(v1.id())).extracting(r -> r.get("version"), r -> r.get("restored_from"))
                .endsWith(tuple(4L, 2L));
    }

    @Test
    void aClientOfBeforeStillNamesItselfWithSevenArguments() {
        boolean named = db.jdbi().inTransaction(h -> h.createQuery(
                "SELECT lockstep_write('Alice', 'older-client', NULL, NULL, NULL, NULL, NULL)")
                .mapTo(Boolean.class).one());

        assertThat(named).isTrue();
    }
}
