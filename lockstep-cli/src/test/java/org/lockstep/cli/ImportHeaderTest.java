package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
 * A header that names one field twice ({@code company,city,city}): {@code lockstep import} refuses it, naming the
 * column and both positions, unless {@code --map} chooses, by position ({@code 3=city}) or by skipping one. Every
 * case writes its own company into one shared database, so "nothing written" is checked by the table's rows.
 */
@DatabaseTest
class ImportHeaderTest {

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

    Cli.Result importFile(String header, String row, String options) throws IOException {
        Path csv = Files.writeString(dir.resolve("in.csv"), header + "\r\n" + row + "\r\n", StandardCharsets.UTF_8);
        List<String> args = new ArrayList<>(List.of("import", csv.toString()));
        if (!options.isBlank()) {
            args.addAll(Arrays.asList(options.strip().split(" +")));
        }
        return new Cli(url, "Tess").run(args.toArray(String[]::new));
    }

    /** Headers whose columns fill one field twice with nothing to choose: line 1 says which, nothing is written. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', quoteCharacter = '`', textBlock = """
            company,city,city;        A1,Leeds,York;      ;  `header: column "city" appears twice (columns 2 and 3); use --map to choose one`
            company,city,city,city;   A2,Leeds,York,Hull; ;  `header: column "city" appears 3 times (columns 2, 3 and 4)`
            company,City,city;        A3,Leeds,York;      ;  `header: columns 2 ("City") and 3 ("city") both fill city`
            company,postal_code,Postal Code; A4,LS1,YO1;   ;  `header: columns 2 ("postal_code") and 3 ("Postal Code") both fill postal_code`
            id,company,id;            1,A5,2;             --key id; `header: column "id" appears twice (columns 1 and 3)`
            company,city,city;        A6,Leeds,York;      --map 2=notes --map 3=notes --map 3=city; `--map "3=city": column 3 is already mapped by --map "3=notes"`
            company,city,city;        A7,Leeds,York;      --map city=city; `--map "city=city": the file has 2 columns named "city" (columns 2 and 3); choose one by its position, e.g. --map "3=city"`
            company,city,city;        A8,Leeds,York;      --map 4=city; `--map "4=city": the file has no column "4"`
            company,3,city;           A9,Leeds,York;      --map 3=city; `--map "3=city": "3" is the name of column 2 and the position of column 3`
            """)
    void aFieldFilledTwiceByNameIsRefusedNamingTheColumnAndPositions(String header, String row, String options,
            String message) throws IOException {
        List<Map<String, Object>> before = table();

        Cli.Result r = importFile(header, row, options == null ? "" : options);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains(message);
        assertThat(r.out()).isEmpty();
        assertThat(table()).isEqualTo(before);
    }

    /** {@code --map} chooses which column fills the field; the values stored are those of the chosen column. */
    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = ';', textBlock = """
            company,city,city;          B1,Leeds,York;          --map 3=city;                  York;  ''
            company,city,city;          B2,Leeds,York;          --map 2=city;                  Leeds; ''
            company,city,city;          B3,Leeds,York;          --map 2=;                      York;  ''
            company,city,city;          B4,Leeds,York;          --map 3=notes;                 Leeds; York
            company,city,city;          B5,Leeds,York;          --map city=;                   '';    ''
            company,city,Town;          B6,Leeds,York;          --map Town=city;               York;  ''
            company,City,city;          B7,Leeds,York;          --map 2=city --map 3=notes;    Leeds; York
            company,city,,;             B8,Leeds,,Note;         --map 4=notes;                 Leeds; Note
            company,city,3;             B9,Leeds,York;          --map 3=;                      Leeds; ''
            company,2,city;             B10,Leeds,York;         --map 2=notes;                 York;  Leeds
            """)
    void aMapChoosesTheColumn(String header, String row, String options, String city, String notes)
            throws IOException {
        Cli.Result r = importFile(header, row, options);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        CustomerData stored = byCompany(row.substring(0, row.indexOf(',')));
        assertThat(stored.city()).isEqualTo(city.isEmpty() ? null : city);
        assertThat(stored.notes()).isEqualTo(notes.isEmpty() ? null : notes);
    }
}
