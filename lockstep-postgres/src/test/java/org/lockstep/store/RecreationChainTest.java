package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.RecordedStory;
import org.lockstep.editing.timeline.TimelineEvent;
import org.lockstep.editing.timeline.Timelines;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * A deleted customer's timeline follows its re-creations through the history (StoryQueries.RECREATED), not only
 * through the live table: a customer re-created and then deleted again is still its "re-created as #N".
 */
@DatabaseTest
class RecreationChainTest {

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository ana;
    static JdbiHistoryRepository history;

    @BeforeAll
    static void open() {
        ana = new JdbiCustomerRepository(db.jdbi(), "Ana");
        history = new JdbiHistoryRepository(db.jdbi());
    }

    @Test
    void aReCreationDeletedAgainIsStillTheFirstOnesReCreation() {
        Customer first = ana.create(aCustomer().with(CustomerField.EXTERNAL_REF, "RC-1").build());
        assertThat(ana.delete(first.id(), 1)).isInstanceOf(DeleteOutcome.Deleted.class);
        Customer second = ana.create(aCustomer().with(CustomerField.EXTERNAL_REF, "RC-1").build());
        assertThat(ana.delete(second.id(), 1)).isInstanceOf(DeleteOutcome.Deleted.class);
        Customer other = ana.create(aCustomer().with(CustomerField.EXTERNAL_REF, "RC-OTHER").build());

        assertThat(history.story(first.id()).recreatedAs()).hasValue(second.id());
        assertThat(history.story(second.id()).recreatedAs()).isEmpty();
        assertThat(history.story(other.id()).recreatedAs()).isEmpty();
        List<RecordedStory> chain = Timelines.read(history, first.id());
        assertThat(chain).extracting(RecordedStory::customerId).containsExactly(first.id(), second.id());
        assertThat(Timelines.build(chain).of(TimelineEvent.Kind.RECREATED)).extracting(TimelineEvent::label)
                .containsExactly("re-created as #" + second.id() + " v1");
    }

    @Test
    void aChainOfReCreationsLeadsFromEachToTheNextLiveOrDeleted() {
        Customer first = ana.create(aCustomer().with(CustomerField.EXTERNAL_REF, "RC-2").build());
        ana.delete(first.id(), 1);
        Customer second = ana.create(aCustomer().with(CustomerField.EXTERNAL_REF, "RC-2").build());
        ana.delete(second.id(), 1);
        Customer third = ana.create(aCustomer().with(CustomerField.EXTERNAL_REF, "RC-2").build());

        assertThat(history.story(first.id()).recreatedAs()).hasValue(second.id());
        assertThat(history.story(second.id()).recreatedAs()).hasValue(third.id());
        assertThat(Timelines.read(history, first.id())).extracting(RecordedStory::customerId)
                .containsExactly(first.id(), second.id(), third.id());
    }

    @Test
    void theHistorysIndexOfCreationsServesTheLookUp() {
        // On a table this small the planner would rather read it all; the point is that the index can serve it.
        String plan = db.jdbi().withHandle(h -> {
            h.execute("SET enable_seqscan = off");
            return String.join("\n", h.createQuery("EXPLAIN " + StoryQueries.RECREATED).bind("ref", "RC-1")
                    .bind("id", 1L).mapTo(String.class).list());
        });

        assertThat(plan).contains("customer_history_created_ref");
    }
}
