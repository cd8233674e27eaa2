package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.editing.timeline.TimelineEvent;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.timeline.TimelineViewModel;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.editor.CustomerHistoryViewModel.FieldDifference;
import org.lockstep.ui.editor.CustomerHistoryViewModel.Version;

/**
 * The editor's History tab on a real database: every version the trigger recorded, including a psql-style write,
 * the difference of two versions, and "Restore this version" as a versioned save the history records as a restore.
 */
@DatabaseTest
class CustomerHistoryTest {

    @FreshDatabase
    static Database db;
    static CustomerRepository bob;
    static final AtomicInteger REFS = new AtomicInteger();

    Customer v1;
    CustomerEditorViewModel editor;
    CustomerHistoryViewModel history;

    @BeforeAll
    static void open() {
        bob = Sessions.repository(db, "Bob");
    }

    @BeforeEach
    void aCustomerWithThreeVersionsOneFromPsql() {
        v1 = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HIST-" + REFS.incrementAndGet())
                .with(CustomerField.PHONE, "+1 555 0100").build());
        Customer v2 = ((SaveOutcome.Saved) bob.save(v1.id(), 1,
                v1.data().with(CustomerField.PHONE, "+1 555 0199"))).saved();
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET city = 'Lisboa', version = version + 1 WHERE id = ?",
                v2.id()));
        editor = new CustomerEditorViewModel(Sessions.services(db, "Alice", TaskExecutor.sameThread(), Runnable::run,
                Sessions.quickLocks()), Clock.system(ZoneOffset.UTC));
        editor.load(v1.id());
        history = editor.history();
        history.setActive(true);
    }

    @AfterEach
    void closeEditor() {
        editor.close();
    }

    @Test
    void listsEveryVersionNewestFirstWithWhoOpAndChangedFields() {
        List<Version> versions = history.versions();

        assertThat(versions).extracting(Version::version).containsExactly(3L, 2L, 1L);
        assertThat(versions).extracting(Version::op).containsExactly("UPDATE", "UPDATE", "INSERT");
        assertThat(versions).extracting(Version::opLabel).containsExactly("Saved", "Saved", "Created");
        assertThat(versions.get(1).who()).isEqualTo("Bob");
        assertThat(versions.get(0).who()).as("a write outside Lockstep names its database role")
                .isNotBlank().isNotEqualTo("Bob");
        assertThat(versions.get(0).changes()).containsExactly(
                new FieldDifference(CustomerField.CITY, "São José dos Campos", "Lisboa"));
        assertThat(versions.get(1).changesText()).isEqualTo("Phone: +1 555 0100 → +1 555 0199");
        assertThat(versions.get(1).when()).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d");
        assertThat(history.statusProperty().get()).isEqualTo("3 versions");
    }

    @Test
    void theActionIsAPlainWordInTheOperatorsLanguageNotTheSqlVerb() {
        List<Version> versions = history.versions();
        try {
            Texts.use(Language.PORTUGUESE_BRAZIL);
            assertThat(versions).extracting(Version::opLabel).containsExactly("Salvo", "Salvo", "Criado");
            Texts.use(Language.SPANISH);
            assertThat(versions).extracting(Version::opLabel).containsExactly("Guardado", "Guardado", "Creado");
        } finally {
            Texts.use(Language.ENGLISH);
        }
        assertThat(versions).extracting(Version::opLabel).containsExactly("Saved", "Saved", "Created");
    }

    @Test
    void theDifferenceOfTwoVersionsListsEachChangedFieldEarlierToLater() {
        Version newest = history.version(3).orElseThrow();
        Version first = history.version(1).orElseThrow();

        assertThat(CustomerHistoryViewModel.difference(newest, first)).containsExactly(
                new FieldDifference(CustomerField.PHONE, "+1 555 0100", "+1 555 0199"),
                new FieldDifference(CustomerField.CITY, "São José dos Campos", "Lisboa"));
    }

    @Test
    void restoreSavesANewVersionWithTheOldValues() {
        assertThat(editor.saves().restore(1, history.version(1).orElseThrow().values())).isTrue();

        Customer read = bob.find(v1.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(4);
        assertThat(read.data().sameValues(v1.data())).isTrue();
        assertThat(editor.buffer().baseProperty().get()).isEqualTo(read);
        assertThat(history.versions()).extracting(Version::version).startsWith(4L);
        assertThat(history.versions().get(0).who()).isEqualTo("Alice");
    }

    @Test
    void aRestoreReadsAsTheRestoreOfItsVersionInTheActionColumnAndTheTimeline() {
        assertThat(editor.saves().restore(1, history.version(1).orElseThrow().values())).isTrue();

        assertThat(history.versions()).extracting(Version::version, Version::op, Version::opLabel).containsExactly(
                tuple(4L, "UPDATE", "Restored version 1"), tuple(3L, "UPDATE", "Saved"),
                tuple(2L, "UPDATE", "Saved"), tuple(1L, "INSERT", "Created"));
        try {
            Texts.use(Language.PORTUGUESE_BRAZIL);
            assertThat(history.versions().get(0).opLabel()).isEqualTo("Versão 1 restaurada");
            Texts.use(Language.SPANISH);
            assertThat(history.versions().get(0).opLabel()).isEqualTo("Versión 1 restaurada");
        } finally {
            Texts.use(Language.ENGLISH);
        }
        TimelineViewModel timeline = new TimelineViewModel(new JdbiHistoryRepository(db.jdbi()),
                TaskExecutor.sameThread(), ZoneOffset.UTC);
        timeline.show(v1.id());
        timeline.setActive(true);
        assertThat(timeline.timelineProperty().get().of(TimelineEvent.Kind.SAVED)).extracting(TimelineEvent::label)
                .containsExactly("v2 saved", "v3 saved", "v4: restored v1");
    }

    @Test
    void restoreOnAStaleBaseConflictsLikeAnySaveAndOpensTheMerge() {
        Customer v3 = bob.find(v1.id()).orElseThrow();
        bob.save(v3.id(), v3.version(), v3.data().with(CustomerField.EMAIL, "late@example.com"));

        assertThat(editor.saves().restore(1, history.version(1).orElseThrow().values())).isTrue();

        assertThat(editor.conflicts().mergeProperty().get()).isNotNull();
        assertThat(bob.find(v1.id()).orElseThrow().version()).as("nothing overwritten").isEqualTo(4);
    }
}
