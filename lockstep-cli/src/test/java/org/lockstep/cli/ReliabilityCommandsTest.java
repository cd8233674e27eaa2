package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.LostReplyProxy;
import org.lockstep.testing.db.TestDatabases;

/**
 * The command line keeps the central promise under the faults of a real team: many machines under one login, a
 * connection lost right after commit, a row held by another session. Every outcome has its exit code.
 */
@DatabaseTest
class ReliabilityCommandsTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static String name;
    static Database db;
    static JdbiCustomerRepository alice;
    static LostReplyProxy proxy;
    static String directUrl;
    static String proxyUrl;

    @BeforeAll
    static void open() {
        name = TestDatabases.freshName();
        TestDatabases.Server s = TestDatabases.server();
        directUrl = s.url(name) + "?user=" + s.user() + (s.password() == null ? "" : "&password=" + s.password());
        db = Database.open(directUrl, null, null, "Lockstep test");
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        proxy = LostReplyProxy.inFrontOfTestServer();
        proxyUrl = proxy.urlWithCredentials(name);
    }

    @AfterAll
    static void close() throws IOException {
        db.close();
        proxy.close();
    }

    @Test
    void incrementsFromManyMachinesUnderOneLoginAreNeverLost(@TempDir Path machines) throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "CLI-SAME-NAME")
                .with(CustomerField.CREDIT_LIMIT, "0").build());
        int machinesCount = 4;
        int incrementsEach = 3;
        CyclicBarrier start = new CyclicBarrier(machinesCount);
        ExecutorService pool = Executors.newFixedThreadPool(machinesCount);
        List<Future<Integer>> successes = new ArrayList<>();
        for (int m = 0; m < machinesCount; m++) {
            Cli desk = new Cli(directUrl, "frontdesk", machines.resolve("desk-" + m));
            successes.add(pool.submit(() -> {
                start.await();
                int saved = 0;
                while (saved < incrementsEach) {
                    Cli.Result got = desk.run("get", Long.toString(c.id()), "--json");
                    assertThat(got.exitCode()).as(got.toString()).isZero();
                    JsonNode now = JSON.readTree(got.out());
                    BigDecimal plusOne = now.get("credit_limit").decimalValue().add(BigDecimal.ONE);
                    Cli.Result set = desk.run("set", Long.toString(c.id()), "credit_limit=" + plusOne.toPlainString(),
                            "--if-version", now.get("version").asText());
                    if (set.exitCode() == ExitCodes.OK) {
                        saved++;
                    } else {
                        assertThat(set.exitCode()).as(set.toString()).isEqualTo(ExitCodes.CONFLICT);
                    }
                }
                return saved;
            }));
        }
        int total = 0;
        for (Future<Integer> f : successes) {
            total += f.get();
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        Customer end = alice.find(c.id()).orElseThrow();
        assertThat(total).isEqualTo(machinesCount * incrementsEach);
        assertThat(end.data().creditLimit()).isEqualByComparingTo(BigDecimal.valueOf(total));
        assertThat(end.version()).isEqualTo(1L + total);
    }

    @Test
    void aCreateWhoseReplyWasLostPrintsTheOneCustomerItMade() {
        proxy.loseReplyTo("CLI-LOST-CREATE");

        Cli.Result r = new Cli(proxyUrl, "Alice").run("create", "external_ref=CLI-LOST-CREATE",
                "company=Lost Reply Ltda", "--json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<Long> ids = db.jdbi().withHandle(h -> h.createQuery(
                "SELECT id FROM customer WHERE external_ref = 'CLI-LOST-CREATE'").mapTo(Long.class).list());
        assertThat(ids).hasSize(1);
        assertThat(r.out()).contains("\"id\" : " + ids.get(0));
    }

    @Test
    void aDeleteWhoseReplyWasLostReportsTheDeletion() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "CLI-LOST-DELETE").build());
        proxy.loseReplyTo("DELETE FROM customer WHERE id");

        Cli.Result r = new Cli(proxyUrl, "Alice").run("delete", Long.toString(c.id()), "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(alice.find(c.id())).isEmpty();
        assertThat(r.err()).doesNotContain("conflict");
    }

    @Test
    void anImportWhoseConnectionIsLostHalfWayExitsOneWithNothingImported(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("many.csv");
        StringBuilder text = new StringBuilder("external_ref,company\n");
        for (int i = 0; i < 3_000; i++) {
            text.append("CLI-IMPORT-").append(i).append(",Company ").append(i).append('\n');
        }
        Files.writeString(csv, text);
        proxy.loseReplyTo("Company 1500"); // only the write sends the company: the first pass reads the refs

        Cli.Result r = new Cli(proxyUrl, "Alice").run("import", csv.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).contains("nothing was imported");
        long imported = db.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM customer WHERE starts_with(external_ref, 'CLI-IMPORT-')").mapTo(Long.class)
                .one());
        assertThat(imported).isZero();
    }

    @Test
    void aSetOnARowHeldByAnotherSessionExitsFourNamingIt() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "CLI-HELD").build());
        TestDatabases.Server s = TestDatabases.server();
        Properties props = new Properties();
        props.setProperty("user", s.user());
        props.setProperty("password", s.password());
        props.setProperty("ApplicationName", "psql");
        try (Connection psql = DriverManager.getConnection(s.url(name), props)) {
            psql.setAutoCommit(false);
            try (PreparedStatement ps = psql.prepareStatement("SELECT 1 FROM customer WHERE id = ? FOR UPDATE")) {
                ps.setLong(1, c.id());
                ps.executeQuery().close();
            }

            Cli.Result r = new Cli(directUrl, "Bob").run("set", Long.toString(c.id()), "city=Campinas",
                    "--if-version", "1");

            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.LOCKED);
            assertThat(r.err()).contains("Customer " + c.id() + " is being written by another session (psql");
            psql.rollback();
        }
        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void aLeaseTakenOnOneMachineIsNotAnotherMachinesUnderTheSameLogin(@TempDir Path machines) throws IOException {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "CLI-LEASE-MACHINE").build());
        Cli here = new Cli(directUrl, "frontdesk", machines.resolve("here"));
        Cli there = new Cli(directUrl, "frontdesk", machines.resolve("there"));
        Cli.Result acquired = here.run("lease", "acquire", Long.toString(c.id()), "--json");
        assertThat(acquired.exitCode()).as(acquired.toString()).isZero();
        String token = JSON.readTree(acquired.out()).get("token").asText();

        Cli.Result theirs = there.run("set", Long.toString(c.id()), "city=Elsewhere", "--if-version", "1",
                "--lease-token", token);
        Cli.Result release = there.run("lease", "release", Long.toString(c.id()), "--token", token);
        Cli.Result mine = here.run("set", Long.toString(c.id()), "city=Here", "--if-version", "1",
                "--lease-token", token);

        assertThat(theirs.exitCode()).as(theirs.toString()).isEqualTo(ExitCodes.LOCKED);
        assertThat(release.exitCode()).as(release.toString()).isEqualTo(ExitCodes.LOCKED);
        assertThat(mine.exitCode()).as(mine.toString()).isZero();
        assertThat(alice.find(c.id()).orElseThrow().data().city()).isEqualTo("Here");
    }
}
