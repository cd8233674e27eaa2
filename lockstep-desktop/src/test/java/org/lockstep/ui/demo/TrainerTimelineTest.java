package org.lockstep.ui.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.editing.timeline.Timeline;
import org.lockstep.editing.timeline.TimelineEvent;
import org.lockstep.editing.timeline.TimelineEvent.Kind;
import org.lockstep.editing.timeline.TimelineEvent.Source;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.timeline.TimelineExport;
import org.testfx.api.FxToolkit;

/**
 * The Trainer panel's timeline after each of the six scenarios, asserted from the model the pane draws against what
 * the database holds: every history row, lease event and recorded conflict of the scenario's customer appears as an
 * event of the right operator, kind and version, at the database's time; and what only the clients know (reads, the
 * refused fenced save) is there, marked as the client's. The screenshots of scenarios 1 and 5 are written on the way
 * (to {@code -Dlockstep.screenshots=DIR}, else target/screenshots).
 */
@WindowTest(closeWindowsAfterEachTest = false)
@DatabaseTest
@Timeout(300)
class TrainerTimelineTest {

    static final Duration TTL = Duration.ofSeconds(3);
    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    static DemoSession demo;
    static JdbiCustomerRepository reader;
    static JdbiHistoryRepository history;
    static JdbiLeaseRepository leases;

    @BeforeAll
    static void openDemo() throws Exception {
        reader = new JdbiCustomerRepository(db.jdbi(), "Test");
        history = new JdbiHistoryRepository(db.jdbi());
        leases = new JdbiLeaseRepository(db.jdbi(), "Test", "test-reader");
        executor = new FxTaskExecutor(1);
        demo = OpenDemo.open(db, executor, TTL);
    }

    @AfterAll
    static void closeDemo() throws Exception {
        OpenDemo.close(demo); // the clients' pools close before the database
        FxToolkit.cleanupStages();
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    @AfterEach
    void leaveTheTrainerIdle() {
        if (Fx.call(() -> demo.trainer().runningProperty().get() || !demo.trainer().errorProperty().get().isEmpty())) {
            await(Fx.call(() -> demo.trainer().reset()));
        }
    }

    @Test
    void scenario1ShowsTwoSavesThatSucceededAndAlicesValueVanishing() throws Exception {
        choose(1);
        steps(6); // up to Bob's blind save
        Customer c = byRef("DEMO-1");
        Timeline t = settled(c, tl -> tl.of(Kind.SAVED).size() == 2);
        matchesTheDatabase(t, c.id());
        assertThat(t.lanes()).startsWith("Alice", Timeline.DATABASE, "Bob");
        assertThat(t.of(Kind.SAVED)).extracting(TimelineEvent::lane, TimelineEvent::label)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Alice", "v2 saved"),
                        org.assertj.core.groups.Tuple.tuple("Bob", "v3 saved"));
        TimelineEvent alices = t.of(Kind.SAVED).get(0);
        TimelineEvent bobs = t.of(Kind.SAVED).get(1);
        assertThat(alices.alarm()).isTrue();
        assertThat(alices.detail()).isEqualTo("Credit limit 1000.00 → 1100.00 · vanished in v3");
        assertThat(bobs.alarm()).isTrue();
        assertThat(bobs.detail()).startsWith("lost update: overwrote Alice's Credit limit 1100.00 (Bob had read v1)")
                .endsWith("Credit limit 1100.00 → 1250.00");
        assertThat(t.of(Kind.CONFLICT)).isEmpty(); // nobody was told: that is the lost update
        assertThat(reads(t)).contains("Alice loaded v1", "Bob loaded v1");
        assertHighlightedStepIs(t, "Bob saves", Kind.SAVED, "v3 saved");
        screenshot("timeline-scenario-1.png");
        steps(1);
    }

    @Test
    void scenario2ShowsBobsZeroRowSaveAndHisMerge() {
        choose(2);
        runAll();
        Customer c = byRef("DEMO-2");
        Timeline t = settled(c, tl -> !tl.of(Kind.MERGED).isEmpty());
        matchesTheDatabase(t, c.id());
        assertThat(labels(t, "Bob")).containsSubsequence("Bob loaded v1", "0 rows: conflict", "merged as v3");
        assertThat(t.of(Kind.CONFLICT).get(0).detail()).isEqualTo("the record was at v2; the save's base was older");
        assertThat(labels(t, "Alice")).contains("v2 saved");
        assertThat(t.events()).noneMatch(e -> e.kind() == Kind.SAVED && e.alarm());
    }

    @Test
    void scenario3ShowsTheConflictOnTheSameFieldDecidedByBob() {
        choose(3);
        runAll();
        Customer c = byRef("DEMO-3");
        Timeline t = settled(c, tl -> !tl.of(Kind.MERGED).isEmpty());
        matchesTheDatabase(t, c.id());
        TimelineEvent merged = t.of(Kind.MERGED).get(0);
        assertThat(merged.lane()).isEqualTo("Bob");
        assertThat(merged.label()).isEqualTo("merged as v3");
        assertThat(merged.detail()).startsWith("Notes Training record").endsWith("→ Pays within 14 days.");
        assertThat(t.of(Kind.CONFLICT)).extracting(TimelineEvent::lane).containsExactly("Bob");
    }

    @Test
    void scenario4ShowsAlicesLeaseFromGrantToReleaseAndBobsTurn() {
        choose(4);
        runAll();
        Customer c = byRef("DEMO-4");
        Timeline t = settled(c, tl -> tl.of(Kind.SAVED).size() == 2);
        matchesTheDatabase(t, c.id());
        TimelineEvent granted = t.of(Kind.LEASE_GRANTED).get(0);
        assertThat(granted.lane()).isEqualTo("Alice");
        long token = leases.events(c.id()).get(0).token();
        assertThat(granted.label()).isEqualTo("lease granted: token " + token);
        assertThat(labels(t, "Alice")).containsSubsequence("lease granted: token " + token, "v2 saved",
                "released token " + token);
        assertThat(labels(t, "Bob")).containsSubsequence("Bob loaded v2", "v3 saved");
        assertThat(t.of(Kind.LEASE_LAPSED)).isEmpty();
    }

    @Test
    void scenario5ShowsTheLapseTheTakeoverAndTheRefusedLateSave() throws Exception {
        choose(5);
        steps(2); // Alice locks
        // What the trainer reads points where the tokens show: the timeline, not the operators' lock bars (issue 27).
        Customer locked = byRef("DEMO-5");
        long granted = leases.holder(locked.id()).orElseThrow().token();
        assertThat(Fx.call(() -> demo.trainer().noticeProperty().get())).startsWith("The timeline shows her lease");
        assertThat(labels(settled(locked, tl -> !tl.of(Kind.LEASE_GRANTED).isEmpty()), "Alice"))
                .contains("lease granted: token " + granted);
        assertThat(Fx.call(() -> demo.alice().editor().lock().messageProperty().get()))
                .startsWith("Locked for you until ").doesNotContain("token");
        steps(4); // Alice types, Bob waits, Alice freezes, the lease lapses and Bob takes over
        long takenOver = leases.holder(locked.id()).orElseThrow().token();
        assertThat(Fx.call(() -> demo.trainer().noticeProperty().get())).contains("In the timeline, Alice's token "
                + "lapsed and Bob took over with a larger one");
        Timeline lapsed = settled(locked, tl -> !tl.of(Kind.LEASE_TAKEN_OVER).isEmpty());
        assertThat(labels(lapsed, Timeline.DATABASE)).contains("token " + granted + " lapsed");
        assertThat(labels(lapsed, "Bob")).contains("took over: token " + takenOver);
        assertThat(takenOver).isGreaterThan(granted);
        assertThat(Fx.call(() -> demo.bob().editor().lock().messageProperty().get()))
                .startsWith("Locked for you until ").doesNotContain("token");
        steps(2); // Bob saves, Alice wakes
        Customer c = byRef("DEMO-5");
        Timeline t = settled(c, tl -> !tl.of(Kind.REFUSED).isEmpty() && !tl.of(Kind.LEASE_LOST).isEmpty());
        matchesTheDatabase(t, c.id());
        List<LeaseEvent> trail = leases.events(c.id());
        long alices = trail.stream().filter(e -> e.holder().equals("Alice")).findFirst().orElseThrow().token();
        LeaseEvent bobs = trail.stream().filter(e -> e.kind() == LeaseEvent.Kind.EXPIRED_TAKEOVER).findFirst()
                .orElseThrow();
        TimelineEvent lapse = t.of(Kind.LEASE_LAPSED).get(0);
        assertThat(lapse.lane()).isEqualTo(Timeline.DATABASE);
        assertThat(lapse.label()).isEqualTo("token " + alices + " lapsed");
        assertThat(lapse.at()).isEqualTo(trail.get(0).expiresAt().orElseThrow());
        assertThat(labels(t, "Bob")).containsSubsequence("took over: token " + bobs.token(), "v2 saved");
        TimelineEvent refused = t.of(Kind.REFUSED).get(0);
        assertThat(refused.lane()).isEqualTo("Alice");
        assertThat(refused.source()).isEqualTo(Source.CLIENT);
        assertThat(refused.label()).isEqualTo("refused: stale token " + alices + " < " + bobs.token());
        assertThat(t.events().indexOf(lapse)).isLessThan(t.events().indexOf(t.of(Kind.LEASE_TAKEN_OVER).get(0)));
        assertThat(t.events().indexOf(t.of(Kind.SAVED).get(0))).isLessThan(t.events().indexOf(refused));
        assertThat(reader.find(c.id()).orElseThrow().version()).isEqualTo(2); // nothing of Alice's was written
        assertHighlightedStepIs(t, "Alice's client wakes", Kind.REFUSED, refused.label());
        screenshot("timeline-scenario-5.png");
    }

    @Test
    void scenario6ShowsTheDeleteTheZeroRowSaveAndTheRecreation() {
        choose(6);
        steps(1);
        long original = byRef("DEMO-6").id();
        runAll();
        Customer recreated = byRef("DEMO-6");
        Timeline t = settled(recreated, tl -> !tl.of(Kind.RECREATED).isEmpty());
        matchesTheDatabase(t, original);
        matchesTheDatabase(t, recreated.id());
        assertThat(labels(t, "Bob")).contains("deleted v1");
        TimelineEvent conflict = t.of(Kind.CONFLICT).get(0);
        assertThat(conflict.lane()).isEqualTo("Alice");
        assertThat(conflict.detail()).isEqualTo("the customer was deleted");
        TimelineEvent again = t.of(Kind.RECREATED).get(0);
        assertThat(again.lane()).isEqualTo("Alice");
        assertThat(again.label()).isEqualTo("re-created as #" + recreated.id() + " v1");
        assertThat(t.events().indexOf(conflict)).isLessThan(t.events().indexOf(again));
    }

    @Test
    void aScenarioShowsOnlyItsOwnCustomersTimelineAndOneWithoutACustomerShowsNone() {
        choose(2);
        steps(1);
        Customer c = byRef("DEMO-2");
        settled(c, tl -> true);

        choose(7); // no customer: scenario 2's timeline must not stay up (issue 27)
        assertThat(Fx.call(() -> demo.timeline().timelineProperty().get())).isNull();
        await(Fx.call(() -> demo.trainer().reset()));
        Fx.run(() -> demo.timeline().refresh());
        assertThat(Fx.call(() -> demo.timeline().timelineProperty().get())).isNull();

        choose(3); // a customer of its own, not yet prepared: nothing of scenario 2's either
        assertThat(Fx.call(() -> demo.timeline().timelineProperty().get())).isNull();
        steps(1);
        Customer own = byRef("DEMO-3");
        Timeline t = settled(own, tl -> true);
        assertThat(t.events()).extracting(TimelineEvent::customerId).containsOnly(own.id());
    }

    /**
     * Every row the database holds for the customer — history, lease events, conflicts — is an event of the
     * timeline, from the database, on the lane of whoever wrote it, at the database's time.
     */
    private static void matchesTheDatabase(Timeline t, long id) {
        assertThat(t.events()).extracting(TimelineEvent::at).isSorted();
        List<TimelineEvent> mine = t.events().stream().filter(e -> e.customerId() == id).toList();
        for (HistoryEntry h : history.history(id)) {
            assertThat(mine).as("history v%d %s by %s", h.version(), h.op(), h.changedBy())
                    .anyMatch(e -> e.source() == Source.DATABASE && e.version() == h.version()
                            && e.lane().equals(h.changedBy()) && e.at().equals(h.changedAt())
                            && kindOf(h.op()).test(e.kind()));
        }
        for (LeaseEvent l : leases.events(id)) {
            String lane = l.kind() == LeaseEvent.Kind.RELEASED || l.kind() == LeaseEvent.Kind.BROKEN
                    ? l.actor() : l.holder();
            assertThat(mine).as("lease %s token %d", l.kind(), l.token())
                    .anyMatch(e -> e.source() == Source.DATABASE && e.kind().lease() && e.lane().equals(lane)
                            && e.at().equals(l.at()) && (e.label() + e.detail()).contains(Long.toString(l.token())));
        }
        long conflicts = db.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM customer_conflict WHERE customer_id = :id").bind("id", id)
                .mapTo(Long.class).one());
        assertThat(mine.stream().filter(e -> e.kind() == Kind.CONFLICT).count()).isEqualTo(conflicts);
        assertThat(mine).filteredOn(e -> e.kind() == Kind.READ || e.kind() == Kind.REFUSED)
                .allMatch(e -> e.source() == Source.CLIENT);
    }

    private static Predicate<Kind> kindOf(HistoryEntry.Op op) {
        return switch (op) {
            case INSERT -> k -> k == Kind.CREATED || k == Kind.RECREATED;
            case UPDATE -> k -> k == Kind.SAVED || k == Kind.MERGED;
            case DELETE -> k -> k == Kind.DELETED;
        };
    }

    private static void assertHighlightedStepIs(Timeline t, String stepText, Kind kind, String label) {
        int from = Fx.call(() -> demo.timeline().highlightFromProperty().get());
        assertThat(t.events().subList(Math.min(from, t.events().size()), t.events().size()))
                .anyMatch(e -> e.kind() == kind && e.label().equals(label));
        assertThat(Fx.call(() -> demo.timeline().captionProperty().get())).contains(stepText)
                .contains("Notice: " + Fx.call(() -> demo.trainer().noticeProperty().get()));
    }

    /** Reads the timeline again until it shows what the last step did (a loss is recorded a moment later). */
    private static Timeline settled(Customer c, Predicate<Timeline> until) {
        AtomicReference<Timeline> read = new AtomicReference<>();
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Fx.run(() -> demo.timeline().refresh());
            Fx.await("the timeline read", () -> !demo.timeline().statusProperty().get().startsWith("Reading"));
            Timeline t = Fx.call(() -> demo.timeline().timelineProperty().get());
            read.set(t);
            return t != null && t.events().stream().anyMatch(e -> e.customerId() == c.id()) && until.test(t);
        });
        return read.get();
    }

    private static List<String> labels(Timeline t, String lane) {
        return t.events().stream().filter(e -> e.lane().equals(lane)).map(TimelineEvent::label).toList();
    }

    private static List<String> reads(Timeline t) {
        return t.of(Kind.READ).stream().map(TimelineEvent::label).toList();
    }

    private static void screenshot(String name) throws Exception {
        Path dir = Path.of(System.getProperty("lockstep.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
        Path file = dir.resolve(name);
        Fx.run(() -> {
            try {
                TimelineExport.png(demo.timelinePane().drawing(), file);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(Files.size(file)).isGreaterThan(10_000);
    }

    private static void choose(int number) {
        Fx.run(() -> demo.trainer().selectedProperty().set(demo.trainer().scenarios().get(number - 1)));
    }

    private static void steps(int n) {
        for (int i = 0; i < n; i++) {
            await(Fx.call(() -> demo.trainer().runNext()));
            assertThat(Fx.call(() -> demo.trainer().errorProperty().get())).isEmpty();
        }
    }

    private static void runAll() {
        await(Fx.call(() -> demo.trainer().runAll()));
        assertThat(Fx.call(() -> demo.trainer().errorProperty().get())).isEmpty();
        assertThat(Fx.call(() -> demo.trainer().doneProperty().get()))
                .isEqualTo(Fx.call(() -> demo.trainer().selectedProperty().get().steps().size()));
    }

    private static void await(CompletableFuture<Void> f) {
        try {
            f.get(90, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("The step failed: " + Fx.call(() -> demo.trainer().errorProperty().get()), e);
        }
    }

    private static Customer byRef(String ref) {
        Optional<Long> id = db.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer WHERE external_ref = :ref")
                .bind("ref", ref).mapTo(Long.class).findOne());
        return id.flatMap(reader::find).orElseThrow();
    }
}
