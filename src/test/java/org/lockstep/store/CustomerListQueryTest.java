package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.app.Database;
import org.lockstep.app.generate.SyntheticCustomers;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerSort;
import org.lockstep.testing.TestDatabases;

class CustomerListQueryTest {

    static final int ROWS = 12_000;
    static Database db;
    static JdbiCustomerRepository repository;

    @BeforeAll
    static void load() {
        db = TestDatabases.fresh();
        SyntheticCustomers g = new SyntheticCustomers(21);
        CustomerBulkLoader loader = new CustomerBulkLoader(db.jdbi(), "loader");
        loader.copy(LongStream.rangeClosed(1, ROWS).mapToObj(g::customer).toList());
        loader.vacuumAnalyze();
        repository = new JdbiCustomerRepository(db.jdbi(), "reader");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @ParameterizedTest
    @CsvSource(textBlock = """
            web.de,    COMPANY, false
            web.de,    ID,      true
            an,        CITY,    false
            .co.jp,    COMPANY, false
            schmidt,   EMAIL,   true
            """)
    void matchesFirstPlanGivesTheSamePagesAsThePlannersPlan(String search, CustomerSort sort, boolean descending) {
        CustomerPageRequest first = new CustomerPageRequest(search, sort, descending, null, 50);

        List<Customer> planned = pages(first, false);
        List<Customer> fenced = pages(first, true);

        assertThat(planned).isNotEmpty();
        assertThat(fenced).isEqualTo(planned);
        // Matches are folded (accents and case do not matter, V13__search_fold.sql): compare folded text.
        assertThat(planned).allSatisfy(c -> assertThat(folded(String.join(" ", String.valueOf(c.data().company()),
                String.valueOf(c.data().contactName()), String.valueOf(c.data().email()),
                String.valueOf(c.data().city()), String.valueOf(c.data().country()))))
                .contains(folded(search)));
    }

    private static String folded(String text) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT lockstep_fold(:t)").bind("t", text)
                .mapTo(String.class).one());
    }

    @Test
    void countsEveryCustomerExactly() {
        assertThat(repository.count("", 5_000)).isEqualTo(new CustomerCount(ROWS, true));
    }

    @Test
    void aBroadSearchIsCountedUpToTheCap() {
        CustomerCount n = repository.count("e", 5_000);

        assertThat(n).isEqualTo(new CustomerCount(CustomerListQuery.COUNT_CAP, false));
        assertThat(n.describe()).isEqualTo("at least 10,000");
    }

    @Test
    void aNarrowSearchIsCountedExactly() {
        long expected = db.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM customer WHERE lower(email) LIKE '%@web.de%'").mapTo(Long.class).one());

        assertThat(expected).isPositive();
        assertThat(repository.count("@web.de", 5_000)).isEqualTo(new CustomerCount(expected, true));
        assertThat(repository.count("zqxjv", 5_000)).isEqualTo(new CustomerCount(0, true));
    }

    @Test
    void theRepositoryPageIsThePlannedPage() {
        CustomerPageRequest r = new CustomerPageRequest("gmail", CustomerSort.COMPANY, false, null, 200);

        assertThat(repository.page(r)).isEqualTo(pages(r, false).subList(0, 200));
    }

    /** Up to three pages by keyset, with either plan. */
    private static List<Customer> pages(CustomerPageRequest first, boolean matchesFirst) {
        List<Customer> all = new ArrayList<>();
        CustomerPageRequest r = first;
        CustomerRowMapper mapper = new CustomerRowMapper();
        for (int i = 0; i < 3; i++) {
            CustomerListQuery q = matchesFirst ? CustomerListQuery.matchesFirst(r) : CustomerListQuery.of(r);
            List<Customer> page = db.jdbi().withHandle(h -> q.bind(h.createQuery(q.sql())).map(mapper).list());
            if (page.isEmpty()) {
                break;
            }
            all.addAll(page);
            r = r.next(page.get(page.size() - 1));
        }
        return all;
    }
}
