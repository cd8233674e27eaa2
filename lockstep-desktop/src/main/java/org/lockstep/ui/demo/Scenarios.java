package org.lockstep.ui.demo;

import org.lockstep.domain.ConcurrencyMode;
import static org.lockstep.text.Texts.tr;

import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javafx.util.Duration;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.ui.editor.CustomerEditorViewModel;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.editor.EditorState;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.editing.LockState;

/**
 * The trainer's seven scenarios: the lost update, then its cures (PoEAA's Optimistic and Pessimistic Offline Lock,
 * DDIA's fencing tokens), each on a customer of its own, and Black Friday ({@link BlackFriday}), the contention
 * lab's race inside the Trainer panel. Step 1 of each of the first six opens the customer in both windows after the
 * data was reset; every later step acts through the operator windows' controls.
 */
public final class Scenarios {

    private Scenarios() {
    }

    /**
     * The seven scenarios, in the order the Trainer panel lists them, their texts in the current language: built when
     * the demo opens, after the desktop chose the language (so never kept in a static field).
     */
    public static List<Scenario> all() {
        return List.of(lostUpdate(), differentFields(), sameField(), lockForEditing(), crash(), editVersusDelete(),
                BlackFriday.scenario());
    }

    static Scenario lostUpdate() {
        CustomerData start = customer("DEMO-1", "Harbour Lights Trading", "Mira Costa", "Buyer",
                "mira.costa@harbourlights.example", "+44 20 7946 0101", "Plymouth", "United Kingdom", "1000.00");
        return new Scenario(1, tr("The lost update"),
                tr("Without concurrency control, Save simply writes every field: \"last write wins\". Alice and Bob "
                        + "both read a credit limit of 1,000.00. Alice adds 100, Bob adds 250. Both saves succeed "
                        + "without any error — and the credit limit ends at 1,250.00, not 1,350.00: Alice's change "
                        + "is silently lost (the lost update)."),
                start, List.of(
                        openBoth(
                                tr("Alice and Bob open Harbour Lights Trading: both read version 1, credit limit 1,000.00.")),
                        new Step(tr("Both switch to \"Last write wins (unsafe)\": the editors turn red."),
                                tr("This mode exists only for teaching: it saves with no version check at all."),
                                c -> c.alice().click(EditorIds.UNSAFE_MODE, tr("switches to Last write wins (unsafe)"))
                                        .thenCompose(v -> c.bob().click(EditorIds.UNSAFE_MODE,
                                                tr("switches to Last write wins (unsafe)")))
                                        .thenCompose(v -> c.bob().waitUntil(
                                                tr("Waited in vain for both editors to be in unsafe mode."),
                                                () -> mode(c.alice()) == ConcurrencyMode.LAST_WRITE_WINS
                                                        && mode(c.bob()) == ConcurrencyMode.LAST_WRITE_WINS))),
                        type(tr("Alice adds 100 to what she read: she types 1100.00 (1,100.00) as the credit limit."),
                                tr("Nothing is saved yet."), Who.ALICE, CustomerField.CREDIT_LIMIT, "1100.00"),
                        type(tr("Bob adds 250 to what he read: he types 1250.00 (1,250.00)."),
                                tr("Bob still works from 1,000.00 — he cannot know what Alice is typing."),
                                Who.BOB, CustomerField.CREDIT_LIMIT, "1250.00"),
                        save(tr("Alice saves: version 2, credit limit 1,100.00."),
                                tr("Bob's editor shows that Alice saved; in a system without Lockstep he would not even know."),
                                Who.ALICE, 2),
                        save(tr("Bob saves: version 3, credit limit 1,250.00 — no warning, no merge."),
                                tr("Bob's blind write replaced Alice's value. Nobody saw an error."), Who.BOB, 3),
                        new Step(
                                tr("Alice opens the History tab: version 2 (Alice, 1,100.00) and version 3 (Bob, 1,250.00)."),
                                tr("Both saves are recorded, yet 1,250.00 contains only Bob's +250: Alice's +100 is gone. "
                                        + "That is the lost update."),
                                c -> c.alice().showTab(Hands.HISTORY_TAB, tr("opens the History tab")))));
    }

    static Scenario differentFields() {
        CustomerData start = customer("DEMO-2", "Nordic Pine Furniture", "Lars Eriksen", "Owner",
                "orders@nordicpine.example", "+47 22 33 44 55", "Oslo", "Norway", "8000.00");
        return new Scenario(2, tr("Optimistic: different fields"),
                tr("The default, optimistic offline lock: each save names the version it was based on. Alice changes "
                        + "the phone, Bob the email. Bob's save meets version 2 and becomes a three-way merge "
                        + "(base, mine, theirs) — which resolves itself, because the changes do not overlap."),
                start, List.of(
                        openBoth(tr("Alice and Bob open Nordic Pine Furniture: both hold version 1.")),
                        type(tr("Alice changes the phone to +47 22 99 88 77."),
                                tr("Optimistic mode: nothing is locked."),
                                Who.ALICE, CustomerField.PHONE, "+47 22 99 88 77"),
                        type(tr("Bob changes the email to sales@nordicpine.example."),
                                tr("Both are editing the same customer."),
                                Who.BOB, CustomerField.EMAIL, "sales@nordicpine.example"),
                        save(tr("Alice saves: UPDATE … WHERE id = ? AND version = 1 hits one row — version 2."),
                                tr("Bob's editor says Alice saved version 2 (Phone) and offers a review."), Who.ALICE,
                                2),
                        new Step(tr(
                                "Bob saves: his UPDATE … AND version = 1 hits zero rows, and the merge dialog opens."),
                                tr("Base, mine and theirs side by side: Alice's phone and Bob's email do not overlap, so the "
                                        + "merge is already complete — no question asked."),
                                c -> saveIntoMerge(c.bob())),
                        new Step(tr("Bob clicks Save merged: version 3 keeps Alice's phone and Bob's email."),
                                tr("Nobody's work was lost, and nobody had to decide anything."),
                                c -> c.bob().clickInDialog("save-merged", tr("clicks Save merged"))
                                        .thenCompose(v -> stored(c.bob(), 3)))));
    }

    static Scenario sameField() {
        CustomerData start = customer("DEMO-3", "Casa Azul Ceramics", "Lucía Romero", "Finance manager",
                "lucia@casaazul.example", "+34 91 555 0133", "Madrid", "Spain", "3000.00");
        return new Scenario(3, tr("Optimistic: same field"),
                tr("Alice and Bob both change the credit limit, to different values. Bob also rewrites the note. "
                        + "When Bob saves, the note merges by itself (only Bob changed it), but the credit limit is "
                        + "a real conflict: only a person can decide, so the merge dialog asks Bob."),
                start, List.of(
                        openBoth(tr("Alice and Bob open Casa Azul Ceramics: credit limit 3,000.00, version 1.")),
                        type(tr("Alice raises the credit limit to 5,000.00."),
                                tr("Optimistic mode: nothing is locked, nothing is saved yet."), Who.ALICE,
                                CustomerField.CREDIT_LIMIT,
                                "5000.00"),
                        new Step(tr("Bob raises it to 4,500.00 and rewrites the note."),
                                tr("Both changed the same field, to different values."),
                                c -> c.bob().type(CustomerField.CREDIT_LIMIT, "4500.00")
                                        .thenCompose(v -> c.bob().type(CustomerField.NOTES, "Pays within 14 days."))),
                        save(tr("Alice saves first: version 2, credit limit 5,000.00."),
                                tr("Bob's editor says Alice saved version 2 (credit limit); his edits stay."),
                                Who.ALICE,
                                2),
                        new Step(tr("Bob saves: the merge dialog opens with one conflict, the credit limit."),
                                tr("Bob's note is already merged; the credit limit shows base 3,000.00, mine 4,500.00 and "
                                        + "theirs 5,000.00, and Save merged waits for a decision."),
                                c -> saveIntoMerge(c.bob())),
                        new Step(tr("Bob takes Alice's 5,000.00 (\"Use theirs\") and clicks Save merged: version 3."),
                                tr("A real conflict was decided by a person, with all three values in view; Bob's note "
                                        + "survived too."),
                                c -> c.bob().clickInDialog("use-theirs-credit_limit", tr("uses Alice's credit limit"))
                                        .thenCompose(
                                                v -> c.bob().clickInDialog("save-merged", tr("clicks Save merged")))
                                        .thenCompose(v -> stored(c.bob(), 3)))));
    }

    static Scenario lockForEditing() {
        CustomerData start = customer("DEMO-4", "Blue Fjord Travel", "Ingrid Dahl", "Travel agent",
                "ingrid@bluefjord.example", "+47 55 20 30 40", "Bergen", "Norway", "12000.00");
        return new Scenario(4, tr("Lock for editing"),
                tr("The pessimistic offline lock: Alice takes a lease on the customer before she edits — a row in "
                        + "the database with her name, a fencing token and an expiry judged by the database clock. "
                        + "Bob sees who holds it and cannot save; when Alice lets go, Bob gets the record."),
                start, List.of(
                        openBoth(tr("Alice and Bob open Blue Fjord Travel.")),
                        new Step(tr("Alice chooses Lock for editing and clicks Lock: she holds the lease."),
                                tr("Her editor says until when; the lease is renewed while she edits."),
                                c -> lockNow(c.alice())),
                        new Step(
                                tr("Bob's editor says Alice is editing this customer, and since when; his fields are read-only. He "
                                        + "ticks Notify me when free."),
                                tr("Bob learned of the lock the moment Alice took it; he cannot overwrite her work — he cannot "
                                        + "even type."),
                                c -> c.bob().waitUntil(tr("Waited in vain for Bob's editor to show Alice's lock."),
                                        () -> lockState(c.bob()) instanceof LockState.HeldByOther
                                                && !editor(c.bob()).status().editableProperty().get())
                                        .thenCompose(v -> c.bob().click(EditorIds.NOTIFY_WHEN_FREE,
                                                tr("ticks Notify me when free")))),
                        new Step(tr("Alice changes the contact title and saves under her lease: version 2."),
                                tr("The save named her lease's fencing token; she still holds the lease."),
                                c -> c.alice().type(CustomerField.CONTACT_TITLE, "Head of sales")
                                        .thenCompose(v -> saveAndWait(c.alice(), 2))),
                        new Step(tr("Alice lets go (back to Optimistic): Bob is told at once and sees version 2."),
                                tr("Bob's editor reloaded Alice's version before he typed anything: nothing to merge."),
                                c -> c.alice().click(EditorIds.OPTIMISTIC_MODE, tr("lets go of the lock"))
                                        .thenCompose(v -> c.bob().waitUntil(
                                                tr("Waited in vain for Bob's editor to be free, on version 2."),
                                                () -> lockState(c.bob()) instanceof LockState.Free
                                                        && editor(c.bob()).status().editableProperty().get()
                                                        && version(c.bob()) == 2))),
                        new Step(tr("Bob changes the phone and saves: version 3."),
                                tr("Version 3 holds Alice's title and Bob's phone: the lock made them take turns."),
                                c -> c.bob().type(CustomerField.PHONE, "+47 55 20 30 99")
                                        .thenCompose(v -> saveAndWait(c.bob(), 3)))));
    }

    static Scenario crash() {
        CustomerData start = customer("DEMO-5", "Kestrel Logistics", "Tom Hale", "Operations",
                "ops@kestrel.example", "+1 312 555 0188", "Chicago", "USA", "20000.00");
        return new Scenario(5, tr("Crash: lease lapses, save fenced"),
                tr("A lease protects only while its holder is alive. Alice's client freezes while it holds the lease "
                        + "(think of a long garbage-collection pause) just as it sends a save. The lease lapses by "
                        + "the database clock, Bob takes over with a newer fencing token and saves. When Alice's "
                        + "client wakes, its late save still carries the old token — and the database refuses it."),
                start, List.of(
                        openBoth(tr("Alice and Bob open Kestrel Logistics.")),
                        new Step(tr(
                                "Alice locks the customer for editing; her editor says until when the lock is hers."),
                                tr("The timeline shows her lease with its fencing token: every grant gets a larger "
                                        + "token from one database sequence."),
                                c -> lockNow(c.alice())),
                        type(tr("Alice types 25000.00 (25,000.00) as the credit limit."),
                                tr("Only her editor knows; nothing is saved yet."), Who.ALICE,
                                CustomerField.CREDIT_LIMIT,
                                "25000.00"),
                        new Step(tr("Bob sees Alice's lock, chooses Lock for editing and ticks Notify me when free."),
                                tr("Bob waits; Alice's client renews her lease every third of its TTL."),
                                c -> c.bob().waitUntil(tr("Waited in vain for Bob's editor to show Alice's lock."),
                                        () -> lockState(c.bob()) instanceof LockState.HeldByOther)
                                        .thenCompose(
                                                v -> c.bob().click(EditorIds.LOCK_MODE, tr("chooses Lock for editing")))
                                        .thenCompose(v -> c.bob().click(EditorIds.NOTIFY_WHEN_FREE,
                                                tr("ticks Notify me when free")))),
                        new Step(tr("Alice clicks Save — and her client freezes before the save reaches the database."),
                                tr("Her save waits inside her frozen client; her lease is no longer renewed."),
                                c -> {
                                    c.alice().operator().freeze().freeze();
                                    return c.alice().click(EditorIds.SAVE_BUTTON, tr("clicks Save — and freezes"))
                                            .thenCompose(v -> c.alice().waitUntil(
                                                    tr("Waited in vain for Alice's save to be under way."),
                                                    () -> editor(c.alice()).busyProperty().get()));
                                }),
                        new Step(
                                tr("The lease lapses after its TTL, judged by the database clock; Bob is told and takes the "
                                        + "lock with a newer fencing token."),
                                tr("Nobody released anything: the database let the lease expire. In the timeline, Alice's "
                                        + "token lapsed and Bob took over with a larger one."),
                                c -> c.bob().say(tr("waits for Alice's lease to lapse…"))
                                        .thenCompose(v -> c.bob().waitUntil(
                                                tr("Waited in vain for Alice's lease to lapse."),
                                                () -> lockState(c.bob()) instanceof LockState.Free
                                                        && editor(c.bob()).stateProperty().get() == EditorState.EDITING
                                                        && !editor(c.bob()).busyProperty().get(),
                                                Duration.millis((double) (c.leaseTtl().toMillis() + 20_000))))
                                        .thenCompose(v -> c.bob().click(EditorIds.LOCK_BUTTON, tr("clicks Lock")))
                                        .thenCompose(v -> held(c.bob()))),
                        new Step(tr("Bob sets the credit limit to 18,000.00 and saves under his lease: version 2."),
                                tr("Alice's save is still waiting inside her frozen client."),
                                c -> c.bob().type(CustomerField.CREDIT_LIMIT, "18000.00")
                                        .thenCompose(v -> saveAndWait(c.bob(), 2))),
                        new Step(
                                tr("Alice's client wakes: its late save arrives with the old fencing token and is refused."),
                                tr("The database compared tokens, not clocks: Bob's 18,000.00 stands. Alice keeps her "
                                        + "25,000.00 in her editor, read-only, and sees that Bob took over."),
                                c -> {
                                    c.alice().operator().freeze().thaw();
                                    return c.alice().say(tr("wakes up"))
                                            .thenCompose(
                                                    v -> c.alice().waitUntil(tr(
                                                            "Waited in vain for Alice's editor to report the lost lock."),
                                                            () -> lockState(c.alice()) instanceof LockState.Lost
                                                                    && !editor(c.alice()).busyProperty().get()));
                                })));
    }

    static Scenario editVersusDelete() {
        CustomerData start = customer("DEMO-6", "Old Mill Bakery", "Greta Nyberg", "Owner",
                "greta@oldmill.example", "+46 8 555 0160", "Uppsala", "Sweden", "1500.00");
        return new Scenario(6, tr("Edit versus delete"),
                tr("Alice is changing the phone number when Bob deletes the customer. Alice's save finds no row: "
                        + "instead of failing or silently dropping her work, Lockstep shows her what happened and "
                        + "lets her re-create the customer with her values, or accept the deletion."),
                start, List.of(
                        openBoth(tr("Alice and Bob open Old Mill Bakery.")),
                        type(tr("Alice changes the phone to +46 8 555 0199."),
                                tr("Nothing is saved yet."), Who.ALICE, CustomerField.PHONE,
                                "+46 8 555 0199"),
                        new Step(tr("Bob deletes the customer (Delete…, then Delete)."),
                                tr("Alice's editor says Bob deleted it; her edits are still there."),
                                c -> c.bob().click(EditorIds.DELETE_BUTTON, tr("clicks Delete…"))
                                        .thenCompose(v -> c.bob().confirmInDialog(tr("confirms Delete")))
                                        .thenCompose(v -> c.bob().waitUntil(
                                                tr("Waited in vain for Bob's delete to finish."),
                                                () -> editor(c.bob()).stateProperty().get() == EditorState.DELETED))),
                        new Step(tr("Alice saves: the merge dialog says the customer was deleted by Bob."),
                                tr("Nothing of Alice's was thrown away; she decides."),
                                c -> saveIntoMerge(c.alice())),
                        new Step(tr(
                                "Alice chooses Re-create with my values: a new customer, version 1, with her phone."),
                                tr("Bob's delete stands and Alice's work survives, as a new customer: nothing was lost silently."),
                                c -> {
                                    long deleted = c.customer().id();
                                    return c.alice().clickInDialog("recreate", tr("re-creates the customer"))
                                            .thenCompose(v -> c.alice()
                                                    .waitUntil(tr("Waited in vain for the re-created customer in "
                                                            + "Alice's editor."), () -> {
                                                                Customer base =
                                                                        editor(c.alice()).buffer().baseProperty().get();
                                                                return base != null && base.id() != deleted
                                                                        && editor(c.alice()).conflicts().mergeProperty()
                                                                                .get()
                                                                                == null;
                                                            }));
                                })));
    }

    private enum Who { ALICE, BOB }

    private static Hands hands(Cast c, Who who) {
        return who == Who.ALICE ? c.alice() : c.bob();
    }

    private static Step openBoth(String text) {
        return new Step(text, tr("Each window is its own client: its own connection pool and session."), c -> {
            Customer x = c.customer();
            return c.alice().open(x.id(), x.data().company())
                    .thenCompose(v -> c.bob().open(x.id(), x.data().company()));
        });
    }

    private static Step type(String text, String notice, Who who, CustomerField field, String value) {
        return new Step(text, notice, c -> hands(c, who).type(field, value));
    }

    private static Step save(String text, String notice, Who who, long version) {
        return new Step(text, notice, c -> saveAndWait(hands(c, who), version));
    }

    private static CompletableFuture<Void> saveAndWait(Hands h, long version) {
        return h.click(EditorIds.SAVE_BUTTON, tr("clicks Save")).thenCompose(v -> stored(h, version));
    }

    private static CompletableFuture<Void> stored(Hands h, long version) {
        return h.waitUntil(tr("Waited in vain for {0}''s save to be stored as version {1}.", h.operator().name(),
                version), () -> {
                    CustomerEditorViewModel e = editor(h);
                    return version(h) == version && !e.buffer().dirtyProperty().get() && !e.busyProperty().get()
                            && e.conflicts().mergeProperty().get() == null;
                });
    }

    /** Save meets a newer version (or none): waits for the merge dialog in that operator's window. */
    private static CompletableFuture<Void> saveIntoMerge(Hands h) {
        return h.click(EditorIds.SAVE_BUTTON, tr("clicks Save")).thenCompose(v -> h.waitUntil(
                tr("Waited in vain for the merge dialog in {0}''s window.", h.operator().name()),
                () -> editor(h).conflicts().mergeProperty().get() != null));
    }

    /** Lock for editing, then Lock: waits until the operator holds the lease. */
    private static CompletableFuture<Void> lockNow(Hands h) {
        return h.click(EditorIds.LOCK_MODE, tr("chooses Lock for editing"))
                .thenCompose(v -> h.click(EditorIds.LOCK_BUTTON, tr("clicks Lock")))
                .thenCompose(v -> held(h));
    }

    private static CompletableFuture<Void> held(Hands h) {
        return h.waitUntil(tr("Waited in vain for {0} to hold the lease.", h.operator().name()),
                () -> lockState(h) instanceof LockState.Held);
    }

    private static CustomerEditorViewModel editor(Hands h) {
        return h.operator().editor();
    }

    private static long version(Hands h) {
        Customer base = editor(h).buffer().baseProperty().get();
        return base == null ? -1 : base.version();
    }

    private static LockState lockState(Hands h) {
        return editor(h).lock().stateProperty().get();
    }

    private static ConcurrencyMode mode(Hands h) {
        return editor(h).lock().modeProperty().get();
    }

    private static CustomerData customer(String ref, String company, String contact, String title, String email,
            String phone, String city, String country, String creditLimit) {
        return new CustomerData(ref, company, contact, title, email, phone, null, null, city, null, null, country,
                "Training record of the Lockstep demo (scenario " + ref.substring(ref.length() - 1) + ").",
                new BigDecimal(creditLimit));
    }
}
