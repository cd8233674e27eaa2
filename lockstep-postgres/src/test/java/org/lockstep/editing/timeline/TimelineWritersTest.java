package org.lockstep.editing.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.editing.timeline.TimelineEvent.Kind;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * Who wrote what, told from the database alone: a writer that read the version it replaced never "overwrote" anyone,
 * however the names of the writers fall (two operators, or two desks logged in as one). The database does not record
 * reads, so a save is never called a lost update without a client's read (ADR 0014).
 */
@DatabaseTest
class TimelineWritersTest {

    @FreshDatabase
    static Database db;
    static final AtomicInteger REFS = new AtomicInteger();

    /**
     * Each case: the user names of the three writers, in turn: the creator, then two saves of the company, each
     * based on the version before it (no update is lost).
     */
    static Stream<Arguments> writers() {
        return Stream.of(
                Arguments.of("Alice", "Bob", "Alice"),
                Arguments.of("Ana", "Ana", "Ana"),
                Arguments.of("Ana", "Bob", "Ana"),
                Arguments.of("Bob", "Ana", "Ana"));
    }

    @ParameterizedTest(name = "{0} creates, {1} saves, {2} saves")
    @MethodSource("writers")
    void sequentialSavesAreNeverALostUpdateFromTheDatabaseAlone(String creator, String second, String third) {
        JdbiCustomerRepository first = repo(creator, "desk-1");
        Customer c = first.create(aCustomer().with(CustomerField.EXTERNAL_REF, "TW-" + REFS.incrementAndGet())
                .with(CustomerField.COMPANY, "Acme").build());
        repo(second, "desk-2").save(c.id(), 1, c.data().with(CustomerField.COMPANY, "Acme Ltd"));
        Customer v2 = first.find(c.id()).orElseThrow();
        repo(third, "desk-3").save(c.id(), 2, v2.data().with(CustomerField.COMPANY, "Acme GmbH"));

        Timeline t = Timelines.build(Timelines.read(new JdbiHistoryRepository(db.jdbi()), c.id()));

        assertThat(t.of(Kind.SAVED)).extracting(TimelineEvent::label).containsExactly("v2 saved", "v3 saved");
        assertThat(t.events()).noneMatch(TimelineEvent::alarm);
        assertThat(t.events()).extracting(TimelineEvent::detail).noneMatch(d -> d.contains("lost update")
                || d.contains("vanished"));
    }

    /**
     * One operator whose desks give their name in two Unicode forms (NFC, and the NFD of a macOS keyboard, or a row
     * recorded before names were normalized) is one lane, whatever kind of row each form is on.
     */
    @ParameterizedTest(name = "created by {0}, saved by {1}, conflict by {2}")
    @MethodSource("forms")
    void oneOperatorInTwoUnicodeFormsIsOneLane(String creator, String saver, String conflicted) {
        Customer c = repo(creator, "desk-1").create(aCustomer().with(CustomerField.EXTERNAL_REF,
                "TU-" + REFS.incrementAndGet()).with(CustomerField.COMPANY, "Acme").build());
        repo(saver, "desk-2").save(c.id(), 1, c.data().with(CustomerField.COMPANY, "Acme Ltd"));
        repo(conflicted, "desk-3").save(c.id(), 1, c.data().with(CustomerField.CITY, "Leith"));

        Timeline t = Timelines.build(Timelines.read(new JdbiHistoryRepository(db.jdbi()), c.id()));

        assertThat(t.lanes()).containsExactly(NFC, Timeline.DATABASE);
        assertThat(t.events()).extracting(TimelineEvent::lane).containsOnly(NFC);
    }

    static final String NFC = "Jos\u00e9";
    static final String NFD = "Jose\u0301";

    static Stream<Arguments> forms() {
        return Stream.of(Arguments.of(NFD, NFC, NFC), Arguments.of(NFC, NFD, NFC), Arguments.of(NFC, NFC, NFD),
                Arguments.of(NFD, NFD, NFC));
    }

    private static JdbiCustomerRepository repo(String user, String session) {
        return new JdbiCustomerRepository(db.jdbi(), user, session + "-" + REFS.get());
    }

}
