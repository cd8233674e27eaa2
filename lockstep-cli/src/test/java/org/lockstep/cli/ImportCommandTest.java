package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
 * {@code lockstep import} on a real database. Each test gets a fresh database that already holds one customer (so
 * the first-run sample stays out of the way and the tests see only their own rows).
 */
@DatabaseTest
class ImportCommandTest {

    @TempDir
    Path dir;

    Database db;
    JdbiCustomerRepository alice;
    Cli cli;
    Customer existing;

    @BeforeEach
    void open() {
        String url = TestDatabases.freshUrlWithCredentials();
        db = Database.open(url, null, null, "Lockstep test");
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        existing = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "EXISTING").build());
        cli = new Cli(url, "Tester");
    }

    @AfterEach
    void close() {
        db.close();
    }

    Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    List<Map<String, Object>> table() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT * FROM customer ORDER BY id").mapToMap().list());
    }

    Customer byRef(String ref) {
        long id = db.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer WHERE external_ref = :r")
                .bind("r", ref).mapTo(Long.class).one());
        return alice.find(id).orElseThrow();
    }

    Customer byCompany(String company) {
        long id = db.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer WHERE company = :c")
                .bind("c", company).mapTo(Long.class).one());
        return alice.find(id).orElseThrow();
    }

    @Test
    void theShippedSampleImportsItsFiftyNineCustomersWithAccentsIntact() {
        Cli.Result r = cli.run("import",
                "../lockstep-postgres/src/main/resources/org/lockstep/resources/chinook-customers.csv", "--map",
                "customer_id=external_ref",
                "--map", "first_name=contact_name", "--map", "last_name=contact_name", "--map", "state=region");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("inserted 59, updated 0");
        assertThat(table()).hasSize(60);
        Customer luis = byRef("1");
        assertThat(luis.data().contactName()).isEqualTo("Luís Gonçalves");
        assertThat(luis.data().company()).isEqualTo("Embraer - Empresa Brasileira de Aeronáutica S.A.");
        assertThat(luis.data().city()).isEqualTo("São José dos Campos");
        assertThat(luis.data().region()).isEqualTo("SP");
        assertThat(luis.data().address()).isEqualTo("Av. Brigadeiro Faria Lima, 2170");
        assertThat(luis.updatedBy()).isEqualTo("Tester");
        assertThat(byRef("2").data().contactName()).isEqualTo("Leonie Köhler");
        assertThat(byRef("2").data().address()).isEqualTo("Theodor-Heuss-Straße 34");
        assertThat(byRef("4").data().contactName()).isEqualTo("Bjørn Hansen");
    }

    @Test
    void aHeaderOfTenThousandUnknownColumnsIsOneLineThatCountsThemAndNamesTheFirstFew() throws IOException {
        StringBuilder header = new StringBuilder("company");
        for (int i = 1; i <= 10_000; i++) {
            header.append(",c").append(i);
        }
        Path csv = file("wide.csv", header + "\r\nA Co" + ",x".repeat(10_000) + "\r\n");

        Cli.Result r = cli.run("import", csv.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err().lines()).as(r.err()).hasSizeLessThanOrEqualTo(2);
        assertThat(r.err()).contains("10,000 unknown columns: \"c1\", \"c2\", \"c3\", \"c4\", \"c5\" and 9,995 more")
                .contains("nothing imported");
    }

    @Test
    void aFileWithAByteOrderMarkReadsItsFirstColumn() throws IOException {
        Path csv = dir.resolve("bom.csv");
        Files.write(csv, ("\uFEFFcompany,email\r\nBöm GmbH,info@boem.example\r\n").getBytes(StandardCharsets.UTF_8));

        Cli.Result r = cli.run("import", csv.toString());

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(byCompany("Böm GmbH").data().email()).isEqualTo("info@boem.example");
    }

    @Test
    void quotedValuesKeepTheirCommasQuotesAndLineBreaks() throws IOException {
        Path csv = file("quoted.csv", "company,address,notes,city\r\n"
                + "\"Quote \"\"Q\"\" & Sons, Ltd.\",\"Rua A, 1\r\nApt. 2\",\"first line\nsecond, with comma\","
                + "\"Lisboa\"\r\n"
                + "Plain Co,,,Porto\r\n");

        Cli.Result r = cli.run("import", csv.toString());

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("inserted 2");
        Customer quoted = byCompany("Quote \"Q\" & Sons, Ltd.");
        assertThat(quoted.data().address()).isEqualTo("Rua A, 1\nApt. 2");
        assertThat(quoted.data().notes()).isEqualTo("first line\nsecond, with comma");
        assertThat(quoted.data().city()).isEqualTo("Lisboa");
        assertThat(byCompany("Plain Co").data().address()).isNull();
    }

    @Test
    void mapsNameSourceColumnsWithSpacesSlashesAndEqualsSigns() throws IOException {
        Path csv = file("mapped.csv", "Firma,State/Province,E-Mail Address,a=b,Postal Code,Ignore me\n"
                + "Mappé AG,ZH,kontakt@mappe.example,Zürich,8001,whatever\n");

        Cli.Result r = cli.run("import", csv.toString(), "--map", "Firma=company", "--map", "State/Province=region",
                "--map", "E-Mail Address=email", "--map", "a=b=city", "--map", "Ignore me=");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        Customer c = byCompany("Mappé AG");
        assertThat(c.data().region()).isEqualTo("ZH");
        assertThat(c.data().email()).isEqualTo("kontakt@mappe.example");
        assertThat(c.data().city()).isEqualTo("Zürich");
        assertThat(c.data().postalCode()).isEqualTo("8001");
    }

    @Test
    void keyExternalRefUpdatesExistingCustomersAndInsertsTheRest() throws IOException {
        Customer unchanged = alice.create(CustomerData.EMPTY.with(CustomerField.EXTERNAL_REF, "SAME")
                .with(CustomerField.COMPANY, "Same Co").with(CustomerField.CONTACT_NAME, "Sam Same")
                .with(CustomerField.CITY, "Sameville").with(CustomerField.CREDIT_LIMIT, new BigDecimal("1000")));
        Path csv = file("keyed.csv", "external_ref,company,contact_name,city,credit_limit\n"
                + "EXISTING,Embraer - Empresa Brasileira de Aeronáutica S.A.,Luís Gonçalves,Curitiba,2500\n"
                + "NEW-1,Nova Ltda,,Recife,\n"
                + "SAME," + unchanged.data().company() + "," + unchanged.data().contactName() + ","
                + unchanged.data().city() + ",1000\n");

        Cli.Result r = cli.run("import", csv.toString(), "--key", "external_ref", "--map", "city=city");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("inserted 1, updated 1, unchanged 1");
        Customer updated = byRef("EXISTING");
        assertThat(updated.id()).isEqualTo(existing.id());
        assertThat(updated.version()).isEqualTo(2);
        assertThat(updated.updatedBy()).isEqualTo("Tester");
        assertThat(updated.updatedAt()).isAfter(existing.updatedAt());
        assertThat(updated.data().city()).isEqualTo("Curitiba");
        assertThat(updated.data().creditLimit()).isEqualByComparingTo("2500");
        // The file's columns are the whole record: a field the file leaves out is absent afterwards.
        assertThat(updated.data().email()).isNull();
        assertThat(byRef("NEW-1").version()).isEqualTo(1);
        assertThat(byRef("NEW-1").data().city()).isEqualTo("Recife");
        assertThat(byRef("SAME").version()).isEqualTo(1);
    }

    @Test
    void keyIdUpdatesByIdAndInsertsRowsWithUnknownOrEmptyIds() throws IOException {
        Path csv = file("by-id.csv", "id,external_ref,company,version,updated_at,updated_by\n"
                + existing.id() + ",EXISTING,Renamed SA,1,2020-01-01T00:00:00Z,Someone\n"
                + ",ID-NEW,Fresh Co,,,\n"
                + "987654321,ID-GONE,Gone Co,3,2020-01-01T00:00:00Z,Someone\n");

        Cli.Result r = cli.run("import", csv.toString(), "--key", "id");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("inserted 2, updated 1");
        Customer renamed = alice.find(existing.id()).orElseThrow();
        assertThat(renamed.data().company()).isEqualTo("Renamed SA");
        assertThat(renamed.version()).isEqualTo(2);
        assertThat(renamed.updatedBy()).isEqualTo("Tester");
        assertThat(byRef("ID-GONE").id()).isNotEqualTo(987654321L);
    }

    /** Each file has exactly one problem; {@code |} in the text stands for a line break. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', quoteCharacter = '`', textBlock = """
            unknown column;         company,colour|A Co,red;                                   1; colour
            invalid email;          company,email|A Co,a@a.example|B Co,b-at-example;          3; email
            negative credit limit;  company,credit_limit|A Co,-10;                            2; credit_limit
            non-numeric credit;     company,credit_limit|A Co,ten;                            2; credit_limit
            missing required field; company,contact_name,city|,,Oslo;                          2; company
            too long;               company,postal_code|A Co,123456789012345678901;            2; postal_code
            too many values;        company,city|A Co,Oslo,Norway;                             2; header has 2
            unclosed quote;         company,city|A Co,Oslo|"B Co,Bergen;                       3; never closed
            duplicate external ref; external_ref,company|R1,A Co|R1,B Co;                      3; external_ref
            external ref in use;    external_ref,company|EXISTING,A Co;                        2; external_ref
            bad id with key id;     id,company|x1,A Co;                                        2; id
            """)
    void aBadRowRejectsTheWholeFileNamingItsLineAndField(String name, String text, long line, String reason)
            throws IOException {
        Path csv = file("bad.csv", text.replace("|", "\r\n") + "\r\n");
        List<Map<String, Object>> before = table();

        Cli.Result r = name.startsWith("bad id") ? cli.run("import", csv.toString(), "--key", "id")
                : cli.run("import", csv.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("line " + line + ": ").contains(reason).contains("nothing imported");
        assertThat(r.out()).isEmpty();
        assertThat(table()).isEqualTo(before);
    }

    @Test
    void everyBadRowIsReportedWithTheLineItStartsOnAndNothingIsImported() throws IOException {
        Path csv = file("several.csv", "company,address,email,credit_limit\r\n" // 1
                + "Good One,\"two\r\nlines\",one@good.example,1\r\n" // 2-3
                + "Bad Email,,nope,\r\n" // 4
                + "\r\n" // 5
                + "Good Two,\"three\nshort\nlines\",two@good.example,\r\n" // 6-8
                + "Bad Credit,,,-1\r\n" // 9
                + ",\"no name\r\nhere\",,\r\n" // 10-11
                + "Good Three,,,\r\n"); // 12
        List<Map<String, Object>> before = table();

        Cli.Result r = cli.run("import", csv.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err().lines().filter(l -> l.contains(": line ")).toList()).containsExactly(
                csv + ": line 4: email: Email must look like name@example.com",
                csv + ": line 9: credit_limit: Credit limit must not be negative",
                csv + ": line 10: company: Company or contact name is required");
        assertThat(r.err()).contains("nothing imported: 3 bad lines");
        assertThat(table()).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', textBlock = """
            --map without =;       SOURCE=FIELD   ; --map; colour
            --map missing source;  no column      ; --map; Farbe=city
            --map unknown field;   unknown field  ; --map; Firma=colour
            --key company;         must be        ; --key; company
            --key id without id;   no id column   ; --key; id
            """)
    void mappingAndKeyMistakesAreUsageErrors(String name, String expected, String option, String value)
            throws IOException {
        Path csv = file("ok.csv", "Firma,city\nA Co,Oslo\n");
        List<Map<String, Object>> before = table();

        Cli.Result r = cli.run("import", csv.toString(), option, value);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains(expected);
        assertThat(table()).isEqualTo(before);
    }

    @Test
    void aMissingFileIsAUsageError() {
        Cli.Result r = cli.run("import", dir.resolve("nowhere.csv").toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("nowhere.csv").contains("no such file");
    }

    @Test
    void aFileThatIsNotUtf8IsRejectedWithItsLine() throws IOException {
        Path csv = dir.resolve("latin1.csv");
        Files.write(csv, "company,city\nA Co,Oslo\nB Co,S\u00e3o Paulo\n".getBytes(StandardCharsets.ISO_8859_1));
        List<Map<String, Object>> before = table();

        Cli.Result r = cli.run("import", csv.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("line 3: city: holds bytes that are not UTF-8");
        assertThat(table()).isEqualTo(before);
    }
}
