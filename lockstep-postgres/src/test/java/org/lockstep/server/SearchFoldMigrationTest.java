package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * V26 recomputes the stored search texts its new fold changes with the customer table's triggers off, and puts every
 * trigger back as it found it: a DBA's own trigger left disabled stays disabled, and one that fires ALWAYS or only for
 * REPLICA writes keeps doing so (found by an attack on V26: {@code ENABLE TRIGGER USER} made them all ORIGIN
 * triggers, enabled). The rows it rewrites keep their version, stamp and history.
 */
@DatabaseTest
class SearchFoldMigrationTest {

    @Test
    void theMigrationRecomputesTheTextAndLeavesEveryTriggerAndRowStampAsItWas() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        migrateTo(url, "25");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            // Korean as conjoining jamo (NFD), as another writer may store it: the fold before V26 kept it so.
            s.execute("INSERT INTO customer (external_ref, company, city) VALUES ('V26-JAMO',"
                    + " E'\\u1112\\u1161\\u11ab\\u1100\\u116e\\u11a8 Trading', 'Seoul')");
            s.execute("CREATE FUNCTION dba_audit() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN RAISE EXCEPTION 'the DBA''s trigger fired'; END $$");
            s.execute("CREATE TRIGGER dba_off BEFORE UPDATE ON customer FOR EACH ROW EXECUTE FUNCTION dba_audit()");
            s.execute("CREATE TRIGGER dba_always BEFORE UPDATE ON customer FOR EACH ROW"
                    + " EXECUTE FUNCTION dba_audit()");
            s.execute("CREATE TRIGGER dba_replica BEFORE UPDATE ON customer FOR EACH ROW"
                    + " EXECUTE FUNCTION dba_audit()");
            s.execute("ALTER TABLE customer DISABLE TRIGGER dba_off");
            s.execute("ALTER TABLE customer ENABLE ALWAYS TRIGGER dba_always");
            s.execute("ALTER TABLE customer ENABLE REPLICA TRIGGER dba_replica");
        }
        Map<String, String> triggersBefore = triggers(url);
        String rowBefore = row(url);
        assertThat(rowBefore).contains("\u1112\u1161\u11ab");

        migrateTo(url, "26");

        assertThat(triggers(url)).isEqualTo(triggersBefore)
                .containsEntry("dba_off", "D").containsEntry("dba_always", "A").containsEntry("dba_replica", "R")
                .containsEntry("customer_before_write", "O");
        String rowAfter = row(url);
        assertThat(rowAfter).contains("\ud55c\uad6d trading"); // the text in NFC
        assertThat(rowAfter.substring(rowAfter.indexOf('|'))).isEqualTo(rowBefore.substring(rowBefore.indexOf('|')));
    }

    private static void migrateTo(String url, String version) {
        Flyway.configure().dataSource(url, null, null).locations("classpath:" + SchemaHistory.LOCATION)
                .target(version).load().migrate();
    }

    /** Each of the customer table's own triggers by name, with its state (pg_trigger.tgenabled). */
    private static Map<String, String> triggers(String url) throws Exception {
        Map<String, String> states = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid ="
                        + " 'customer'::regclass AND NOT tgisinternal ORDER BY tgname")) {
            while (rs.next()) {
                states.put(rs.getString(1), rs.getString(2));
            }
        }
        return states;
    }

    /** The test row's search text, then its version, stamp and number of history rows. */
    private static String row(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT search_text || '|' || version || '|' || updated_at || '|'"
                        + " || (SELECT count(*) FROM customer_history h WHERE h.customer_id = c.id)"
                        + " FROM customer c WHERE external_ref = 'V26-JAMO'")) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }
}
