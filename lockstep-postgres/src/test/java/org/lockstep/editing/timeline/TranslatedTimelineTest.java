package org.lockstep.editing.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.editing.timeline.TimelineEvent.Kind;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;

/**
 * The timeline told in Brazilian Portuguese (issue 16), from a real database: the events' labels, the conflict's
 * explanation, the title, the Database lane and the client's clock, in the layout and in the SVG export. The times
 * stay HH:mm:ss.SSS.
 */
@DatabaseTest
class TranslatedTimelineTest {

    @FreshDatabase
    static Database db;
    static final AtomicInteger REFS = new AtomicInteger();

    @BeforeEach
    void portuguese() {
        Texts.use(Language.PORTUGUESE_BRAZIL);
    }

    @AfterEach
    void english() {
        Texts.use(Language.ENGLISH);
    }

    @Test
    void aSaveAndAConflictAreToldInPortuguese() {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "desk-a");
        JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob", "desk-b");
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "TT-" + REFS.incrementAndGet())
                .with(CustomerField.COMPANY, "Acme").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.COMPANY, "Acme Ltda"));
        bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Campinas"));
        TimelineEvent read = TimelineEvent.loaded(Instant.now(), "Bob", c.id(), 1);

        Timeline t = Timelines.build(Timelines.read(new JdbiHistoryRepository(db.jdbi()), c.id()), List.of(read),
                List.of("Alice", Timeline.DATABASE, "Bob"));

        assertThat(t.title()).isEqualTo("Cliente " + c.id() + " — Acme Ltda");
        assertThat(t.of(Kind.CREATED)).extracting(TimelineEvent::label).containsExactly("criou a v1");
        assertThat(t.of(Kind.SAVED)).extracting(TimelineEvent::label).containsExactly("v2 salva");
        assertThat(t.of(Kind.READ)).extracting(TimelineEvent::label).containsExactly("Bob carregou a v1");
        assertThat(t.of(Kind.CONFLICT)).extracting(TimelineEvent::label, TimelineEvent::detail).containsExactly(
                org.assertj.core.groups.Tuple.tuple("0 linhas: conflito",
                        "o registro estava na v2; a base do salvamento era mais antiga"));

        TimelineLayout layout = new TimelineLayout(t, ZoneId.of("UTC"), Integer.MAX_VALUE);
        assertThat(layout.lanes()).extracting(TimelineLayout.Lane::shownName)
                .containsExactly("Alice", "Banco de dados", "Bob");
        assertThat(layout.marks()).extracting(TimelineLayout.Mark::clock)
                .contains("relógio do aplicativo", "relógio do banco de dados");
        assertThat(layout.marks().get(0).time()).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d");
        assertThat(TimelineSvg.write(layout)).contains(">Banco de dados<").contains(">v2 salva<");
    }
}
