package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.Presence;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * The roles of the README's "For administrators", with its SQL: an owner role migrates the schema, and a
 * least-privilege operator role — no DDL — then runs the client: saves, conflicts, leases, presence and live updates.
 */
@DatabaseTest
class OperatorRoleTest {

    final String suffix = ProcessHandle.current().pid() + "_" + System.nanoTime() % 1_000_000;
    final String owner = "lk_owner_" + suffix;
    final String operator = "lk_operator_" + suffix;
    final String database = "lk_roles_" + suffix;

    @AfterEach
    void dropThem() throws Exception {
        admin("postgres", "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        admin("postgres", "DROP ROLE IF EXISTS " + operator);
        admin("postgres", "DROP ROLE IF EXISTS " + owner);
    }

    @Test
    void anOperatorRoleWithoutDdlRunsTheClientOnASchemaItsOwnerMigrated() throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        admin("postgres", "CREATE ROLE " + owner + " LOGIN PASSWORD 'owner-secret'");
        admin("postgres", "CREATE ROLE " + operator + " LOGIN PASSWORD 'operator-secret'");
        admin("postgres", "CREATE DATABASE " + database + " OWNER " + owner);
        admin(database, "REVOKE ALL ON SCHEMA public FROM PUBLIC");
        admin(database, "GRANT USAGE ON SCHEMA public TO " + operator);
        try (Database migrated = Database.open(s.url(database), owner, "owner-secret", "Lockstep owner")) {
            int applied = migrated.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM flyway_schema_history")
                    .mapTo(Integer.class).one());
            assertThat(applied).isPositive();
        }
        for (String grant : List.of(
                "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO " + operator,
                "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO " + operator,
                "REVOKE ALL ON flyway_schema_history FROM " + operator,
                "GRANT SELECT ON flyway_schema_history TO " + operator,
                "ALTER DEFAULT PRIVILEGES FOR ROLE " + owner + " IN SCHEMA public"
                        + " GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO " + operator,
                "ALTER DEFAULT PRIVILEGES FOR ROLE " + owner + " IN SCHEMA public"
                        + " GRANT USAGE, SELECT ON SEQUENCES TO " + operator)) {
            admin(database, grant);
        }

        try (Database alice = Database.open(s.url(database), operator, "operator-secret", "Lockstep (Alice)");
                Database bob = Database.open(s.url(database), operator, "operator-secret", "Lockstep (Bob)")) {
            JdbiCustomerRepository aliceRepo = new JdbiCustomerRepository(alice.jdbi(), "Alice", "alice-session");
            JdbiCustomerRepository bobRepo = new JdbiCustomerRepository(bob.jdbi(), "Bob", "bob-session");
            List<ChangeEvent> heard = new CopyOnWriteArrayList<>();
            try (ChangeFeed feed = bob.changeFeed(heard::addAll)) {
                feed.start();
                await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
                Customer c = aliceRepo.create(aCustomer().build());
                SaveOutcome saved = aliceRepo.save(c.id(), c.version(),
                        aCustomer().with(CustomerField.CITY, "Porto").build());
                assertThat(saved).isInstanceOf(SaveOutcome.Saved.class);
                assertThat(bobRepo.save(c.id(), c.version(), aCustomer().with(CustomerField.CITY, "Lost").build()))
                        .isInstanceOf(SaveOutcome.Conflict.class);
                long version = ((SaveOutcome.Saved) saved).saved().version();
                await().atMost(Duration.ofSeconds(10)).until(() -> heard.stream()
                        .anyMatch(e -> e.id() == c.id() && e.version() == version));

                JdbiLeaseRepository leases = new JdbiLeaseRepository(bob.jdbi(), "Bob", "bob-session");
                assertThat(leases.acquire(c.id(), 30_000)).isInstanceOf(AcquireOutcome.Granted.class);
                JdbiPresenceRepository presence = new JdbiPresenceRepository(alice.jdbi(), "Alice",
                        "alice-session", JdbiPresenceRepository.DEFAULT_TTL);
                presence.heartbeat(java.util.Map.of(c.id(), Presence.State.EDITING));
                assertThat(presence.present()).anySatisfy(p -> assertThat(p.customerId()).isEqualTo(c.id()));
            }
            // No DDL: the operators' role cannot change the schema.
            assertThatThrownBy(() -> alice.jdbi().useHandle(h -> h.execute("CREATE TABLE intruder (id int)")))
                    .hasRootCauseInstanceOf(SQLException.class)
                    .rootCause().satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"));
        }
    }

    static void admin(String db, String sql) throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        try (Connection c = DriverManager.getConnection(s.url(db), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
