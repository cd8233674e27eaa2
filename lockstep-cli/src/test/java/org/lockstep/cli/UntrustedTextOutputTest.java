package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.ChangeDetails;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * Values that Lockstep itself refuses but psql lets in (line breaks, escape sequences, other control characters) and
 * values that are awkward elsewhere (NFD accents, emoji, formulas, markup), in a company name and in the name of the
 * user who wrote it, as {@code lockstep timeline} and {@code lockstep watch} print them: each event stays one line of
 * NFC text without a control character, and the SVG stays well-formed XML that holds the value in NFC.
 */
@DatabaseTest
class UntrustedTextOutputTest {

    static Database db;
    static Cli cli;
    static final AtomicInteger REFS = new AtomicInteger();

    @BeforeAll
    static void open() {
        String url = TestDatabases.freshUrlWithCredentials();
        db = Database.open(url, null, null, "Lockstep test");
        cli = new Cli(url, "Tester");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    /** Each case: the company as psql writes it and its one-line NFC form as Lockstep shows it. */
    static Stream<Arguments> values() {
        return Stream.of(
                Arguments.of("Evil\u001b[31mRed\u001b[0m Corp", "Evil\uFFFD[31mRed\uFFFD[0m Corp"),
                Arguments.of("Two\r\nLines", "Two  Lines"),
                Arguments.of("Bell\u0007 and\tTab", "Bell\uFFFD and Tab"),
                Arguments.of("C1\u009b2J", "C1\uFFFD2J"),
                // Bidi overrides, embeddings and isolates reorder the rest of a terminal line (Trojan Source, UAX #9).
                Arguments.of("\u202Eevil\u202C v9 deleted", "\uFFFDevil\uFFFD v9 deleted"),
                Arguments.of("Iso\u2067late\u2066d \u202Aand\u202B \u202Dall\u2068",
                        "Iso\uFFFDlate\uFFFDd \uFFFDand\uFFFD \uFFFDall\uFFFD"),
                Arguments.of("Cafe\u0301 Me\u0301lie\u0300s", "Caf\u00e9 M\u00e9li\u00e8s"),
                Arguments.of("=HYPERLINK(\"x\") <script>]]> \uD83E\uDD8A",
                        "=HYPERLINK(\"x\") <script>]]> \uD83E\uDD8A"));
    }

    @ParameterizedTest
    @MethodSource("values")
    void eachEventIsOneLineOfNfcTextWithoutControlCharacters(String raw, String shown, @TempDir Path dir)
            throws Exception {
        Customer c = new JdbiCustomerRepository(db.jdbi(), "Ana").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "UT-" + REFS.incrementAndGet()).build());
        // Written as psql would: no validator, and a user name of the same kind.
        db.jdbi().useHandle(h -> {
            h.createQuery("SELECT set_config('lockstep.user', :u, false)").bind("u", "ops\u001b]0;x\u0007" + raw)
                    .mapTo(String.class).one();
            h.execute("UPDATE customer SET company = ? WHERE id = ?", raw, c.id());
            h.createQuery("SELECT set_config('lockstep.user', '', false)").mapTo(String.class).one();
        });

        Cli.Result r = cli.run("timeline", Long.toString(c.id()));

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(r.out().replace("\n", "").codePoints()).noneMatch(Character::isISOControl)
                .noneMatch(cp -> cp >= 0x202A && cp <= 0x202E || cp >= 0x2066 && cp <= 0x2069);
        assertThat(lines.get(2)).contains("ops\uFFFD]0;x\uFFFD" + shown.substring(0, 1), "v2 saved");
        // Values are cut to 28 code points in a timeline: the start of the shown value is there, in NFC.
        String start = shown.codePoints().limit(10).collect(StringBuilder::new,
                StringBuilder::appendCodePoint, StringBuilder::append).toString();
        assertThat(lines.get(0)).contains(start);
        assertThat(lines.get(2)).contains(start);

        Path svg = dir.resolve("t.svg");
        assertThat(cli.run("timeline", Long.toString(c.id()), "--svg", svg.toString()).exitCode())
                .isEqualTo(ExitCodes.OK);
        String text = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile())
                .getDocumentElement().getTextContent();
        assertThat(text).contains(start);

        StringWriter out = new StringWriter();
        WatchOutput watch = new WatchOutput(new PrintWriter(out), false, new ChangeDetails(db.jdbi())::of,
                ZoneOffset.UTC);
        watch.changes(List.of(new ChangeEvent("customer", c.id(), 2, "UPDATE", Optional.empty())));
        assertThat(out.toString().lines()).singleElement().asString()
                .contains("customer " + c.id() + " v2 (" + shown + "): ops\uFFFD]0;x\uFFFD")
                .endsWith(" changed company");
        assertThat(out.toString().strip().codePoints()).noneMatch(Character::isISOControl);
    }
}
