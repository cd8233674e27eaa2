package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowSessions;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.guihandles.MergeDialogHandle;
import org.testfx.api.FxRobot;

/**
 * Alice's editor window follows Bob's saves through the real LISTEN/NOTIFY feed (issue 5): a clean editor updates
 * with no action; a dirty one keeps its base, shows the banner, and its Save opens the merge dialog. The History tab
 * lists the versions.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class LiveEditorWindowTest {

    static final AtomicInteger REFS = new AtomicInteger();
    @RegisterExtension
    static final WindowSessions SESSIONS = new WindowSessions();
    static CustomerRepository bob;
    static EditorServices aliceServices;

    final FxRobot robot = new FxRobot();
    Customer stored;

    @BeforeAll
    static void start() {
        bob = SESSIONS.repository("Bob");
        aliceServices = SESSIONS.live(SESSIONS.operator("Alice", SESSIONS.executor(2)));
    }

    @BeforeEach
    void aCustomerExists() {
        stored = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LIVEUI-" + REFS.incrementAndGet()).build());
    }

    @Test
    void aCleanEditorShowsBobsSaveWithNoActionAndHighlightsTheField() {
        EditorWindowHandle alice = EditorWindowHandle.open(robot, aliceServices, stored.id(), 0);

        bob.save(stored.id(), stored.version(), stored.data().with(CustomerField.PHONE, "+1 555 0100"));

        // Both in one check: the highlight lasts only 2 s, and a busy machine may take longer to look again.
        Fx.await("Bob's phone in Alice's editor, highlighted", () -> Fx.call(() -> {
            javafx.scene.control.TextInputControl phone =
                    (javafx.scene.control.TextInputControl) alice.stage().getScene().lookup(
                            "#" + EditorIds.field(CustomerField.PHONE));
            return phone.getText().equals("+1 555 0100")
                    && phone.getPseudoClassStates().contains(javafx.css.PseudoClass.getPseudoClass("changed"));
        }));
        alice.awaitVersionLine("version 2 · saved by Bob");
        assertThat(alice.liveBanner()).isNull();
    }

    @Test
    void aDirtyEditorKeepsItsBaseShowsTheBannerAndItsSaveOpensTheMergeDialog() {
        EditorWindowHandle alice = EditorWindowHandle.open(robot, aliceServices, stored.id(), 0);
        alice.type(CustomerField.CITY, "Curitiba");

        bob.save(stored.id(), stored.version(), stored.data().with(CustomerField.PHONE, "+1 555 0100"));

        Fx.await("the live banner", () -> alice.liveBanner() != null);
        assertThat(alice.liveBanner()).isEqualTo("Bob saved version 2 (phone) — Review");
        assertThat(alice.versionLine()).startsWith("version 1 ");
        assertThat(alice.text(CustomerField.CITY)).isEqualTo("Curitiba");

        MergeDialogHandle merge = alice.clickSave().awaitMerge();
        assertThat(merge.status(CustomerField.PHONE)).isEqualTo("theirs");
        assertThat(merge.status(CustomerField.CITY)).isEqualTo("mine");
        merge.clickAndAwaitClose("save-merged");

        alice.awaitVersionLine("version 3 · saved by Alice");
        Customer read = bob.find(stored.id()).orElseThrow();
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(read.data().phone()).isEqualTo("+1 555 0100");
        assertThat(alice.liveBanner()).isNull();
    }

    @Test
    void theHistoryTabListsVersionsAndFollowsANewSave() {
        EditorWindowHandle alice = EditorWindowHandle.open(robot, aliceServices, stored.id(), 0);
        alice.openHistory(1);

        bob.save(stored.id(), stored.version(), stored.data().with(CustomerField.PHONE, "+1 555 0100"));

        Fx.await("version 2 in the History tab", () -> alice.historyVersions().size() == 2);
        assertThat(alice.historyVersions().get(0)).startsWith("2 Bob UPDATE Phone: ").endsWith(" → +1 555 0100");
        assertThat(alice.historyVersions().get(1)).startsWith("1 Bob INSERT ");
    }
}
