package org.lockstep.ui.conflict;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.FieldParser;
import org.lockstep.ui.SaveStamp;

/**
 * A save that came back with zero rows (PoEAA, Optimistic Offline Lock): what the database holds now (theirs)
 * beside the values the operator tried to save (mine), field by field, and the choices that resolve it. This is the
 * interim conflict view; a three-way merge dialog replaces it later. Immutable; the decision goes to the editor
 * that raised the conflict.
 */
public final class ConflictViewModel {

    private final Optional<Customer> theirs;
    private final CustomerData mine;
    private final long myBaseVersion;
    private final String user;
    private final Clock clock;
    private final Consumer<ConflictChoice> decision;

    /**
     * @param theirs        the record as stored now; empty when someone deleted it
     * @param mine          the values the operator tried to save
     * @param myBaseVersion the version the operator's edits were based on
     * @param user          the operator's name, to tell their own saves from other windows apart
     * @param clock         gives the time zone and today for the save time
     * @param decision      receives the operator's choice, on the FX thread
     */
    public ConflictViewModel(Optional<Customer> theirs, CustomerData mine, long myBaseVersion, String user,
                             Clock clock, Consumer<ConflictChoice> decision) {
        this.theirs = theirs;
        this.mine = mine;
        this.myBaseVersion = myBaseVersion;
        this.user = user;
        this.clock = clock;
        this.decision = decision;
    }

    /** The record as stored now; empty when someone deleted it. */
    public Optional<Customer> theirs() {
        return theirs;
    }

    /** The values the operator tried to save. */
    public CustomerData mine() {
        return mine;
    }

    /** Whether someone deleted the record. */
    public boolean deleted() {
        return theirs.isEmpty();
    }

    /**
     * What happened, in one sentence: "Bob saved version 3 at 10:03 while you were editing version 2", or "This
     * customer was deleted by someone else".
     */
    public String header() {
        if (theirs.isEmpty()) {
            return "This customer was deleted by someone else";
        }
        Customer t = theirs.get();
        String who = user.equals(t.updatedBy()) ? "You (in another window)" : SaveStamp.who(t);
        return who + " saved version " + t.version() + " at " + SaveStamp.time(t.updatedAt(), clock)
                + " while you were editing version " + myBaseVersion;
    }

    /** Every field, mine beside theirs, in display order. */
    public List<ConflictRow> rows() {
        CustomerData theirData = theirs.map(Customer::data).orElse(CustomerData.EMPTY);
        return CustomerField.all().stream().map(f -> new ConflictRow(f,
                FieldParser.format(mine.get(f)),
                FieldParser.format(theirData.get(f)),
                theirs.isPresent() && !CustomerData.sameValue(norm(mine, f), norm(theirData, f)))).toList();
    }

    /** How many fields differ. */
    public long differences() {
        return rows().stream().filter(ConflictRow::differs).count();
    }

    /**
     * The choices offered, in the order the buttons show them. "Back to my edits" is always offered, so that closing
     * the view never loses anything.
     */
    public List<ConflictChoice> choices() {
        return theirs.isPresent()
                ? List.of(ConflictChoice.OVERWRITE_WITH_MINE, ConflictChoice.DISCARD_MINE_AND_RELOAD,
                        ConflictChoice.BACK_TO_MY_EDITS)
                : List.of(ConflictChoice.SAVE_MINE_AS_NEW, ConflictChoice.DISCARD, ConflictChoice.BACK_TO_MY_EDITS);
    }

    /**
     * Resolves the conflict.
     *
     * @throws IllegalArgumentException when the choice is not {@link #choices() offered}
     */
    public void choose(ConflictChoice choice) {
        if (!choices().contains(choice)) {
            throw new IllegalArgumentException(choice.label() + " is not offered here");
        }
        decision.accept(choice);
    }

    private static Object norm(CustomerData data, CustomerField field) {
        return data.normalized().get(field);
    }
}
