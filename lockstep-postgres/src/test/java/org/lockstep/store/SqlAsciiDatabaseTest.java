package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * A SQL_ASCII database, the one encoding besides UTF8 in which Lockstep's migrations run: the server sees bytes, and
 * Lockstep reads them as UTF-8. A company and contact of nothing but white space as Java counts it is refused there
 * too (V27; found by an attack on V27: psql stored U+3000 there, which Lockstep read as nameless and refused to save),
 * and the no-break and zero-width spaces, which Java keeps, make a name Lockstep can save.
 */
@DatabaseTest
class SqlAsciiDatabaseTest {

    @Test
    void aNameOfWhiteSpaceAsUtf8BytesIsRefusedAndANoBreakSpaceIsAName() throws Exception {
        String name = "ascii_" + UUID.randomUUID().toString().replace("-", "");
        TestDatabases.Server s = TestDatabases.server();
        try (Connection c = DriverManager.getConnection(s.url("postgres"), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name + " ENCODING 'SQL_ASCII' LOCALE_PROVIDER libc LC_COLLATE 'C'"
                    + " LC_CTYPE 'C' TEMPLATE template0 OWNER \"" + s.user().replace("\"", "\"\"") + "\"");
        }
        try (Database db = Database.open(s.url(name), s.user(), s.password(), "Lockstep test")) {
            for (String blank : List.of("\u3000", " \u2002\t", "\u1680", "\u205f\u2028\u2029", "\u2000\u200a")) {
                assertThat(refusal(db, blank)).as("%s", blank.codePoints().mapToObj(Integer::toHexString).toList())
                        .isEqualTo("23514 customer_company_or_contact_required");
            }
            JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
            for (String kept : List.of("\u00a0", "\u2007", "\u202f", "\u200b", "v")) {
                long id = db.jdbi().withHandle(h -> h.createQuery(
                        "INSERT INTO customer (company) VALUES (:v) RETURNING id").bind("v", kept)
                        .mapTo(Long.class).one());
                Customer stored = alice.find(id).orElseThrow();
                assertThat(stored.data().company()).isEqualTo(kept);
                assertThat(alice.save(id, stored.version(), stored.data().with(CustomerField.PHONE, "+351 1")))
                        .isInstanceOf(SaveOutcome.Saved.class);
            }
        }
    }

    /** The SQLSTATE and constraint of an INSERT of a company and contact of {@code value}, or "stored". */
    private static String refusal(Database db, String value) {
        try {
            db.jdbi().useHandle(h -> h.createUpdate("INSERT INTO customer (company, contact_name) VALUES (:v, :v)")
                    .bind("v", value).execute());
            return "stored";
        } catch (RuntimeException e) {
            return ServerRefusals.describe(e);
        }
    }
}
