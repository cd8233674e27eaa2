package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;
import org.w3c.dom.Document;

/** {@code lockstep timeline ID [--svg FILE]}: the events as lines or an SVG file, and the usual exit codes. */
@DatabaseTest
class TimelineCommandTest {

    static Database db;
    static JdbiCustomerRepository alice;
    static JdbiCustomerRepository bob;
    static Cli cli;

    @BeforeAll
    static void open() {
        String url = TestDatabases.freshUrlWithCredentials();
        db = Database.open(url, null, null, "Lockstep test");
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        bob = new JdbiCustomerRepository(db.jdbi(), "Bob");
        cli = new Cli(url, "Tester");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void printsOneLinePerEventOnItsWritersLane() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "TLC-1").build());
        bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Bergen"));

        Cli.Result r = cli.run("timeline", Long.toString(c.id()));

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
        assertThat(r.out().lines().toList()).hasSize(3);
        assertThat(r.out().lines().skip(1)).satisfiesExactly(
                l -> assertThat(l).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  Alice +created v1.*"),
                l -> assertThat(l).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  Bob +v2 saved — City .* → Bergen"));
    }

    @Test
    void writesAnSvgFileThatParsesAndHoldsTheLanesAndLabels(@TempDir Path dir) throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "TLC-2").build());
        bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Bergen"));
        bob.delete(c.id(), 2);
        Path svg = dir.resolve("timeline.svg");

        Cli.Result r = cli.run("timeline", Long.toString(c.id()), "--svg", svg.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).startsWith("Wrote " + svg + ": 3 events of Customer " + c.id());
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
        String text = doc.getDocumentElement().getTextContent();
        assertThat(text).contains("Alice", "Database", "Bob", "created v1", "v2 saved", "deleted v2");
        assertThat(Files.readString(svg)).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    }

    /**
     * A busy customer's timeline holds the latest 400 rows of each kind, so conflicts (and lease events) may reach
     * further back than the oldest change kept: their version is unknown there, and must not be told as "v0". The
     * lines say that the timeline is cut, as the SVG's title does.
     */
    @Test
    void aCutTimelineSaysSoAndNamesNoVersionItDoesNotKnow() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "TLC-CUT").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Bergen"));
        bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Oslo"));
        bob.delete(c.id(), 1);
        db.jdbi().useHandle(h -> h.execute("DO $$ BEGIN FOR i IN 1..450 LOOP UPDATE customer SET city = 'c' || i,"
                + " version = version + 1 WHERE id = " + c.id() + "; END LOOP; END $$"));

        Cli.Result r = cli.run("timeline", Long.toString(c.id()));

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).endsWith("(latest 400 rows of each)");
        assertThat(lines).filteredOn(l -> l.contains("conflict")).hasSize(2).allSatisfy(l -> assertThat(l)
                .doesNotContainPattern("\\bv0\\b").contains("the save's base was older"));
        assertThat(lines).noneMatch(l -> l.matches(".*\\bv0\\b.*"));
    }

    @Test
    void anIdNoCustomerEverHadIsNoCustomerAndWritesNothing(@TempDir Path dir) {
        Path svg = dir.resolve("none.svg");

        Cli.Result r = cli.run("timeline", "987654321", "--svg", svg.toString());

        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(r.err().strip()).isEqualTo("lockstep: no customer 987654321");
        assertThat(r.out()).isEmpty();
        assertThat(svg).doesNotExist();
    }

    @Test
    void aMissingFolderForTheSvgIsInvalidInput(@TempDir Path dir) {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "TLC-3").build());

        Cli.Result r = cli.run("timeline", Long.toString(c.id()), "--svg", dir.resolve("no/such/t.svg").toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("no such file or directory");
    }

    /** A path the system refuses says why, not only which file: here a file stands where a folder should be. */
    @Test
    void anSvgPathThroughAFileSaysWhyItCannotBeWritten(@TempDir Path dir) throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "TLC-5").build());
        Path notAFolder = java.nio.file.Files.writeString(dir.resolve("notes.txt"), "a file");

        Cli.Result r = cli.run("timeline", Long.toString(c.id()), "--svg", notAFolder.resolve("t.svg").toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err().strip()).isEqualTo("lockstep: " + notAFolder.resolve("t.svg") + ": not a directory");
    }

    @Test
    void anIdThatIsNotANumberIsInvalidInput() {
        assertThat(cli.run("timeline", "seven").exitCode()).isEqualTo(ExitCodes.INVALID);
    }
}
