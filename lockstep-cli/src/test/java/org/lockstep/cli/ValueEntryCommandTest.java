package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * {@code create}, {@code set} and {@code import} store what the operator meant, or refuse with exit 2 naming the
 * field and write nothing (ADR 0010): amounts by one grammar (neutral unless {@code --locale}), text in NFC, lengths
 * in code points, and a record another tool wrote stays editable.
 */
@DatabaseTest
class ValueEntryCommandTest {

    static final AtomicInteger REFS = new AtomicInteger();
    /** U+1F600: one code point, two UTF-16 code units. */
    static final String GRIN = new String(Character.toChars(0x1F600));

    @TempDir
    Path dir;

    static String url;
    static Database db;
    static JdbiCustomerRepository alice;
    static Cli cli;

    @BeforeAll
    static void open() {
        url = TestDatabases.freshUrlWithCredentials();
        db = Database.open(url, null, null, "Lockstep test");
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        cli = new Cli(url, "Tester");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    static String ref() {
        return "VE-" + REFS.incrementAndGet();
    }

    static Customer byRef(String ref) {
        long id = db.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer WHERE external_ref = :r")
                .bind("r", ref).mapTo(Long.class).one());
        return alice.find(id).orElseThrow();
    }

    static long count() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one());
    }

    static Cli.Result run(String locale, String... args) {
        List<String> all = new ArrayList<>();
        if (!locale.isEmpty()) {
            all.addAll(List.of("--locale", locale));
        }
        all.addAll(List.of(args));
        return cli.run(all.toArray(String[]::new));
    }

    @ParameterizedTest(name = "--locale {0} credit_limit={1} → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            ''    | 1,500.50 | 1500.50
            ''    | 12,345   | 12345
            ''    | 1.5      | 1.5
            ''    | 1500     | 1500
            ''    | 1,5      | invalid
            ''    | 1,50     | invalid
            ''    | 1,5000   | invalid
            ''    | ,5       | invalid
            ''    | 1.500,50 | invalid
            en    | 1,500.50 | 1500.50
            en    | 1,5      | invalid
            de    | 1.500,50 | 1500.50
            de    | 1,5      | 1.5
            de    | 1.500    | 1500
            de    | 1.5      | invalid
            de    | 1,500.50 | invalid
            pt-BR | 1.500,50 | 1500.50
            pt-BR | 1,5      | 1.5
            pt-BR | 1.5      | invalid
            """)
    void createReadsTheCreditLimitByTheGrammarOrRefusesItNamingTheField(String locale, String typed,
            String expected) {
        String ref = ref();
        long before = count();

        Cli.Result r = run(locale, "create", "company=Amount Co", "external_ref=" + ref, "credit_limit=" + typed);

        if (expected.equals("invalid")) {
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
            assertThat(r.err()).contains("credit_limit: Credit limit must be a number like").contains(typed)
                    .doesNotContain("\tat ");
            assertThat(count()).isEqualTo(before);
        } else {
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(byRef(ref).data().creditLimit()).isEqualByComparingTo(expected);
        }
    }

    @ParameterizedTest(name = "--locale {0} set credit_limit={1} → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            ''    | 2,500.75 | 2500.75
            ''    | 1,5      | invalid
            de    | 1,5      | 1.5
            de    | 1.5      | invalid
            """)
    void setReadsTheCreditLimitLikeCreate(String locale, String typed, String expected) {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, ref()).build());

        Cli.Result r = run(locale, "set", Long.toString(c.id()), "credit_limit=" + typed, "--if-version", "1");

        if (expected.equals("invalid")) {
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
            assertThat(r.err()).contains("credit_limit");
            assertThat(alice.find(c.id()).orElseThrow()).isEqualTo(c);
        } else {
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(alice.find(c.id()).orElseThrow().data().creditLimit()).isEqualByComparingTo(expected);
        }
    }

    @ParameterizedTest(name = "--locale {0}")
    @CsvSource(textBlock = """
            xx-invalid-tag-!
            qq
            """)
    void anUnknownLocaleIsRefusedBeforeAnythingIsWritten(String locale) {
        long before = count();

        Cli.Result r = run(locale, "create", "company=Locale Co", "credit_limit=1,5");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("--locale " + locale);
        assertThat(count()).isEqualTo(before);
    }

    @ParameterizedTest(name = "--locale {0}: cell {1} → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            ''  | '"1,500.50"' | 1500.50
            ''  | 1.5          | 1.5
            ''  | '"1,5"'      | invalid
            de  | '"1.500,50"' | 1500.50
            de  | '"1,5"'      | 1.5
            de  | 1.5          | invalid
            """)
    void importReadsCreditLimitCellsByTheSameGrammar(String locale, String cell, String expected) throws IOException {
        String ref = ref();
        Path csv = Files.writeString(dir.resolve("amounts.csv"), "external_ref,company,credit_limit\n"
                + ref + ",Import Co," + cell + "\n", StandardCharsets.UTF_8);
        long before = count();

        Cli.Result r = run(locale, "import", csv.toString());

        if (expected.equals("invalid")) {
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
            assertThat(r.err()).contains("line 2: credit_limit: Credit limit must be a number like");
            assertThat(count()).isEqualTo(before);
        } else {
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(byRef(ref).data().creditLimit()).isEqualByComparingTo(expected);
        }
    }

    @Test
    void createWithNfdTextStoresNfc() {
        String ref = ref();

        Cli.Result r = cli.run("create", "contact_name=Jose\u0301 Gonc\u0327alves", "external_ref=" + ref);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(byRef(ref).data().contactName()).isEqualTo("Jos\u00e9 Gon\u00e7alves").hasSize(14);
    }

    /** The domain's one rule ({@code LineRule}): the editor folds such a paste into one line, the CLI refuses it. */
    @Test
    void setOfALineBreakOrTabIntoAOneLineFieldIsRefusedWithTheDomainsMessageAndANoteMayHoldThem() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, ref()).build());

        Cli.Result refused = cli.run("set", Long.toString(c.id()), "contact_name=Maria\nda Silva\tJr.",
                "--if-version", "1");
        Cli.Result kept = cli.run("set", Long.toString(c.id()), "notes=first line\n\tsecond line",
                "--if-version", "1");

        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(refused.err()).contains(
                "contact_name: Contact name must be one line of text, without line breaks or control characters");
        assertThat(kept.exitCode()).as(kept.toString()).isZero();
        Customer now = alice.find(c.id()).orElseThrow();
        assertThat(now.data().contactName()).isEqualTo(c.data().contactName());
        assertThat(now.data().notes()).isEqualTo("first line\n\tsecond line");
        assertThat(now.version()).isEqualTo(c.version() + 1);
    }

    @Test
    void setWithTheNfdFormOfTheStoredValueSavesNoNewVersion() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, ref())
                .with(CustomerField.CONTACT_NAME, "Jos\u00e9 Gon\u00e7alves").build());

        Cli.Result r = cli.run("set", Long.toString(c.id()), "contact_name=Jose\u0301 Gonc\u0327alves",
                "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("already holds these values");
        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void importOfNfdTextStoresNfcAndAReImportIsUnchanged() throws IOException {
        String ref = ref();
        Path csv = Files.writeString(dir.resolve("nfd.csv"), "external_ref,contact_name,city\n"
                + ref + ",Jose\u0301 Gonc\u0327alves,Sa\u0303o Paulo\n", StandardCharsets.UTF_8);

        Cli.Result first = cli.run("import", csv.toString());
        Customer stored = byRef(ref);
        Cli.Result again = cli.run("import", csv.toString(), "--key", "external_ref");

        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(stored.data().contactName()).isEqualTo("Jos\u00e9 Gon\u00e7alves");
        assertThat(stored.data().city()).isEqualTo("S\u00e3o Paulo");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.out()).contains("updated 0, unchanged 1");
        assertThat(byRef(ref).version()).isEqualTo(stored.version());
    }

    @Test
    void aSearchTypedInNfdFindsTheNfcRow() {
        String ref = ref();
        alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, ref).with(CustomerField.COMPANY, null)
                .with(CustomerField.CONTACT_NAME, "Bj\u00f6rk Gu\u00f0mundsd\u00f3ttir " + ref).build());

        Cli.Result r = cli.run("list", "--search", "Bjo\u0308rk Gu\u00f0mundsdo\u0301ttir");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains(ref);
    }

    /** A row as psql may write it: a control character in City, an email today's rule refuses. */
    static Customer insertedByAnotherTool() {
        long id = db.jdbi().withHandle(h -> h.createQuery("""
                        INSERT INTO customer (external_ref, company, city, email)
                        VALUES (:ref, 'Written by psql', E'Recife\\x07', 'not-an-email') RETURNING id""")
                .bind("ref", ref()).mapTo(Long.class).one());
        return alice.find(id).orElseThrow();
    }

    @Test
    void setOfAnotherFieldOfARecordWithOutOfBoundsValuesSavesAndWarnsNamingThem() {
        Customer c = insertedByAnotherTool();

        Cli.Result r = cli.run("set", Long.toString(c.id()), "phone=+55 81 3000-0000", "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("lockstep: warning: email: Email must look like name@example.com")
                .contains("lockstep: warning: city: City must be one line of text");
        Customer now = alice.find(c.id()).orElseThrow();
        assertThat(now.version()).isEqualTo(2);
        assertThat(now.data()).isEqualTo(c.data().with(CustomerField.PHONE, "+55 81 3000-0000"));
    }

    @Test
    void setOfTheOutOfBoundsFieldToAnotherOutOfBoundsValueExitsTwoNamingItAndSavesNothing() {
        Customer c = insertedByAnotherTool();

        Cli.Result r = cli.run("set", Long.toString(c.id()), "email=still-not-an-email", "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("email: Email must look like name@example.com")
                .doesNotContain("city");
        assertThat(alice.find(c.id()).orElseThrow()).isEqualTo(c);
    }

    @Test
    void anExportOfValuesAtTheirLimitInAstralCharactersImportsBackIntoAnEmptyDatabase() {
        CustomerData atLimit = aCustomer().with(CustomerField.EXTERNAL_REF, GRIN.repeat(64))
                .with(CustomerField.COMPANY, GRIN.repeat(CustomerField.COMPANY.maxLength()))
                .with(CustomerField.CITY, GRIN.repeat(CustomerField.CITY.maxLength()))
                .with(CustomerField.NOTES, (GRIN.repeat(99) + "\n").repeat(5)).build();
        String fromUrl = TestDatabases.freshUrlWithCredentials();
        String toUrl = TestDatabases.freshUrlWithCredentials();
        Path csv = dir.resolve("all.csv");
        Cli from = new Cli(fromUrl, "Tester");
        // Written before any command runs, so the source holds this one customer and no sample.
        try (Database source = Database.open(fromUrl, null, null, "Lockstep test")) {
            new JdbiCustomerRepository(source.jdbi(), "Alice").create(atLimit);
        }

        Cli.Result export = from.run("export", csv.toString());
        Cli.Result imported = new Cli(toUrl, "Tester").run("import", csv.toString());

        assertThat(export.exitCode()).as(export.toString()).isZero();
        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        assertThat(imported.out()).contains("inserted 1,");
        try (Database copy = Database.open(toUrl, null, null, "Lockstep test")) {
            CustomerData read = copy.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer")
                    .mapTo(Long.class).list()).stream()
                    .map(id -> new JdbiCustomerRepository(copy.jdbi(), "x").find(id).orElseThrow().data())
                    .findFirst().orElseThrow();
            assertThat(read).isEqualTo(atLimit.normalized());
        }
    }
}
