package org.lockstep.ui.conflict;

/** What the operator decides about a conflict. Which choices are offered depends on whether theirs still exists. */
public enum ConflictChoice {
    /** Save my values as a new version on top of theirs (a new versioned save on their version). */
    OVERWRITE_WITH_MINE("Overwrite with mine"),
    /** Drop my edits; the editor shows theirs, clean. */
    DISCARD_MINE_AND_RELOAD("Discard mine and reload"),
    /** Close the conflict view and keep editing; nothing is lost, nothing is saved. */
    BACK_TO_MY_EDITS("Back to my edits"),
    /** Theirs was deleted: insert my values as a new customer. */
    SAVE_MINE_AS_NEW("Save mine as a new customer"),
    /** Theirs was deleted: drop my edits too. */
    DISCARD("Discard");

    private final String label;

    ConflictChoice(String label) {
        this.label = label;
    }

    /** The words on the button. */
    public String label() {
        return label;
    }
}
