package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.RecordBusyException;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * A {@code --db-url} that carries server options of its own ({@code ?options=-c search_path=…}) keeps every bound
 * Lockstep puts on a session: pgjdbc takes the URL's {@code options} over the connection property, so these once
 * replaced {@code statement_timeout} and {@code lock_timeout}, and a save on a row held in psql waited as long as psql
 * held it (measured: 57 s, then it committed).
 */
@DatabaseTest
class DatabaseUrlOptionsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            options=-c%20search_path%3Dpublic                              | search_path        | public
            options=-c+search_path%3Dpublic                                | search_path        | public
            options=-c%20work_mem%3D8MB&ApplicationName=crm                | work_mem           | 8MB
            options=-c%20work_mem%3D1MB&options=-c%20work_mem%3D16MB       | work_mem           | 16MB
            ApplicationName=crm&options=-c%20lock_timeout%3D2s             | lock_timeout       | 2s
            """)
    void aUrlWithItsOwnOptionsKeepsThemAndEveryBoundItDoesNotNameAndASaveOnAHeldRowGivesUp(
            String parameters, String setting, String expected) throws Exception {
        String name = TestDatabases.freshName();
        TestDatabases.Server s = TestDatabases.server();
        try (Database db = Database.open(s.url(name) + "?" + parameters, s.user(), s.password(), "Lockstep test")) {
            assertThat(show(db, setting)).isEqualTo(expected);
            if (!setting.equals("lock_timeout")) {
                assertThat(show(db, "lock_timeout")).isEqualTo("4s");
            }
            assertThat(show(db, "statement_timeout")).isEqualTo("10s");
            assertThat(show(db, "idle_in_transaction_session_timeout")).isEqualTo("1min");

            JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob");
            Customer c = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "URL-OPT").build());
            try (Connection psql = holdRow(s, name, c.id())) {
                assertThatThrownBy(() -> bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Never")))
                        .isInstanceOf(RecordBusyException.class)
                        .hasMessageContaining("psql (url blocker)");
                psql.commit();
            }
            assertThat(bob.find(c.id()).orElseThrow().version()).isEqualTo(1);
        }
    }

    private static String show(Database db, String setting) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT current_setting(:s)").bind("s", setting)
                .mapTo(String.class).one());
    }

    private static Connection holdRow(TestDatabases.Server s, String database, long id) throws Exception {
        Properties props = new Properties();
        props.setProperty("user", s.user());
        if (s.password() != null) {
            props.setProperty("password", s.password());
        }
        props.setProperty("ApplicationName", "psql (url blocker)");
        Connection psql = DriverManager.getConnection(s.url(database), props);
        psql.setAutoCommit(false);
        try (PreparedStatement ps = psql.prepareStatement("SELECT 1 FROM customer WHERE id = ? FOR UPDATE")) {
            ps.setLong(1, id);
            ps.executeQuery().close();
        }
        return psql;
    }
}
