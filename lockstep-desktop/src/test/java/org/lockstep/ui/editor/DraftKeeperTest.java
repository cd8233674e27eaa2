package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.drafts.Draft;
import org.lockstep.ui.drafts.InMemoryDrafts;

/**
 * An editor's drafts (issue 28) against the in-memory journal, deterministic: the second's wait is a list of waiting
 * actions the test runs ({@link #aSecondPasses()}), the writes run on the test's thread.
 */
class DraftKeeperTest {

    static final Instant NOW = Instant.parse("2026-12-04T10:15:30Z");

    final InMemoryDrafts drafts = new InMemoryDrafts();
    final List<Runnable> waiting = new ArrayList<>();
    final EditorSession session = new EditorSession("alice-1", ZoneOffset.UTC);
    final Customer stored = new Customer(4, 3, aCustomer().build(), NOW, "Bob");
    DraftKeeper keeper;

    @BeforeEach
    void aliceEditsCustomer4() {
        DraftKeeper.Later later = (action, after) -> {
            assertThat(after).isEqualTo(Duration.ofSeconds(1));
            waiting.add(action);
            return () -> waiting.remove(action);
        };
        keeper = new DraftKeeper(session, drafts, TaskExecutor.sameThread(), later, () -> ConcurrencyMode.OPTIMISTIC,
                () -> OptionalLong.of(17), "Alice", Clock.fixed(NOW, ZoneOffset.UTC));
        session.buffer().reset(stored);
        session.state(EditorState.EDITING);
    }

    void aSecondPasses() {
        List.copyOf(waiting).forEach(Runnable::run);
        waiting.clear();
    }

    @Test
    void aSecondAfterTheLastKeystrokeTheTypedTextIsJournaledOnItsBase() throws IOException {
        session.buffer().text(CustomerField.CITY).set("Curi");
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        assertThat(drafts.drafts()).as("nothing before the second").isEmpty();
        assertThat(waiting).as("one wait, the last keystroke's").hasSize(1);

        aSecondPasses();

        Draft kept = drafts.drafts().get(0);
        assertThat(kept.customerId()).hasValue(4);
        assertThat(kept.baseVersion()).isEqualTo(3);
        assertThat(kept.base()).isEqualTo(stored.data());
        assertThat(kept.typed()).isEqualTo(Map.of(CustomerField.CITY, "Curitiba"));
        assertThat(kept.leaseToken()).hasValue(17);
        assertThat(kept.operator()).isEqualTo("Alice");
        assertThat(kept.savedAt()).isEqualTo(NOW);
    }

    @Test
    void revertingRemovesTheDraftAtOnce() throws IOException {
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        aSecondPasses();

        session.resetTo(stored, null);

        assertThat(drafts.drafts()).isEmpty();
        assertThat(waiting).isEmpty();
    }

    @Test
    void closingRemovesTheDraftAndNothingIsWrittenAfter() throws IOException {
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        aSecondPasses();
        session.buffer().text(CustomerField.CITY).set("Curitiba 2");

        keeper.close();
        aSecondPasses();

        assertThat(drafts.drafts()).isEmpty();
    }

    @Test
    void aFullDiskIsToldOnceInTheNoticeAndEditingGoesOn() throws IOException {
        drafts.failWith(new IOException("No space left on device"));
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        aSecondPasses();

        EditorNotice told = session.noticeProperty().get();
        assertThat(told.kind()).isEqualTo(EditorNotice.Kind.ERROR);
        assertThat(told.text()).isEqualTo("Your unsaved changes could not be kept on this computer in case Lockstep "
                + "closes (is the disk full?). You can go on editing; save to keep them.");
        assertThat(told.detail()).isEqualTo("No space left on device");
        session.notice(null);
        session.buffer().text(CustomerField.CITY).set("Curitiba 2");
        aSecondPasses();
        assertThat(session.noticeProperty().get()).as("told once").isNull();
        assertThat(session.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba 2");
        assertThat(session.buffer().dirtyProperty().get()).isTrue();

        drafts.failWith(null);
        session.buffer().text(CustomerField.CITY).set("Curitiba 3");
        aSecondPasses();
        assertThat(drafts.drafts()).extracting(d -> d.typed().get(CustomerField.CITY)).containsExactly("Curitiba 3");
    }
}
