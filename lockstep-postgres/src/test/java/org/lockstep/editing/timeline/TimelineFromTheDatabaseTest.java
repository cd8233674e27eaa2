package org.lockstep.editing.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.RecordedStory;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.editing.timeline.TimelineEvent.Kind;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * Timelines built from what the database recorded, on the real database: saves, conflicts and merges, lease grants,
 * releases, lapses and takeovers; the lost update only when a client says what its writer had read; the bound on what
 * is read; and the SVG, parsed as XML, with every label escaped and in NFC.
 */
@DatabaseTest
class TimelineFromTheDatabaseTest {

    @FreshDatabase
    static Database db;
    static final AtomicInteger REFS = new AtomicInteger();

    JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-session");
    JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob", "bob-session");
    JdbiLeaseRepository aliceLeases = new JdbiLeaseRepository(db.jdbi(), "Alice", "alice-session");
    JdbiLeaseRepository bobLeases = new JdbiLeaseRepository(db.jdbi(), "Bob", "bob-session");
    JdbiHistoryRepository history = new JdbiHistoryRepository(db.jdbi());

    Customer aCustomerOf(String company) {
        return alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "TL-" + REFS.incrementAndGet())
                .with(CustomerField.COMPANY, company).with(CustomerField.PHONE, "+1 555 0100").build());
    }

    @Test
    void savesConflictsMergesAndLeasesAreTheDatabasesEventsOnTheirWritersLanes() {
        Customer c = aCustomerOf("Harbour Lights");
        alice.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+1 555 0199"));
        SaveOutcome stale = bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Oslo"));
        assertThat(stale).isInstanceOf(SaveOutcome.Conflict.class);
        Customer v2 = alice.find(c.id()).orElseThrow();
        bob.save(c.id(), 2, v2.data().with(CustomerField.CITY, "Oslo"));
        bob.recordMergeSaved(c.id(), 3); // as CustomerEditing.mergeAndSave does after saving a merge
        long token = ((org.lockstep.domain.AcquireOutcome.Granted) aliceLeases.acquire(c.id(), 60_000)).lease().token();
        aliceLeases.release(c.id(), token);

        Timeline t = Timelines.build(Timelines.read(history, c.id()));

        assertThat(t.lanes()).containsExactly("Alice", Timeline.DATABASE, "Bob");
        assertThat(t.events()).extracting(TimelineEvent::lane, TimelineEvent::label).containsExactly(
                org.assertj.core.groups.Tuple.tuple("Alice", "created v1"),
                org.assertj.core.groups.Tuple.tuple("Alice", "v2 saved"),
                org.assertj.core.groups.Tuple.tuple("Bob", "0 rows: conflict"),
                org.assertj.core.groups.Tuple.tuple("Bob", "merged as v3"),
                org.assertj.core.groups.Tuple.tuple("Alice", "lease granted: token " + token),
                org.assertj.core.groups.Tuple.tuple("Alice", "released token " + token));
        assertThat(t.events().get(1).detail()).isEqualTo("Phone +1 555 0100 → +1 555 0199");
        assertThat(t.events().get(2).detail()).isEqualTo("the record was at v2; the save's base was older");
        assertThat(t.events().get(3).detail()).startsWith("City ").endsWith(" → Oslo");
        assertThat(t.events()).allMatch(e -> e.source() == TimelineEvent.Source.DATABASE);
        assertThat(t.of(Kind.LEASE_LAPSED)).isEmpty();
    }

    @Test
    void twoDesksUnderOneNameAreNeverTakenForOneWritersMerge() {
        JdbiCustomerRepository desk1 = new JdbiCustomerRepository(db.jdbi(), "Ana", "ana-desk-1");
        JdbiCustomerRepository desk2 = new JdbiCustomerRepository(db.jdbi(), "Ana", "ana-desk-2");
        Customer c = aCustomerOf("Two Desks");
        alice.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+1 555 0199"));
        // Desk 1 saves on v1: zero rows. Desk 2, same name, then saves v2 plainly: no merge of anyone's.
        assertThat(desk1.save(c.id(), 1, c.data().with(CustomerField.CITY, "Oslo")))
                .isInstanceOf(SaveOutcome.Conflict.class);
        Customer v2 = alice.find(c.id()).orElseThrow();
        assertThat(desk2.save(c.id(), 2, v2.data().with(CustomerField.CITY, "Bergen")))
                .isInstanceOf(SaveOutcome.Saved.class);
        // Then desk 1 saves its merge onto v3 and records it, as CustomerEditing.mergeAndSave does.
        Customer v3 = alice.find(c.id()).orElseThrow();
        assertThat(desk1.save(c.id(), 3, v3.data().with(CustomerField.CITY, "Oslo")))
                .isInstanceOf(SaveOutcome.Saved.class);
        desk1.recordMergeSaved(c.id(), 4);
        // And desk 2 meets a conflict of its own that it never merges; desk 1 saves plainly after it.
        assertThat(desk2.save(c.id(), 3, v3.data().with(CustomerField.CITY, "Tromsø")))
                .isInstanceOf(SaveOutcome.Conflict.class);
        Customer v4 = alice.find(c.id()).orElseThrow();
        desk1.save(c.id(), 4, v4.data().with(CustomerField.PHONE, "+1 555 0142"));

        RecordedStory story = history.story(c.id());
        Timeline t = Timelines.build(Timelines.read(history, c.id()));

        assertThat(story.conflicts()).extracting(org.lockstep.domain.ConflictRecord::session)
                .containsExactly(java.util.Optional.of("ana-desk-1"), java.util.Optional.of("ana-desk-2"));
        assertThat(story.mergedVersions()).containsExactly(4L);
        assertThat(t.lanes()).containsExactly("Alice", Timeline.DATABASE, "Ana");
        assertThat(t.events()).extracting(TimelineEvent::lane, TimelineEvent::label).containsExactly(
                org.assertj.core.groups.Tuple.tuple("Alice", "created v1"),
                org.assertj.core.groups.Tuple.tuple("Alice", "v2 saved"),
                org.assertj.core.groups.Tuple.tuple("Ana", "0 rows: conflict"),
                org.assertj.core.groups.Tuple.tuple("Ana", "v3 saved"),
                org.assertj.core.groups.Tuple.tuple("Ana", "merged as v4"),
                org.assertj.core.groups.Tuple.tuple("Ana", "0 rows: conflict"),
                org.assertj.core.groups.Tuple.tuple("Ana", "v5 saved"));
        // No save is told as a lost update either: only the conflicts are alarms.
        assertThat(t.events()).filteredOn(TimelineEvent::alarm).extracting(TimelineEvent::kind)
                .containsOnly(Kind.CONFLICT);
    }

    @Test
    void aLeaseThatRanOutLapsedByTheDatabaseClockAndTheNextGrantIsATakeover() {
        Customer c = aCustomerOf("Kestrel");
        aliceLeases.acquire(c.id(), 50);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> aliceLeases.holder(c.id()).isEmpty());
        long bobs = ((org.lockstep.domain.AcquireOutcome.Granted) bobLeases.acquire(c.id(), 60_000)).lease().token();

        Timeline t = Timelines.build(Timelines.read(history, c.id()));

        assertThat(t.labels()).containsSubsequence("lease granted: token " + (bobs - 1),
                "token " + (bobs - 1) + " lapsed", "took over: token " + bobs);
        TimelineEvent lapse = t.of(Kind.LEASE_LAPSED).get(0);
        assertThat(lapse.lane()).isEqualTo(Timeline.DATABASE);
        assertThat(lapse.at()).isEqualTo(aliceLeases.events(c.id()).get(0).expiresAt().orElseThrow());
        assertThat(t.of(Kind.LEASE_TAKEN_OVER).get(0).lane()).isEqualTo("Bob");
    }

    @Test
    void aBlindOverwriteIsALostUpdateOnlyWhenTheClientSaysWhatItsWriterRead() {
        Customer c = aCustomerOf("Casa Azul");
        Instant read = Instant.now().minusSeconds(1);
        alice.overwrite(c.id(), c.data().with(CustomerField.CREDIT_LIMIT, new java.math.BigDecimal("1100.00")));
        bob.overwrite(c.id(), c.data().with(CustomerField.CREDIT_LIMIT, new java.math.BigDecimal("1250.00")));
        List<RecordedStory> stories = Timelines.read(history, c.id());

        Timeline databaseOnly = Timelines.build(stories);
        Timeline withReads = Timelines.build(stories, List.of(TimelineEvent.loaded(read, "Alice", c.id(), 1),
                TimelineEvent.loaded(read, "Bob", c.id(), 1)), List.of("Alice", Timeline.DATABASE, "Bob"));

        assertThat(databaseOnly.events()).noneMatch(TimelineEvent::alarm);
        List<TimelineEvent> saves = withReads.of(Kind.SAVED);
        assertThat(saves).extracting(TimelineEvent::lane).containsExactly("Alice", "Bob");
        assertThat(saves).allMatch(TimelineEvent::alarm);
        assertThat(saves.get(0).detail()).isEqualTo("Credit limit 1000.00 → 1100.00 · vanished in v3");
        assertThat(saves.get(1).detail()).isEqualTo("lost update: overwrote Alice's Credit limit 1100.00 "
                + "(Bob had read v1) · Credit limit 1100.00 → 1250.00");
        assertThat(withReads.of(Kind.READ)).allMatch(e -> e.source() == TimelineEvent.Source.CLIENT);
    }

    @Test
    void aStoryHoldsTheLatestRowsOnlyAndSaysSo() {
        Customer c = aCustomerOf("Busy Record");
        int updates = RecordedStory.LIMIT + 20;
        db.jdbi().useHandle(h -> h.createUpdate("""
                DO $$ BEGIN FOR i IN 1..%d LOOP UPDATE customer SET city = 'City ' || i WHERE id = %d; END LOOP; END $$
                """.formatted(updates, c.id())).execute());

        RecordedStory story = history.story(c.id());

        assertThat(story.cut()).isTrue();
        assertThat(story.changes()).hasSize(RecordedStory.LIMIT);
        assertThat(story.changes().get(RecordedStory.LIMIT - 1).version()).isEqualTo(updates + 1);
        // The oldest kept entry still knows its old values (from the row before it, read but not kept).
        assertThat(story.changes().get(0).before()).map(d -> d.city()).contains("City " + (updates - 400));
        assertThat(Timelines.build(List.of(story)).cut()).isTrue();
    }

    @Test
    void anIdNoCustomerEverHadHasAnEmptyStory() {
        assertThat(history.story(987_654_321L).isEmpty()).isTrue();
    }

    @Test
    void theSvgIsWellFormedXmlWithItsLanesAndEscapedNfcLabels() throws Exception {
        String decomposed = "Cafe\u0301 <Smith & \"Sons\"> 'Ltd'";
        Customer c = aCustomerOf(decomposed);
        alice.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+1 555 0199 <&>"));
        Timeline t = Timelines.build(Timelines.read(history, c.id()));

        String svg = TimelineSvg.write(new TimelineLayout(t, ZoneOffset.UTC, 1, "Step 2: Alice saves & notices"));

        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new InputSource(new StringReader(svg)));
        assertThat(doc.getDocumentElement().getNodeName()).isEqualTo("svg");
        var xpath = XPathFactory.newInstance().newXPath();
        NodeList lanes = (NodeList) xpath.evaluate("//*[@class='lane']/*[local-name()='text']", doc,
                XPathConstants.NODESET);
        assertThat(lanes.getLength()).isEqualTo(2);
        assertThat(List.of(lanes.item(0).getTextContent(), lanes.item(1).getTextContent()))
                .containsExactly("Alice", Timeline.DATABASE);
        String all = doc.getDocumentElement().getTextContent();
        assertThat(all).contains("Café <Smith & \"Sons\"> 'Ltd'").doesNotContain("Cafe\u0301")
                .contains("created v1", "v2 saved", "+1 555 0199 <&>", "Step 2: Alice saves & notices");
        assertThat(xpath.evaluate("count(//*[@class='event'])", doc)).isEqualTo("2");
    }
}
