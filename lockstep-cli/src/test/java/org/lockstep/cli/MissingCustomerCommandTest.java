package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
 * Every command that names a customer by id tells an id no customer ever had ("no customer N") from a customer
 * someone deleted ("no longer exists", with who and when from the history's DELETE entry); both exit 3 and change
 * nothing.
 */
@DatabaseTest
class MissingCustomerCommandTest {

    /** An id the fresh database's sequence never reaches in these tests. */
    static final long NEVER = 987_654_321L;
    static final AtomicInteger REFS = new AtomicInteger();
    static final String COMMANDS = """
            get ID                                          | ''
            set ID city=Oslo --if-version 1                 | nothing saved
            set ID city=Oslo --if-version 1 --merge         | nothing saved
            set ID city=Oslo --if-version 1 --lease-token 1 | nothing saved
            delete ID --if-version 1                        | nothing deleted
            delete ID --if-version 1 --lease-token 1        | nothing deleted
            lease acquire ID                                | nothing locked
            lease break ID                                  | nothing broken
            lease release ID --token 1                      | nothing released
            """;

    static Database db;
    static JdbiCustomerRepository alice;
    static Cli cli;

    @BeforeAll
    static void open() {
        String url = TestDatabases.freshUrlWithCredentials();
        db = Database.open(url, null, null, "Lockstep test");
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        cli = new Cli(url, "Tester");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = COMMANDS)
    void anIdNoCustomerEverHadIsNoCustomer(String command, String nothingDone) {
        Cli.Result r = cli.run(arguments(command, NEVER));

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).isEqualTo("lockstep: no customer " + NEVER
                + (nothingDone.isEmpty() ? "" : "; " + nothingDone));
        assertThat(count("customer WHERE id = " + NEVER)).isZero();
        assertThat(count("record_lease WHERE record_id = " + NEVER)).isZero();
        assertThat(count("customer_history WHERE customer_id = " + NEVER)).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = COMMANDS)
    void aDeletedCustomerNoLongerExistsNamingWhoDeletedIt(String command, String nothingDone) {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "GONE-" + REFS.incrementAndGet())
                .build());
        alice.delete(c.id(), 1);
        long historyBefore = count("customer_history WHERE customer_id = " + c.id());

        Cli.Result r = cli.run(arguments(command, c.id()));

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).matches("lockstep: (conflict: )?customer " + c.id()
                + " no longer exists \\(deleted by Alice at \\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z\\)"
                + (nothingDone.isEmpty() ? "" : "; " + nothingDone));
        assertThat(count("customer WHERE id = " + c.id())).isZero();
        assertThat(count("record_lease WHERE record_id = " + c.id())).isZero();
        assertThat(count("customer_history WHERE customer_id = " + c.id())).isEqualTo(historyBefore);
    }

    private static String[] arguments(String command, long id) {
        List<String> args = new ArrayList<>();
        for (String word : command.strip().split(" +")) {
            args.add(word.equals("ID") ? Long.toString(id) : word);
        }
        return args.toArray(String[]::new);
    }

    private static long count(String fromWhere) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM " + fromWhere).mapTo(Long.class).one());
    }
}
