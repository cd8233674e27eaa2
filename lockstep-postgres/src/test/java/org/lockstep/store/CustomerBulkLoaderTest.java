package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.synthetic.SyntheticCustomers;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerSort;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

@DatabaseTest
class CustomerBulkLoaderTest {

    @FreshDatabase
    Database db;
    CustomerBulkLoader loader;
    JdbiCustomerRepository repository;

    @BeforeEach
    void open() {
        loader = new CustomerBulkLoader(db.jdbi(), "Loader");
        repository = new JdbiCustomerRepository(db.jdbi(), "Reader");
    }

    /**
     * A bulk load lifts the statement bound for its own transactions only: through a transaction-pooling PgBouncer a
     * session-level SET would stay on a server connection the next client then uses, unbounded. One connection does
     * every step here, so a leaked setting would show.
     */
    @Test
    void bulkLoadAndStatisticsLeaveTheConnectionsStatementBoundAsItWas() throws Exception {
        try (Connection only = db.dataSource().getConnection()) {
            Jdbi oneConnection = Jdbi.create(only);
            CustomerBulkLoader onOne = new CustomerBulkLoader(oneConnection, "Loader");
            String before = oneConnection.withHandle(h -> h.createQuery("SHOW statement_timeout")
                    .mapTo(String.class).one());

            onOne.copy(LongStream.rangeClosed(1, 500).mapToObj(new SyntheticCustomers(9)::customer).toList());
            boolean vacuumed = onOne.vacuumAnalyze();

            assertThat(before).isEqualTo(SessionSettings.STATEMENT_TIMEOUT_MS / 1000 + "s");
            String after = oneConnection.withHandle(h -> h.createQuery("SHOW statement_timeout")
                    .mapTo(String.class).one());
            assertThat(after).isEqualTo(before);
            assertThat(vacuumed).isTrue();
            boolean recorded = oneConnection.withHandle(h -> h.createQuery(
                    "SELECT last_analyze IS NOT NULL AND last_vacuum IS NOT NULL FROM pg_stat_user_tables"
                            + " WHERE relname = 'customer'")
                    .mapTo(Boolean.class).one());
            assertThat(recorded).isTrue();
        }
    }

    @Test
    void copiedRowsReadBackValidAndUnchangedAtVersionOne() {
        SyntheticCustomers generator = new SyntheticCustomers(5);
        List<CustomerData> rows = LongStream.rangeClosed(1, 3_000).mapToObj(generator::customer).toList();

        long written = loader.copy(rows.subList(0, 1_000)) + loader.copy(rows.subList(1_000, 3_000));

        assertThat(written).isEqualTo(3_000);
        List<Customer> stored = all();
        assertThat(stored).hasSize(3_000);
        assertThat(stored).allSatisfy(c -> {
            assertThat(CustomerValidator.validate(c.data())).isEmpty();
            assertThat(c.version()).isEqualTo(1);
            assertThat(c.updatedBy()).isEqualTo("Loader");
        });
        assertThat(stored.stream().map(Customer::data).toList()).isEqualTo(rows);
    }

    @Test
    void escapesTabsNewlinesAndBackslashes() {
        CustomerData tricky = aCustomer().with(CustomerField.EXTERNAL_REF, "T-1")
                .with(CustomerField.ADDRESS, "Rua A\\B, 12\nBloco\t3")
                .with(CustomerField.NOTES, "C:\\temp\\new\r\nline two\n\\N is not null")
                .with(CustomerField.FAX, null).build();

        loader.copy(List.of(tricky));

        Customer stored = all().get(0);
        assertThat(stored.data()).isEqualTo(tricky.normalized());
        assertThat(stored.data().notes()).isEqualTo("C:\\temp\\new\nline two\n\\N is not null");
        assertThat(stored.data().fax()).isNull();
    }

    @Test
    void anInvalidRowWritesNothingAndNamesTheRow() {
        List<CustomerData> rows = new ArrayList<>(List.of(
                aCustomer().with(CustomerField.EXTERNAL_REF, "OK-1").build(),
                aCustomer().with(CustomerField.EXTERNAL_REF, "BAD-2").with(CustomerField.EMAIL, "not-an-email")
                        .build()));

        assertThatThrownBy(() -> loader.copy(rows)).isInstanceOf(InvalidCustomerException.class)
                .hasMessageContaining("Row 2 (BAD-2)").hasMessageContaining("Email");
        assertThat(all()).isEmpty();
    }

    @Test
    void aDuplicateExternalRefRejectsTheWholeBatch() {
        loader.copy(List.of(aCustomer().with(CustomerField.EXTERNAL_REF, "DUP").build()));

        assertThatThrownBy(() -> loader.copy(List.of(
                aCustomer().with(CustomerField.EXTERNAL_REF, "NEW").build(),
                aCustomer().with(CustomerField.EXTERNAL_REF, "DUP").build())))
                .isInstanceOf(InvalidCustomerException.class).hasMessageContaining("External ref");
        assertThat(all()).extracting(c -> c.data().externalRef()).containsExactly("DUP");
    }

    @Test
    void findsTheLastExternalRefOfAPrefix() {
        SyntheticCustomers g = new SyntheticCustomers(9);
        loader.copy(List.of(g.customer(1), g.customer(12), g.customer(3),
                aCustomer().with(CustomerField.EXTERNAL_REF, "GEN-90-0000000099").build()));

        assertThat(loader.lastExternalRef("GEN-9-")).contains("GEN-9-0000000012");
        assertThat(loader.lastExternalRef("GEN-8-")).isEmpty();
        assertThat(loader.lastExternalRef("GEN_9")).isEmpty();
    }

    private List<Customer> all() {
        List<Customer> rows = new ArrayList<>();
        CustomerPageRequest request = new CustomerPageRequest("", CustomerSort.ID, false, null, 1000);
        List<Customer> page;
        while (!(page = repository.page(request)).isEmpty()) {
            rows.addAll(page);
            request = request.next(page.get(page.size() - 1));
        }
        return rows;
    }
}
