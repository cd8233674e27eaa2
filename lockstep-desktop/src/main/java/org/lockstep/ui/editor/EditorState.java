package org.lockstep.ui.editor;

/** Where an editor is in its life. Only {@link #NEW} and {@link #EDITING} accept edits. */
public enum EditorState {
    /** Nothing loaded yet, or a load failed before anything was shown. */
    EMPTY,
    /** A record is being read from the database. */
    LOADING,
    /** A blank customer not yet in the database; Save creates it. */
    NEW,
    /** A stored customer, with or without unsaved edits. */
    EDITING,
    /** The customer no longer exists (deleted here or by someone else); its last values stay visible. */
    DELETED
}
