package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.config.LockstepConfig;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiTrainingRecords;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * Issue 27 on a server given by {@code --db-url}: the trainer demo opens the database beside the operators' whose name
 * ends in {@value DemoDatabase#SUFFIX}, or, when there is none, refuses in one sentence saying how to make it; it
 * never writes into the operators' database. (The embedded server's {@code lockstep_demo}: DemoDatabaseApartTest in
 * lockstep-app.)
 */
@DatabaseTest
class DemoDatabaseTest {

    @TempDir
    Path dataDir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "jdbc:postgresql://db.example.com:5432/lockstep | jdbc:postgresql://db.example.com:5432/lockstep_demo",
            "jdbc:postgresql://db/lockstep?user=alice&sslmode=verify-full"
                    + " | jdbc:postgresql://db/lockstep_demo?user=alice&sslmode=verify-full",
            "jdbc:postgresql://a:5432,b:5432/team?targetServerType=primary"
                    + " | jdbc:postgresql://a:5432,b:5432/team_demo?targetServerType=primary",
            "jdbc:postgresql://db/training_demo | jdbc:postgresql://db/training_demo",
            "jdbc:postgresql:lockstep | jdbc:postgresql:lockstep_demo"})
    void theDemosDatabaseIsTheOperatorsNameWithDemoAddedOnTheSameServer(String operators, String demo) {
        assertThat(DemoDatabase.urlBeside(operators)).isEqualTo(demo);
    }

    @Test
    void aUrlWithoutADatabaseNameIsRefusedSayingWhatToGive() {
        assertThatThrownBy(() -> DemoDatabase.urlBeside("jdbc:postgresql://db.example.com:5432/?user=alice"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The trainer demo needs the database's name in --db-url "
                        + "(jdbc:postgresql://HOST[:PORT]/DATABASE) to find its own beside it, DATABASE_demo.");
    }

    @Test
    void aUrlThatIsNoPostgresUrlIsRefusedAsTheEditorRefusesIt() {
        assertThatThrownBy(() -> Database.openDemo(config("mysql://db/lockstep"), "demo test", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Not a PostgreSQL JDBC URL: mysql://db/lockstep (expected jdbc:postgresql://HOST[:PORT]/DATABASE)");
    }

    @Test
    void withoutItsOwnDatabaseTheDemoRefusesAndSaysHowToMakeIt() {
        String url = TestDatabases.freshUrlWithCredentials();
        String name = DemoDatabase.nameIn(url);

        assertThatThrownBy(() -> Database.openDemo(config(url), "demo test", null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The trainer demo keeps its customers apart from the operators', in the database "
                        + name + "_demo on this server, which does not exist yet: a superuser creates it with lockstep"
                        + " admin setup --db-url " + DemoDatabase.withoutParameters(TestDatabases.server().url(name))
                        + "_demo (docs/admin-guide.md, \"The trainer demo on a team server\").");
        try (Database operators = Database.open(url, null, null, "operators")) {
            assertThat(count(operators, "SELECT count(*) FROM customer")).isZero();
        }
    }

    @Test
    void theDemoWritesIntoItsOwnDatabaseAndTheOperatorsKeepTheirs() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        createBeside(url);
        try (Database operators = Database.open(config(url), "operators");
                Database demo = Database.openDemo(config(url), "demo test", null)) {
            new JdbiTrainingRecords(demo.jdbi()).reset(aCustomer()
                    .with(CustomerField.EXTERNAL_REF, "DEMO-1").with(CustomerField.COMPANY, "Harbour Lights Trading")
                    .build());

            assertThat(count(operators, "SELECT count(*) FROM customer")).isEqualTo(59);
            assertThat(count(operators, "SELECT count(*) FROM customer WHERE external_ref LIKE 'DEMO-%'")).isZero();
            assertThat(count(demo, "SELECT count(*) FROM customer")).isEqualTo(60);
            assertThat(count(demo, "SELECT count(*) FROM customer WHERE external_ref = 'DEMO-1'")).isEqualTo(1);
            String demoName = demo.jdbi().withHandle(h -> h.createQuery("SELECT current_database()")
                    .mapTo(String.class).one());
            assertThat(demoName).isEqualTo(DemoDatabase.nameIn(url) + "_demo");
        }
    }

    /** Creates the operators' database's demo database, as an administrator would, owned by the tests' login. */
    private static void createBeside(String url) throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        try (Connection c = DriverManager.getConnection(s.url("postgres"), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + DemoDatabase.nameIn(url) + "_demo OWNER \""
                    + s.user().replace("\"", "\"\"") + "\"");
        }
    }

    private LockstepConfig config(String url) {
        return LockstepConfig.resolve(url, dataDir, "Trainer", Map.of());
    }

    private static long count(Database db, String sql) {
        return db.jdbi().withHandle(h -> h.createQuery(sql).mapTo(Long.class).one());
    }
}
