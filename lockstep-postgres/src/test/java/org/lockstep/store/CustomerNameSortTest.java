package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerSort;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * The list's Name order (issue 27): the company, else the contact's name, read back page by page from the database
 * and walked through its index (V22__name_sort.sql).
 */
@DatabaseTest
class CustomerNameSortTest {

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository alice;
    static List<Customer> created = new ArrayList<>();

    @BeforeAll
    static void seed() {
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        // Letters only, so that every collation orders the lowered names as Java does; "Mark" twice, a company and a
        // person, for the tie broken by id; an empty company counts as none.
        String[][] rows = {{"Zeta", "Anna"}, {null, "Mark"}, {"", "Bruno"}, {"acme", "Zoe"}, {"Mark", "Carl"},
                {null, "daniel"}, {"Beta", "Yuri"}, {"", "Eva"}, {null, "Aaron"}, {"Omega", "Bea"}, {null, "frank"},
                {"Kappa", "Ida"}};
        int i = 0;
        for (String[] r : rows) {
            created.add(alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "NAME-" + i++)
                    .with(CustomerField.COMPANY, r[0]).with(CustomerField.CONTACT_NAME, r[1]).build()));
        }
    }

    private static List<Customer> allPages(boolean descending, int limit) {
        CustomerPageRequest request = new CustomerPageRequest("", CustomerSort.NAME, descending, null, limit);
        List<Customer> all = new ArrayList<>();
        List<Customer> page = alice.page(request);
        while (!page.isEmpty()) {
            all.addAll(page);
            page = alice.page(request.next(page.get(page.size() - 1)));
        }
        return all;
    }

    private static List<String> names(List<Customer> customers) {
        return customers.stream().map(c -> CustomerSort.name(c.data()) + "#" + c.id()).toList();
    }

    private static Comparator<Customer> byName() {
        return Comparator.comparing((Customer c) -> CustomerSort.name(c.data()).toLowerCase(Locale.ROOT))
                .thenComparingLong(Customer::id);
    }

    @Test
    void pagesByNameCoverEveryCustomerOnceInNameOrder() {
        List<Customer> ascending = allPages(false, 5);
        List<Customer> descending = allPages(true, 5);

        List<String> expected = names(created.stream().sorted(byName()).toList());
        assertThat(names(ascending)).isEqualTo(expected);
        assertThat(names(descending)).isEqualTo(names(created.stream().sorted(byName().reversed()).toList()));
        assertThat(names(ascending)).startsWith("Aaron#" + created.get(8).id(), "acme#" + created.get(3).id(),
                "Beta#" + created.get(6).id(), "Bruno#" + created.get(2).id());
        // The person Mark and the company Mark tie on the name: the lower id comes first.
        assertThat(names(ascending)).containsSubsequence("Mark#" + created.get(1).id(), "Mark#" + created.get(4).id());
    }

    @Test
    void aPageBoundaryInsideATieNeitherSkipsNorRepeats() {
        // Pages of one row: every boundary, the one between the two Marks included.
        assertThat(names(allPages(false, 1))).isEqualTo(names(allPages(false, 200)));
        assertThat(allPages(true, 1)).hasSize(created.size());
    }

    @Test
    void theNameOrderWalksItsIndex() {
        List<String> lines = db.jdbi().inTransaction(h -> {
            // Twelve rows are cheaper to sort than to walk: without the scans, the plan shows whether the index fits.
            h.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off");
            return h.createQuery("EXPLAIN SELECT id FROM customer ORDER BY "
                    + CustomerListQuery.keyExpression(CustomerSort.NAME) + ", id LIMIT 201").mapTo(String.class)
                    .list();
        });
        String plan = String.join("\n", lines);
        assertThat(plan).contains("customer_name_key").doesNotContain("Sort");
    }
}
