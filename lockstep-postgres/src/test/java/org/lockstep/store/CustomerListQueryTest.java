package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockstep.server.Database;
import org.lockstep.synthetic.SyntheticCustomers;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerSort;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

@DatabaseTest
class CustomerListQueryTest {

    static final int ROWS = 12_000;
    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository repository;

    @BeforeAll
    static void load() {
        SyntheticCustomers g = new SyntheticCustomers(21);
        CustomerBulkLoader loader = new CustomerBulkLoader(db.jdbi(), "loader");
        loader.copy(LongStream.rangeClosed(1, ROWS).mapToObj(g::customer).toList());
        loader.vacuumAnalyze();
        repository = new JdbiCustomerRepository(db.jdbi(), "reader");
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

    @ParameterizedTest(name = "{0} of {1} by {2}: {3}")
    @CsvSource(textBlock = """
            0,      1000000, COMPANY, MATCHES_FIRST
            6000,   1000000, COMPANY, MATCHES_FIRST
            14000,  1000000, COMPANY, MATCHES_FIRST
            15000,  1000000, COMPANY, WALK
            50000,  1000000, COMPANY, WALK
            3000,   1000000, ID,      MATCHES_FIRST
            6000,   1000000, ID,      WALK
            12000,  1000000, ID,      WALK
            0,      0,       ID,      WALK
            40,     59,      CITY,    MATCHES_FIRST
            """)
    void thePlanIsTheOneThatReadsFewerRowsForAPage(long matches, long customers, CustomerSort sort,
            CustomerListQuery.Plan expected) {
        assertThat(new CustomerListQuery.Estimate(matches, customers).cheaper(sort, 200)).isEqualTo(expected);
    }

    @Test
    void theEstimateIsThePlannersForThisVeryTerm() {
        CustomerListQuery.Estimate none = db.jdbi().withHandle(h -> CustomerListQuery.estimate(h, "zqxjv"));
        CustomerListQuery.Estimate broad = db.jdbi().withHandle(h -> CustomerListQuery.estimate(h, "e"));
        CustomerListQuery.Estimate all = db.jdbi().withHandle(h -> CustomerListQuery.estimate(h, ""));
        // A term holding a quote is quoted, not run: format('%L') makes it a literal.
        CustomerListQuery.Estimate quoted = db.jdbi().withHandle(h -> CustomerListQuery.estimate(h,
                "o'brien'); DROP TABLE customer; --"));

        assertThat(all.customers()).isBetween(ROWS * 9L / 10, ROWS * 11L / 10);
        assertThat(all.matches()).isEqualTo(all.customers());
        assertThat(none.matches()).isLessThan(10);
        assertThat(broad.matches()).isGreaterThan(ROWS / 10L);
        assertThat(quoted.matches()).isLessThan(10);
        assertThat(repository.count("", 5_000).count()).isEqualTo(ROWS);
    }

    @ParameterizedTest(name = "\"{0}\" by {1}, descending {2}")
    @CsvSource(textBlock = """
            e,       COMPANY,    false
            mü,      ID,         true
            gmail,   UPDATED_AT, false
            zq,      CITY,       false
            .co.jp,  COUNTRY,    true
            """)
    void thePageIsTheSameWhicheverPlanComputesIt(String search, CustomerSort sort, boolean descending) {
        CustomerPageRequest first = new CustomerPageRequest(search, sort, descending, null, 50);

        assertThat(pages(first, true)).isEqualTo(pages(first, false));
        assertThat(pages(first, false)).isEqualTo(repositoryPages(first));
    }

    /** Up to three pages by keyset, as the repository reads them (its own choice of plan). */
    private static List<Customer> repositoryPages(CustomerPageRequest first) {
        List<Customer> all = new ArrayList<>();
        CustomerPageRequest r = first;
        for (int i = 0; i < 3; i++) {
            List<Customer> page = repository.page(r);
            if (page.isEmpty()) {
                break;
            }
            all.addAll(page);
            r = r.next(page.get(page.size() - 1));
        }
        return all;
    }

    @Test
    void countsEveryCustomerExactly() {
        assertThat(repository.count("", 5_000)).isEqualTo(new CustomerCount(ROWS, true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"e", "a", "m"})
    void aBroadSearchIsCountedUpToTheCapAndThenEstimated(String search) {
        long truth = holding(search).size();

        CustomerCount n = repository.count(search, 5_000);

        assertThat(truth).isGreaterThan(CustomerListQuery.COUNT_CAP);
        assertThat(n.estimated()).isTrue();
        assertThat(n.exact()).isFalse();
        assertThat(n.count()).isGreaterThan(CustomerListQuery.COUNT_CAP);
        // The planner's estimate from sampled rows: the right order of magnitude, shown as such.
        assertThat((double) n.count()).isBetween(truth / 10.0, truth * 10.0);
        assertThat(n.describe()).startsWith("about ");
    }

    /**
     * The ids of the rows whose folded text holds the folded term anywhere, computed apart from the query: every row's
     * text read once and searched in Java.
     */
    private static List<Long> holding(String search) {
        String term = folded(search);
        return db.jdbi().withHandle(h -> h.createQuery("SELECT id, customer_search_text(company, "
                + "contact_name, email, city, country) FROM customer ORDER BY id")
                .map((rs, ctx) -> java.util.Map.entry(rs.getLong(1), rs.getString(2))).list()).stream()
                .filter(e -> e.getValue().contains(term)).map(java.util.Map.Entry::getKey).toList();
    }

    @ParameterizedTest(name = "\"{0}\" by {1}")
    @CsvSource(delimiter = '|', textBlock = """
            zq  | ID
            z   | COMPANY
            mü  | ID
            ss  | CITY
            ß   | ID
            de  | EMAIL
            7   | ID
            42  | UPDATED_AT
            @   | NAME
            .j  | COMPANY
            -k  | ID
            o'  | ID
            ø   | CITY
            é   | ID
            q   | UPDATED_AT
            _   | ID
            %   | ID
            @.  | ID
            ...  | ID
            """)
    void aSearchOfOneOrTwoCharactersFindsExactlyTheRowsHoldingIt(String search, CustomerSort sort) {
        List<Long> truth = holding(search);

        List<Long> found = new ArrayList<>();
        CustomerPageRequest r = new CustomerPageRequest(search, sort, false, null, 1_000);
        for (List<Customer> page = repository.page(r); !page.isEmpty(); page = repository.page(r)) {
            page.forEach(c -> found.add(c.id()));
            r = r.next(page.get(page.size() - 1));
        }
        java.util.Collections.sort(found);
        CustomerCount n = repository.count(search, 5_000);

        assertThat(found).isEqualTo(truth);
        // Either plan alone, too: the grams' index collects the same rows the walk keeps.
        CustomerPageRequest first = new CustomerPageRequest(search, sort, false, null, 50);
        assertThat(pages(first, true)).isEqualTo(pages(first, false));
        if (truth.size() <= CustomerListQuery.COUNT_CAP) {
            assertThat(n).isEqualTo(new CustomerCount(truth.size(), true));
        } else {
            // The planner's estimate ("about …"), or "at least 1,000" when it is no more than was counted.
            assertThat(n.exact()).isFalse();
            assertThat(n.count()).isGreaterThanOrEqualTo(CustomerListQuery.COUNT_CAP);
        }
    }

    @ParameterizedTest(name = "\"{0}\", descending {1}")
    @CsvSource(textBlock = """
            '',     false
            '',     true
            gmail,  false
            gmail,  true
            """)
    void theUpdatedOrderIsEveryMatchingCustomerByItsLastWriteThenId(String search, boolean descending) {
        String dir = descending ? "DESC" : "ASC";
        List<Long> truth = db.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer WHERE customer_search_text("
                + "company, contact_name, email, city, country) LIKE '%' || lockstep_fold(:s) || '%' ORDER BY updated_at "
                + dir + ", id " + dir).bind("s", search).mapTo(Long.class).list());

        List<Long> found = new ArrayList<>();
        CustomerPageRequest r = new CustomerPageRequest(search, CustomerSort.UPDATED_AT, descending, null, 1_000);
        for (List<Customer> page = repository.page(r); !page.isEmpty(); page = repository.page(r)) {
            page.forEach(c -> found.add(c.id()));
            r = r.next(page.get(page.size() - 1));
        }

        assertThat(truth).isNotEmpty();
        assertThat(found).isEqualTo(truth);
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
