package org.lockstep.editing.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;
import static org.lockstep.testing.Translations.expect;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.editing.timeline.TimelineEvent.Kind;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.testing.InEveryTranslation;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.text.Language;

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

    @InEveryTranslation
    void aSaveAndAConflictAreToldInTheLanguage(Language lang) {
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
        assertThat(t.of(Kind.CREATED)).extracting(TimelineEvent::label)
                .containsExactly(expect(lang, "criou a v1", "creó la v1"));
        assertThat(t.of(Kind.SAVED)).extracting(TimelineEvent::label)
                .containsExactly(expect(lang, "v2 salva", "v2 guardada"));
        assertThat(t.of(Kind.READ)).extracting(TimelineEvent::label)
                .containsExactly(expect(lang, "Bob carregou a v1", "Bob cargó la v1"));
        assertThat(t.of(Kind.CONFLICT)).extracting(TimelineEvent::label, TimelineEvent::detail).containsExactly(
                org.assertj.core.groups.Tuple.tuple(expect(lang, "0 linhas: conflito", "0 filas: conflicto"),
                        expect(lang, "o registro estava na v2; a base do salvamento era mais antiga",
                                "el registro estaba en la v2; la base del guardado era más antigua")));

        TimelineLayout layout = new TimelineLayout(t, ZoneId.of("UTC"), Integer.MAX_VALUE);
        String database = expect(lang, "Banco de dados", "Base de datos");
        assertThat(layout.lanes()).extracting(TimelineLayout.Lane::shownName)
                .containsExactly("Alice", database, "Bob");
        assertThat(layout.marks()).extracting(TimelineLayout.Mark::clock).contains(
                expect(lang, "relógio do aplicativo", "reloj de la aplicación"),
                expect(lang, "relógio do banco de dados", "reloj de la base de datos"));
        assertThat(layout.marks().get(0).time()).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d");
        assertThat(TimelineSvg.write(layout)).contains(">" + database + "<")
                .contains(">" + expect(lang, "v2 salva", "v2 guardada") + "<");
    }
}
