package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.Sessions;

/**
 * Issue 27, "say it was saved": while a save runs the editor says "Saving…"; once it committed, the notice says
 * "Saved version N" as news that fades (transient), replacing what it said before — after a Save, a merged save and a
 * restore alike. Alice's editor on the real database; her calls run on the test's thread unless held.
 */
@DatabaseTest
class SaidItWasSavedTest {

    static final AtomicInteger REFS = new AtomicInteger();
    @FreshDatabase
    static Database db;

    final HeldCalls calls = new HeldCalls();
    CustomerRepository bob;
    Customer stored;
    CustomerEditorViewModel editor;

    @BeforeEach
    void aliceOpensACustomer() {
        bob = Sessions.repository(db, "Bob");
        stored = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "SAID-SAVED-" + REFS.incrementAndGet())
                .build());
        editor = new CustomerEditorViewModel(
                Sessions.services(db, "Alice", calls, Runnable::run, Sessions.quickLocks()));
        editor.load(stored.id());
    }

    @AfterEach
    void closeTheEditor() {
        calls.release();
        editor.close();
    }

    @Test
    void aSaveSaysSavingWhileItRunsThenSavedVersionAsNewsThatFades() {
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        calls.hold();

        editor.saves().save();

        assertThat(editor.status().saveProgressProperty().get()).isEqualTo("Saving…");
        assertThat(editor.noticeProperty().get()).isNull();

        calls.release();

        assertThat(editor.status().saveProgressProperty().get()).isEmpty();
        assertThat(bob.find(stored.id()).orElseThrow().version()).isEqualTo(2);
        EditorNotice notice = editor.noticeProperty().get();
        assertThat(notice.text()).isEqualTo("Saved version 2");
        assertThat(notice.kind()).isEqualTo(EditorNotice.Kind.NEWS);
        assertThat(notice.isTransient()).isTrue();
    }

    @Test
    void savedVersionReplacesWhatTheNoticeSaidBefore() {
        editor.saves().restore(stored.version(), stored.data());
        assertThat(editor.noticeProperty().get().text())
                .isEqualTo("This customer already holds these values; nothing to restore.");
        editor.buffer().text(CustomerField.CITY).set("Curitiba");

        editor.saves().save();

        assertThat(editor.noticeProperty().get().text()).isEqualTo("Saved version 2");
    }

    @Test
    void aMergedSaveSaysWhichVersionItSaved() {
        Customer v1 = bob.find(stored.id()).orElseThrow();
        bob.save(v1.id(), v1.version(), v1.data().with(CustomerField.PHONE, "+55 12 3927-0000"));
        editor.buffer().text(CustomerField.CITY).set("Curitiba");

        editor.saves().save();
        assertThat(editor.conflicts().mergeProperty().get()).isNotNull();
        editor.conflicts().mergeProperty().get().saveMerged();

        Customer read = bob.find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(3);
        assertThat(editor.noticeProperty().get().text()).isEqualTo("Saved version 3");
        assertThat(editor.noticeProperty().get().isTransient()).isTrue();
    }

    @Test
    void aRestoreSaysWhichVersionItSaved() {
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        editor.saves().save();

        editor.saves().restore(stored.version(), stored.data());

        Customer read = bob.find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(3);
        assertThat(read.data().sameValues(stored.data())).isTrue();
        assertThat(editor.noticeProperty().get().text()).isEqualTo("Restored version 1 as version 3");
    }

    @Test
    void theRestoreQuestionNamesTheVersionAndTheEditsItDrops() {
        assertThat(EditorTexts.restoreQuestion(4, false))
                .isEqualTo("Restore version 4? It is saved at once as a new version.");
        assertThat(EditorTexts.restoreQuestion(4, true)).isEqualTo(
                "Restore version 4? It is saved at once as a new version, and your unsaved changes are dropped.");
    }
}
