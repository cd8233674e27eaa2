package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * Files whose values are separated by semicolons (what Excel saves in de, fr, es, pt-BR…), tabs or pipes are read
 * as such, told from the header line or by {@code --delimiter}; a header that could be read more than one way is
 * refused. Every case writes its own company into one shared database.
 */
@DatabaseTest
class ImportDelimiterTest {

    static String url;
    static Database db;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() {
        url = TestDatabases.freshUrlWithCredentials();
        db = Database.open(url, null, null, "Lockstep test");
        // One customer, so that the first command does not load the sample customers.
        new JdbiCustomerRepository(db.jdbi(), "Alice").create(CustomerData.EMPTY.with(CustomerField.COMPANY,
                "Already Here"));
    }

    @AfterAll
    static void close() {
        db.close();
    }

    static List<Map<String, Object>> table() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT * FROM customer ORDER BY id").mapToMap().list());
    }

    static CustomerData byCompany(String company) {
        long id = db.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer WHERE company = :c")
                .bind("c", company).mapTo(Long.class).one());
        return new JdbiCustomerRepository(db.jdbi(), "x").find(id).orElseThrow().data();
    }

    /** {@code ⇥} stands for a tab, {@code |} for a line break (CRLF) between records. */
    Path file(String text) throws IOException {
        return Files.writeString(dir.resolve("in.csv"), text.replace("⇥", "\t").replace("|", "\r\n") + "\r\n",
                StandardCharsets.UTF_8);
    }

    Cli.Result run(Path csv, String... options) {
        List<String> args = new ArrayList<>(List.of("import", csv.toString()));
        args.addAll(List.of(options));
        return new Cli(url, "Tess").run(args.toArray(String[]::new));
    }

    /**
     * Each file is told apart by its header alone; the quoted values hold the other delimiters, which stay text.
     * Pipes stand for line breaks here, so the pipe-separated file has its own test.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '#', quoteCharacter = '`', textBlock = """
            comma#      company,address,city,credit_limit|C1 Ltd,"Rua A; 1⇥b",Porto,1500.50#            C1 Ltd#  Rua A; 1⇥b#  Porto#  1500.50
            semicolon#  company;address;city;credit_limit|S1 GmbH;"Straße 1, Hof; links";Köln;1500.50# S1 GmbH# Straße 1, Hof; links# Köln# 1500.50
            semicolon, quoted header#  "company";"address";"city"|"S2 SA";"Rue 2, bis";"Lyon"#     S2 SA#   Rue 2, bis#   Lyon#   ``
            semicolon, name with comma# "company, legal";city|S3 SL;Madrid#                          S3 SL#   ``#           Madrid# ``
            tab#        company⇥address⇥city⇥credit_limit|T1 Oy⇥"Katu 1, A; 2"⇥Espoo⇥1500.50#       T1 Oy#   Katu 1, A; 2# Espoo#  1500.50
            tab, trailing empty column# company⇥city⇥|T2 AB⇥Malmö⇥#                                  T2 AB#   ``#           Malmö#  ``
            """)
    void theHeaderTellsTheDelimiter(String name, String text, String company, String address, String city,
            String credit) throws IOException {
        Cli.Result r = name.endsWith("name with comma")
                ? run(file(text), "--map", "company, legal=company")
                : run(file(text));

        assertThat(r.exitCode()).as(r.toString()).isZero();
        CustomerData stored = byCompany(company);
        assertThat(stored.address()).isEqualTo(address.isEmpty() ? null : address.replace("⇥", "\t"));
        assertThat(stored.city()).isEqualTo(city);
        assertThat(stored.creditLimit()).isEqualTo(credit.isEmpty() ? null : new BigDecimal(credit));
    }

    @Test
    void aPipeSeparatedFileIsReadFromItsHeader() throws IOException {
        Path csv = Files.writeString(dir.resolve("pipes.csv"),
                "company|city|notes\nP1 Inc|Boston|\"a, b; c\"\n", StandardCharsets.UTF_8);

        Cli.Result r = run(csv);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(byCompany("P1 Inc").city()).isEqualTo("Boston");
        assertThat(byCompany("P1 Inc").notes()).isEqualTo("a, b; c");
    }

    @Test
    void aSemicolonFileAsExcelSavesItWithAByteOrderMarkAndMappedNames() throws IOException {
        Path csv = dir.resolve("excel-de.csv");
        Files.write(csv, ("\uFEFFFirma;Straße, Nr.;Ort;Kreditlimit\r\n"
                + "Müller KG;\"Hauptstraße 5; Hinterhaus\";München;1500.50\r\n").getBytes(StandardCharsets.UTF_8));

        Cli.Result r = run(csv, "--map", "Firma=company", "--map", "Straße, Nr.=address", "--map", "Ort=city",
                "--map", "Kreditlimit=credit_limit");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        CustomerData stored = byCompany("Müller KG");
        assertThat(stored.address()).isEqualTo("Hauptstraße 5; Hinterhaus");
        assertThat(stored.city()).isEqualTo("München");
        assertThat(stored.creditLimit()).isEqualByComparingTo("1500.50");
    }

    /** Headers that read as known columns more than one way, or none: refused on line 1, nothing written. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '#', quoteCharacter = '`', textBlock = """
            name with comma, unmapped#  Firma;Straße, Nr.;Ort|X1;Weg 1;Bonn#   `cannot tell whether the columns are separated by commas (1) or semicolons (2)`
            commas and semicolons#      company,city;country|X2,Oslo;Norway#    `by commas, "city;country" is not a known column; by semicolons, "company,city" is not a known column`
            tab inside a comma file#    company,city⇥country|X3,Oslo⇥Norway#   `separated by commas (1) or tabs (1)`
            """)
    void anAmbiguousHeaderIsRefusedUntilDelimiterSaysWhich(String name, String text, String message)
            throws IOException {
        List<Map<String, Object>> before = table();

        Cli.Result r = run(file(text));

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("line 1: header: ").contains(message).contains("say which with --delimiter")
                .contains("nothing imported");
        assertThat(table()).isEqualTo(before);
    }

    /** {@code --delimiter} in each spelling it accepts. */
    @ParameterizedTest(name = "--delimiter {0}")
    @CsvSource(delimiter = '#', quoteCharacter = '`', textBlock = """
            `,`#         ,#   D1
            `;`#         ;#   D2
            tab#         ⇥#   D3
            `\\t`#       ⇥#   D4
            TAB#         ⇥#   D5
            `|`#         |#   D6
            semicolon#   ;#   D7
            """)
    void delimiterSaysWhichSeparatesTheValues(String option, String separator, String company)
            throws IOException {
        String sep = separator.replace("⇥", "\t");
        Path csv = Files.writeString(dir.resolve("given.csv"), "company" + sep + "city" + sep + "notes\n"
                + company + sep + "Oslo" + sep + "\"a, b; c|d\te\"\n", StandardCharsets.UTF_8);

        Cli.Result r = run(csv, "--delimiter", option);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(byCompany(company).city()).isEqualTo("Oslo");
        assertThat(byCompany(company).notes()).isEqualTo("a, b; c|d\te");
    }

    @Test
    void delimiterResolvesAHeaderThatReadsTwoWays() throws IOException {
        Path csv = file("Firma;Straße, Nr.;Ort|D8 KG;Weg 1, 2;Bonn");

        Cli.Result r = run(csv, "--delimiter", ";", "--map", "Firma=company", "--map", "Straße, Nr.=address",
                "--map", "Ort=city");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(byCompany("D8 KG").address()).isEqualTo("Weg 1, 2");
        assertThat(byCompany("D8 KG").city()).isEqualTo("Bonn");
    }

    @ParameterizedTest(name = "--delimiter {0}")
    @CsvSource(quoteCharacter = '`', textBlock = """
            x
            ;;
            `,;`
            """)
    void anUnknownDelimiterIsAUsageError(String option) throws IOException {
        Path csv = file("company,city|U1,Oslo");
        List<Map<String, Object>> before = table();

        Cli.Result r = run(csv, "--delimiter", option);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("--delimiter \"" + option + "\": expected");
        assertThat(table()).isEqualTo(before);
    }

    @Test
    void aRowWithTooManyValuesNamesTheFilesDelimiter() throws IOException {
        Path csv = file("company;city|R1;Oslo;Norway");

        Cli.Result r = run(csv);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("line 2: has 3 values but the header has 2 columns (is a value with a "
                + "semicolon or a line break missing its quotes?)");
    }
}
