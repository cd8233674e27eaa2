package org.lockstep.cli;

import org.lockstep.store.JdbiCustomerBulkStore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HotRecordAdvice;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.transfer.CustomerBulkStore;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.TestDatabases;

/** The customer commands run in-process on a real database: output shapes and every exit code. */
@DatabaseTest
class CustomerCommandsTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> COLUMNS = List.of("id", "external_ref", "company", "contact_name", "contact_title",
            "email", "phone", "fax", "address", "city", "region", "postal_code", "country", "notes", "credit_limit",
            "version", "updated_at", "updated_by");

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

    static Customer aliceCreates(String ref) {
        return alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, ref).build());
    }

    static long customerCount() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one());
    }

    @Test
    void getJsonIsAnObjectKeyedByColumnNames() throws Exception {
        Customer c = aliceCreates("GET-1");

        Cli.Result r = cli.run("get", Long.toString(c.id()), "--json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode json = JSON.readTree(r.out());
        assertThat(json.isObject()).isTrue();
        List<String> keys = new ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactlyElementsOf(COLUMNS);
        assertThat(json.get("id").asLong()).isEqualTo(c.id());
        assertThat(json.get("contact_name").asText()).isEqualTo("Luís Gonçalves");
        assertThat(json.get("city").asText()).isEqualTo("São José dos Campos");
        assertThat(json.get("fax").isNull()).isTrue();
        assertThat(json.get("credit_limit").isNumber()).isTrue();
        assertThat(json.get("credit_limit").decimalValue()).isEqualByComparingTo("1000");
        assertThat(json.get("version").asLong()).isEqualTo(1);
        assertThat(Instant.parse(json.get("updated_at").asText())).isEqualTo(c.updatedAt());
        assertThat(json.get("updated_by").asText()).isEqualTo("Alice");
    }

    @Test
    void getWithoutJsonPrintsOneLinePerColumn() {
        Customer c = aliceCreates("GET-2");

        Cli.Result r = cli.run("get", Long.toString(c.id()));

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("company       Embraer - Empresa Brasileira de Aeronáutica S.A.")
                .contains("credit_limit  1000.00").contains("version       1").contains("updated_by    Alice");
    }

    @Test
    void getOfAMissingCustomerExitsThree() {
        Cli.Result r = cli.run("get", "987654321");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).isEqualTo("lockstep: no customer 987654321");
    }

    @Test
    void listJsonIsAnArrayOfTheRecordsThatMatchTheSearch() throws Exception {
        for (int i = 0; i < 3; i++) {
            alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LIST-" + i)
                    .with(CustomerField.COMPANY, "Qwyxz Trading " + i).build());
        }

        Cli.Result r = cli.run("list", "--search", "QWYXZ", "--json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode json = JSON.readTree(r.out());
        assertThat(json.isArray()).isTrue();
        assertThat(json).hasSize(3);
        assertThat(StreamSupport.stream(json.spliterator(), false).map(n -> n.get("company").asText()))
                .containsExactly("Qwyxz Trading 0", "Qwyxz Trading 1", "Qwyxz Trading 2");
        List<String> keys = new ArrayList<>();
        json.get(0).fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactlyElementsOf(COLUMNS);
    }

    @Test
    void listJsonPagesThroughTheWholeTableInIdOrder() throws Exception {
        CustomerData data = aCustomer().with(CustomerField.EXTERNAL_REF, null)
                .with(CustomerField.COMPANY, "Pagewalk Ltd").build().normalized();
        new JdbiCustomerBulkStore(db.jdbi(), "Alice").write(CustomerBulkStore.ImportKey.NONE,
                IntStream.range(0, ListCommand.PAGE_SIZE + 5)
                        .mapToObj(i -> new CustomerBulkStore.ImportRow(i + 2, null, data)).iterator());

        Cli.Result r = cli.run("list", "--search", "pagewalk", "--json");

        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode json = JSON.readTree(r.out());
        List<Long> ids = StreamSupport.stream(json.spliterator(), false).map(n -> n.get("id").asLong()).toList();
        assertThat(ids).hasSize(ListCommand.PAGE_SIZE + 5).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void listPrintsATableWithOneLinePerCustomer() {
        alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "TABLE-1").with(CustomerField.COMPANY, null)
                .with(CustomerField.CONTACT_NAME, "Tabulá Rasa").build());

        Cli.Result r = cli.run("list", "--search", "tabulá");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out().lines().toList()).hasSize(3);
        assertThat(r.out()).contains("NAME").contains("Tabulá Rasa").contains("São José dos Campos")
                .contains("1 customer");
    }

    @Test
    void createPrintsTheNewIdAndVersionAndStoresTheValues() {
        Cli.Result r = cli.run("create", "company=Acme, Ltd.", "email=sales@acme.example", "credit_limit=1,500.5",
                "external_ref=CREATE-1");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out().strip()).matches("id=\\d+ version=1");
        long id = Long.parseLong(r.out().strip().replaceAll("id=(\\d+).*", "$1"));
        Customer stored = alice.find(id).orElseThrow();
        assertThat(stored.data().company()).isEqualTo("Acme, Ltd.");
        assertThat(stored.data().email()).isEqualTo("sales@acme.example");
        assertThat(stored.data().creditLimit()).isEqualByComparingTo(new BigDecimal("1500.50"));
        assertThat(stored.version()).isEqualTo(1);
        assertThat(stored.updatedBy()).isEqualTo("Tester");
    }

    @Test
    void createWithJsonPrintsTheNewRecord() throws Exception {
        Cli.Result r = cli.run("create", "contact_name=Zoë Ångström", "--json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode json = JSON.readTree(r.out());
        assertThat(json.get("contact_name").asText()).isEqualTo("Zoë Ångström");
        assertThat(json.get("version").asLong()).isEqualTo(1);
        assertThat(alice.find(json.get("id").asLong()).orElseThrow().data().contactName()).isEqualTo("Zoë Ångström");
    }

    @ParameterizedTest(name = "{0} -> names {1}")
    @CsvSource(delimiter = '|', textBlock = """
            colour=red                  | colour
            version=7                   | version
            email=not-an-email          | email
            credit_limit=lots           | credit_limit
            credit_limit=-5             | credit_limit
            postal_code=123456789012345678901 | postal_code
            companyAcme                 | FIELD=VALUE
            """)
    void createWithInvalidInputExitsTwoNamingTheFieldAndCreatesNothing(String argument, String named) {
        long before = customerCount();

        Cli.Result r = cli.run("create", "company=Invalid Input Co", argument);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains(named);
        assertThat(r.err()).doesNotContain("\tat ");
        assertThat(customerCount()).isEqualTo(before);
    }

    @Test
    void createWithoutCompanyOrContactExitsTwoNamingCompany() {
        Cli.Result r = cli.run("create", "email=someone@example.com");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("company");
    }

    @Test
    void setChangesOnlyTheNamedFieldsAndPrintsTheNewVersion() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "SET-1")
                .with(CustomerField.FAX, "+55 (12) 3923-5566").build());

        Cli.Result r = cli.run("set", Long.toString(c.id()), "city=Curitiba", "fax=", "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out().strip()).isEqualTo("id=" + c.id() + " version=2");
        Customer stored = alice.find(c.id()).orElseThrow();
        assertThat(stored.version()).isEqualTo(2);
        assertThat(stored.updatedBy()).isEqualTo("Tester");
        assertThat(stored.data()).isEqualTo(c.data().with(CustomerField.CITY, "Curitiba")
                .with(CustomerField.FAX, null));
    }

    @Test
    void setOnAStaleVersionExitsThreeWithTheCurrentRecordAsJsonAndSavesNothing() throws Exception {
        Customer c = aliceCreates("SET-2");
        alice.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+55 11 1111-1111"));

        Cli.Result r = cli.run("set", Long.toString(c.id()), "phone=+55 22 2222-2222", "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.CONFLICT);
        JsonNode theirs = JSON.readTree(r.out());
        assertThat(theirs.get("version").asLong()).isEqualTo(2);
        assertThat(theirs.get("phone").asText()).isEqualTo("+55 11 1111-1111");
        assertThat(theirs.get("updated_by").asText()).isEqualTo("Alice");
        assertThat(r.err()).contains("version 2").contains("not 1");
        Customer stored = alice.find(c.id()).orElseThrow();
        assertThat(stored.version()).isEqualTo(2);
        assertThat(stored.data().phone()).isEqualTo("+55 11 1111-1111");
    }

    @Test
    void staleSetsAndDeletesCountAsConflictsOfTheirUserForHotRecordAdvice() {
        Customer c = aliceCreates("SET-HOT");
        alice.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+55 11 1111-1111"));

        Cli.Result set = cli.run("set", Long.toString(c.id()), "phone=+55 22 2222-2222", "--if-version", "1");
        Cli.Result delete = cli.run("delete", Long.toString(c.id()), "--if-version", "1");

        assertThat(set.exitCode()).as(set.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(delete.exitCode()).as(delete.toString()).isEqualTo(ExitCodes.CONFLICT);
        List<String> recorded = db.jdbi().withHandle(h -> h.createQuery("SELECT kind || ' by ' || detected_by"
                + " FROM customer_conflict WHERE customer_id = :id ORDER BY id").bind("id", c.id())
                .mapTo(String.class).list());
        assertThat(recorded).containsExactly("save by Tester", "delete by Tester");
        assertThat(alice.recentConflicts(c.id(), HotRecordAdvice.WINDOW)).isEqualTo(2);
        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void aVersionThatNeverExistedIsATypingErrorExitTwoAndNoConflict() {
        Customer c = aliceCreates("SET-TYPO");
        alice.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+55 11 1111-1111"));

        Cli.Result set = cli.run("set", Long.toString(c.id()), "city=Oslo", "--if-version", "3");
        Cli.Result merge = cli.run("set", Long.toString(c.id()), "city=Oslo", "--if-version", "3", "--merge");
        Cli.Result delete = cli.run("delete", Long.toString(c.id()), "--if-version", "3");

        String id = Long.toString(c.id());
        assertThat(set.exitCode()).as(set.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(set.err()).isEqualTo("lockstep: customer " + id + " has no version 3 (it is at version 2;"
                + " --if-version takes a version it had); nothing saved" + System.lineSeparator());
        assertThat(merge.exitCode()).as(merge.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(delete.exitCode()).as(delete.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(delete.err()).isEqualTo("lockstep: customer " + id + " has no version 3 (it is at version 2;"
                + " --if-version takes a version it had); nothing deleted" + System.lineSeparator());
        assertThat(set.out() + merge.out() + delete.out()).isEmpty();
        long recorded = db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer_conflict"
                + " WHERE customer_id = :id").bind("id", c.id()).mapTo(Long.class).one());
        assertThat(recorded).isZero();
        assertThat(alice.recentConflicts(c.id(), HotRecordAdvice.WINDOW)).isZero();
        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void setOnADeletedCustomerExitsThreeWithNothingOnStdout() {
        Customer c = aliceCreates("SET-3");
        alice.delete(c.id(), 1);

        Cli.Result r = cli.run("set", Long.toString(c.id()), "city=Recife", "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("no longer exists");
        assertThat(alice.find(c.id())).isEmpty();
    }

    @Test
    void setWithAnInvalidValueExitsTwoAndSavesNothing() {
        Customer c = aliceCreates("SET-4");

        Cli.Result r = cli.run("set", Long.toString(c.id()), "email=nobody", "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains("email");
        assertThat(alice.find(c.id()).orElseThrow()).isEqualTo(c);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            set 1 city=Oslo                       | --if-version
            set one city=Oslo --if-version 1      | one
            set 1 --if-version 1                  | FIELD=VALUE
            delete 1                              | --if-version
            get                                   | ID
            frobnicate                            | frobnicate
            """)
    void usageErrorsExitTwo(String arguments, String named) {
        Cli.Result r = cli.run(arguments.split(" "));

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err()).contains(named);
    }

    @Test
    void deleteOnTheCurrentVersionDeletesTheCustomer() {
        Customer c = aliceCreates("DEL-1");

        Cli.Result r = cli.run("delete", Long.toString(c.id()), "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(alice.find(c.id())).isEmpty();
    }

    @Test
    void deleteOnAStaleVersionExitsThreeWithTheCurrentRecordAndDeletesNothing() throws Exception {
        Customer c = aliceCreates("DEL-2");
        alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Recife"));

        Cli.Result r = cli.run("delete", Long.toString(c.id()), "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(JSON.readTree(r.out()).get("city").asText()).isEqualTo("Recife");
        assertThat(alice.find(c.id())).isPresent();
    }

    @Test
    void deleteOfADeletedCustomerExitsThree() {
        Customer c = aliceCreates("DEL-3");
        alice.delete(c.id(), 1);

        Cli.Result r = cli.run("delete", Long.toString(c.id()), "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("no longer exists");
    }

    @Test
    void anUnreachableDatabaseExitsOneWithAMessageAndNoStackTrace() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Cli unreachable = new Cli("jdbc:postgresql://127.0.0.1:" + closedPort + "/lockstep?user=x&password=y",
                "Tester");

        Cli.Result r = unreachable.run("list", "--json");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("Cannot connect").doesNotContain("\tat ").doesNotContain("password=y");
    }
}
