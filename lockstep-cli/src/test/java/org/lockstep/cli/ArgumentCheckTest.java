package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * Arguments that are wrong before any database work: versions below 1, text the terminal did not send as UTF-8
 * (the JVM hands it over as U+FFFD), and bidirectional controls, which the domain validator refuses. Each exits 2
 * with one line naming the argument or field, and changes nothing.
 */
@DatabaseTest
class ArgumentCheckTest {

    static Database db;
    static JdbiCustomerRepository alice;
    static Cli cli;
    static Customer customer;

    @BeforeAll
    static void open() {
        String url = TestDatabases.freshUrlWithCredentials();
        db = Database.open(url, null, null, "Lockstep test");
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        cli = new Cli(url, "Tester");
        customer = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ARG-1").build());
    }

    @AfterAll
    static void close() {
        db.close();
    }

    /**
     * {@code ID} stands for the customer's id; {@code \uFFFD} and {@code \u202E} are written as escapes here and
     * are single characters in the argument. Positions count from 1 after the program name, and {@link Cli} puts
     * {@code --db-url URL --user NAME --data-dir DIR} first.
     */
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', textBlock = """
            set ID city=Oslo --if-version -1                 | --if-version must be a version (1 or more), not -1
            set ID city=Oslo --if-version 0                  | --if-version must be a version (1 or more), not 0
            delete ID --if-version -1                        | --if-version must be a version (1 or more), not -1
            delete ID --if-version 0                         | --if-version must be a version (1 or more), not 0
            create company=Acme city=Lyon\uFFFD               | argument 9 (city) is not valid UTF-8
            create company=Acme ci\uFFFDy=Lyon                | argument 9 is not valid UTF-8
            set ID notes=caf\uFFFD --if-version 1             | argument 9 (notes) is not valid UTF-8
            list --search caf\uFFFD                          | argument 9 (--search) is not valid UTF-8
            list --search=caf\uFFFD                          | argument 8 is not valid UTF-8
            create company=Acme\u202Egpj.exe                  | company: Company contains a right-to-left override (U+202E), which can disguise text
            set ID city=\u2067Lyon --if-version 1             | city: City contains a right-to-left isolate (U+2067), which can disguise text
            """)
    void invalidArgumentsExitTwoWithOneLineNamingThemAndChangeNothing(String arguments, String message) {
        long customers = customerCount();
        List<String> args = new ArrayList<>();
        for (String a : arguments.split(" ")) {
            args.add(a.equals("ID") ? Long.toString(customer.id()) : a);
        }

        Cli.Result r = cli.run(args.toArray(String[]::new));

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err().lines()).as(r.toString()).hasSize(1);
        assertThat(r.err()).startsWith("lockstep: " + message);
        assertThat(r.out()).isEmpty();
        assertThat(alice.find(customer.id()).orElseThrow()).isEqualTo(customer);
        assertThat(customerCount()).isEqualTo(customers);
    }

    private static long customerCount() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one());
    }
}
