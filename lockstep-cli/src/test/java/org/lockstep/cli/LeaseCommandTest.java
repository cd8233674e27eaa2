package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/** {@code lockstep lease …} and writes under a lease, in-process on a real database. */
@DatabaseTest
class LeaseCommandTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static Database db;
    static Cli alice;
    static Cli bob;

    @BeforeAll
    static void open() {
        String url = TestDatabases.freshUrlWithCredentials();
        db = Database.open(url, null, null, "Lockstep test");
        alice = new Cli(url, "Alice");
        bob = new Cli(url, "Bob");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    static Customer customer(String ref) {
        return new JdbiCustomerRepository(db.jdbi(), "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, ref).build());
    }

    @Test
    void acquirePrintsTheTokenAndExpiryAndOthersAreRefusedWithExitFour() throws Exception {
        Customer c = customer("CLI-L-1");

        Cli.Result taken = alice.run("lease", "acquire", Long.toString(c.id()), "--ttl", "90s", "--json");
        Cli.Result refused = bob.run("lease", "acquire", Long.toString(c.id()));

        assertThat(taken.exitCode()).as(taken.toString()).isEqualTo(ExitCodes.OK);
        JsonNode lease = JSON.readTree(taken.out());
        assertThat(lease.get("token").asLong()).isPositive();
        Instant expires = Instant.parse(lease.get("expires_at").asText());
        Instant dbNow = db.jdbi().withHandle(h -> h.createQuery("SELECT now()").mapTo(java.time.OffsetDateTime.class)
                .one()).toInstant();
        assertThat(expires).isBetween(dbNow.plusSeconds(80), dbNow.plusSeconds(91));
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.LOCKED);
        assertThat(refused.err()).contains("locked by Alice");
    }

    @Test
    void setUnderTheLeaseSavesAndOthersAreLockedOut() throws Exception {
        Customer c = customer("CLI-L-2");
        long token = JSON.readTree(alice.run("lease", "acquire", Long.toString(c.id()), "--json").out())
                .get("token").asLong();

        Cli.Result bobSet = bob.run("set", Long.toString(c.id()), "city=Bergen", "--if-version", "1");
        Cli.Result aliceSet = alice.run("set", Long.toString(c.id()), "city=Tromsø", "--if-version", "1",
                "--lease-token", Long.toString(token));

        assertThat(bobSet.exitCode()).isEqualTo(ExitCodes.LOCKED);
        assertThat(aliceSet.exitCode()).as(aliceSet.toString()).isEqualTo(ExitCodes.OK);
        Customer row = new JdbiCustomerRepository(db.jdbi(), "Reader").find(c.id()).orElseThrow();
        assertThat(row.data().city()).isEqualTo("Tromsø");
        assertThat(row.version()).isEqualTo(2);
        assertThat(row.updatedBy()).isEqualTo("Alice");
    }

    @Test
    void aStaleTokenIsRefusedWithExitFourAndChangesNothing() throws Exception {
        Customer c = customer("CLI-L-3");
        long token = JSON.readTree(alice.run("lease", "acquire", Long.toString(c.id()), "--json").out())
                .get("token").asLong();
        assertThat(bob.run("lease", "break", Long.toString(c.id())).out()).contains("broke the lease of Alice");

        Cli.Result stale = alice.run("set", Long.toString(c.id()), "city=Narvik", "--if-version", "1",
                "--lease-token", Long.toString(token));
        Cli.Result staleDelete = alice.run("delete", Long.toString(c.id()), "--if-version", "1",
                "--lease-token", Long.toString(token));

        assertThat(stale.exitCode()).isEqualTo(ExitCodes.LOCKED);
        assertThat(stale.err()).contains("no longer its lease");
        assertThat(staleDelete.exitCode()).isEqualTo(ExitCodes.LOCKED);
        assertThat(new JdbiCustomerRepository(db.jdbi(), "Reader").find(c.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void listShowsLeasesInForceAndReleaseEndsThem() throws Exception {
        Customer c = customer("CLI-L-4");
        long token = JSON.readTree(alice.run("lease", "acquire", Long.toString(c.id()), "--json").out())
                .get("token").asLong();

        JsonNode listed = JSON.readTree(bob.run("lease", "list", "--json").out());
        Cli.Result wrongToken =
                bob.run("lease", "release", Long.toString(c.id()), "--token", Long.toString(token + 99));
        Cli.Result released = alice.run("lease", "release", Long.toString(c.id()), "--token", Long.toString(token));

        assertThat(listed.findValues("record_id").stream().map(JsonNode::asLong)).contains(c.id());
        assertThat(wrongToken.exitCode()).isEqualTo(ExitCodes.LOCKED);
        assertThat(released.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(new JdbiLeaseRepository(db.jdbi(), "Reader", "r").holder(c.id())).isEmpty();
        assertThat(bob.run("lease", "acquire", Long.toString(c.id())).exitCode()).isEqualTo(ExitCodes.OK);
    }

    @Test
    void anotherOperatorCannotWriteUnderOrReleaseSomeoneElsesLeaseEvenKnowingTheToken() throws Exception {
        Customer c = customer("CLI-L-6");
        long token = JSON.readTree(alice.run("lease", "acquire", Long.toString(c.id()), "--json").out())
                .get("token").asLong();

        Cli.Result bobSet = bob.run("set", Long.toString(c.id()), "city=Bodø", "--if-version", "1",
                "--lease-token", Long.toString(token));
        Cli.Result bobRelease = bob.run("lease", "release", Long.toString(c.id()), "--token", Long.toString(token));
        Cli.Result refused = bob.run("set", Long.toString(c.id()), "city=Bodø", "--if-version", "1");

        assertThat(bobSet.exitCode()).isEqualTo(ExitCodes.LOCKED);
        assertThat(bobRelease.exitCode()).isEqualTo(ExitCodes.LOCKED);
        assertThat(refused.err()).contains("locked by Alice").doesNotContain("token");
        assertThat(new JdbiCustomerRepository(db.jdbi(), "Reader").find(c.id()).orElseThrow().version()).isEqualTo(1);
        assertThat(new JdbiLeaseRepository(db.jdbi(), "Reader", "r").holder(c.id()).orElseThrow().token())
                .isEqualTo(token);
    }

    @Test
    void breakingTheLockOfACustomerThatDoesNotExistSaysSo() {
        Cli.Result r = bob.run("lease", "break", "987654");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(r.err().strip()).isEqualTo("lockstep: no customer 987654; nothing broken");
    }

    @Test
    void aBlankUserIsInvalidInput() {
        Cli.Result r = new Cli(TestDatabases.freshUrlWithCredentials(), " ").run("list");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("--user: the operator's name must not be blank");
    }

    @Test
    void aBadTtlIsAUsageError() {
        Customer c = customer("CLI-L-5");

        Cli.Result bad = alice.run("lease", "acquire", Long.toString(c.id()), "--ttl", "soon");

        assertThat(bad.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(bad.err()).contains("not a duration");
    }

    /**
     * A lease lasts 5 s to 24 h: a TTL outside is refused before anything is locked, with the bounds in the message
     * and the value as typed — also one whose digits overflow a long or a timestamp.
     */
    @ParameterizedTest(name = "--ttl {0}")
    @CsvSource(textBlock = """
            1ms
            4999ms
            4s
            0
            1441m
            25h
            86400001ms
            999999h
            9999999999999999h
            99999999999999999999999999999999h
            """)
    void aTtlOutsideFiveSecondsToADayIsRefusedWithTheBoundsAndNothingIsLocked(String ttl) {
        Customer c = customer("CLI-L-TTL-" + ttl);

        Cli.Result r = alice.run("lease", "acquire", Long.toString(c.id()), "--ttl", ttl);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("'--ttl'").contains("must be between 5s and 24h, not " + ttl)
                .doesNotContain("Exception").doesNotContain("overflow");
        assertThat(new JdbiLeaseRepository(db.jdbi(), "Reader", "r").holder(c.id())).isEmpty();
    }

    /** The ends are included, and the lease granted lasts exactly what was typed, by the database clock. */
    @ParameterizedTest(name = "--ttl {0}")
    @CsvSource(textBlock = """
            5s,       5000
            5000ms,   5000
            90,       90000
            1440m,    86400000
            24h,      86400000
            """)
    void aTtlWithinTheBoundsIsGrantedForExactlyThatLong(String ttl, long expectedMs) throws Exception {
        Customer c = customer("CLI-L-TTL-OK-" + ttl);

        Cli.Result r = alice.run("lease", "acquire", Long.toString(c.id()), "--ttl", ttl, "--json");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
        JsonNode lease = JSON.readTree(r.out());
        java.time.Duration granted = java.time.Duration.between(Instant.parse(lease.get("acquired_at").asText()),
                Instant.parse(lease.get("expires_at").asText()));
        assertThat(granted.toMillis()).isEqualTo(expectedMs);
        assertThat(new JdbiLeaseRepository(db.jdbi(), "Reader", "r").holder(c.id()).orElseThrow().token())
                .isEqualTo(lease.get("token").asLong());
    }
}
