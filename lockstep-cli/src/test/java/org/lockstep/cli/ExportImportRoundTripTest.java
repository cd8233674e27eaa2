package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.transfer.CsvRecordReader;
import org.lockstep.transfer.CsvRecordReader.NumberedRecord;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.TestDatabases;

/**
 * The law of {@code lockstep export} and {@code lockstep import}: whatever text customers hold — emoji, NFC text,
 * values that start with {@code = + - @}, a tab or a line break, quotes before them, delimiters and quotes inside —
 * exporting them from one database and importing the file with {@code --key external_ref} into another stores the
 * same values; and no cell of the file starts, after spaces, with a character that makes a spreadsheet formula.
 * Every try adds its customers to the same two databases (each with its own external ref) and moves the whole table.
 */
// A jqwik container: jqwik reads its own @Tag, not JUnit Jupiter's, so @DatabaseTest would not tag it.
@Tag(DatabaseTest.TAG)
class ExportImportRoundTripTest {

    private static final AtomicInteger REFS = new AtomicInteger();
    private static final List<String> SINGLE_LINE_PIECES = List.of("=", "+", "-", "@", "'", "'", "\"", ",", ";",
            "|", " ", "\u00A0", "a", "Z", "9", "é", "e\u0301", "ß", "株", "😀", "👍🏽", "#");
    private static final List<String> MULTI_LINE_PIECES = List.of("\t", "\n", "\r\n", "\r");

    private static String sourceUrl;
    private static String targetUrl;
    private static Database source;
    private static Database target;
    private static Path dir;

    @BeforeContainer
    static void open() throws IOException {
        sourceUrl = TestDatabases.freshUrlWithCredentials();
        targetUrl = TestDatabases.freshUrlWithCredentials();
        source = Database.open(sourceUrl, null, null, "Lockstep test");
        target = Database.open(targetUrl, null, null, "Lockstep test");
        dir = Files.createTempDirectory("lockstep-round-trip");
    }

    @AfterContainer
    static void close() throws IOException {
        source.close();
        target.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Property(tries = 20)
    void exportThenImportStoresTheSameValues(@ForAll("customers") List<CustomerData> customers)
            throws IOException {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(source.jdbi(), "Alice");
        List<Customer> created = customers.stream().map(alice::create).toList();
        Path csv = dir.resolve("all.csv");

        Cli.Result exported = new Cli(sourceUrl, "Tess").run("export", csv.toString());
        Cli.Result imported = new Cli(targetUrl, "Tess").run("import", csv.toString(), "--key", "external_ref");

        assertThat(exported.exitCode()).as(exported.toString()).isZero();
        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        assertThat(imported.out()).contains("inserted " + customers.size() + ", updated 0");
        for (Customer c : created) {
            assertThat(byRef(target, c.data().externalRef())).isEqualTo(c.data());
        }
        assertNoCellStartsAFormula(csv);
    }

    private static void assertNoCellStartsAFormula(Path csv) throws IOException {
        try (CsvRecordReader reader = CsvRecordReader.open(csv)) {
            for (Optional<NumberedRecord> r = reader.next(); r.isPresent(); r = reader.next()) {
                for (String cell : r.get().values()) {
                    String afterSpaces = cell.replaceFirst("^\\p{Zs}+", "");
                    assertThat(afterSpaces.isEmpty() ? ' ' : afterSpaces.charAt(0)).as("line %d: %s", r.get().line(),
                            cell).isNotIn('=', '+', '-', '@', '\t', '\r', '\n');
                }
            }
        }
    }

    private static CustomerData byRef(Database db, String ref) {
        long id = db.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer WHERE external_ref = :r")
                .bind("r", ref).mapTo(Long.class).one());
        return new JdbiCustomerRepository(db.jdbi(), "x").find(id).orElseThrow().data();
    }

    @Provide
    Arbitrary<List<CustomerData>> customers() {
        return customer().list().ofMinSize(1).ofMaxSize(3);
    }

    private static Arbitrary<CustomerData> customer() {
        return Builders.withBuilder(() -> CustomerData.EMPTY)
                .use(text(false, 3)).in((d, t) -> d.with(CustomerField.EXTERNAL_REF,
                        t + "R" + REFS.incrementAndGet()))
                .use(text(false, 8)).in((d, t) -> d.with(CustomerField.COMPANY, t))
                .use(text(false, 8)).in((d, t) -> d.with(CustomerField.CONTACT_NAME, t))
                .use(text(false, 8)).in((d, t) -> d.with(CustomerField.PHONE, t))
                .use(text(false, 5)).in((d, t) -> d.with(CustomerField.POSTAL_CODE, t))
                .use(text(false, 8)).in((d, t) -> d.with(CustomerField.CITY, t))
                .use(text(true, 10)).in((d, t) -> d.with(CustomerField.ADDRESS, t))
                .use(text(true, 10)).in((d, t) -> d.with(CustomerField.NOTES, t))
                .build(CustomerData::normalized)
                .filter(d -> CustomerValidator.validate(d).isEmpty());
    }

    /**
     * NFC text from pieces chosen to make formula characters, quotes and delimiters common, or any string of
     * Unicode scalar values (no lone surrogates: PostgreSQL stores text as UTF-8, which cannot hold them).
     */
    private static Arbitrary<String> text(boolean multiLine, int pieces) {
        List<String> alphabet = new ArrayList<>(SINGLE_LINE_PIECES);
        if (multiLine) {
            alphabet.addAll(MULTI_LINE_PIECES);
        }
        Arbitrary<String> built = Arbitraries.of(alphabet).list().ofMaxSize(pieces).map(l -> String.join("", l));
        Arbitrary<String> any = Arbitraries.strings().ofMaxLength(pieces).filter(s -> !hasLoneSurrogate(s))
                // U+FFFD is how import marks bytes that are not UTF-8; a value holding it cannot be told from those.
                .filter(s -> s.indexOf(CsvRecordReader.UNDECODABLE) < 0);
        return Arbitraries.frequencyOf(Tuple.of(4, built), Tuple.of(1, any))
                .map(s -> Normalizer.normalize(s, Normalizer.Form.NFC));
    }

    private static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
