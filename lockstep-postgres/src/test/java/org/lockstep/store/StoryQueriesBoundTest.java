package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.RecordedStory;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * A timeline's read of history is bounded by its limit, not by how busy the customer was: the database's own count
 * of the history rows it read (EXPLAIN ANALYZE) stays at the limit and one more, with 2,000 or 20,000 versions (ordered by id alone, it read them all).
 */
@DatabaseTest
class StoryQueriesBoundTest {

    @FreshDatabase
    static Database db;

    @ParameterizedTest
    @ValueSource(ints = {2_000, 20_000})
    void aBusyCustomersHistoryIsReadOnlyAsFarAsTheLimit(int updates) throws Exception {
        Customer c = new JdbiCustomerRepository(db.jdbi(), "Ana").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "SQB-" + updates).build());
        // In statements of 1,000 saves each, each well within the statement timeout.
        for (int from = 1; from <= updates; from += 1_000) {
            int first = from;
            db.jdbi().useHandle(h -> h.createUpdate("""
                    DO $$ BEGIN FOR i IN %d..%d LOOP UPDATE customer SET city = 'City ' || i WHERE id = %d; END LOOP;
                    END $$""".formatted(first, first + 999, c.id())).execute());
        }
        db.jdbi().useHandle(h -> h.execute("ANALYZE customer_history"));

        String plan = db.jdbi().withHandle(h -> h.createQuery("EXPLAIN (ANALYZE, FORMAT JSON) "
                + StoryQueries.CHANGES).bind("id", c.id()).bind("limit", RecordedStory.LIMIT + 1)
                .mapTo(String.class).one());

        List<Long> historyRowsRead = new ArrayList<>();
        scans(new ObjectMapper().readTree(plan).get(0).get("Plan"), historyRowsRead);
        // The limit's rows and one more: the incremental sort on (version, id) reads one row past its last group.
        assertThat(historyRowsRead).isNotEmpty().allMatch(n -> n <= RecordedStory.LIMIT + 2);
        assertThat(new JdbiHistoryRepository(db.jdbi()).story(c.id()).changes()).hasSize(RecordedStory.LIMIT)
                .last().satisfies(e -> assertThat(e.version()).isEqualTo(updates + 1L));
    }

    /** The actual rows of every scan of customer_history in the plan. */
    private static void scans(JsonNode node, List<Long> rows) {
        if ("customer_history".equals(node.path("Relation Name").asText())) {
            rows.add(node.get("Actual Rows").asLong() * node.path("Actual Loops").asLong(1));
        }
        node.path("Plans").forEach(child -> scans(child, rows));
    }
}
