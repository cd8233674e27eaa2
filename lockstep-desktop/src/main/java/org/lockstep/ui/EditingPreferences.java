package org.lockstep.ui;

import org.lockstep.domain.ConcurrencyMode;
import java.util.prefs.Preferences;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import org.lockstep.ui.lock.EditLockViewModel;

/**
 * The operator's editing preferences, kept with {@link java.util.prefs.Preferences} under the node
 * {@code org/lockstep}: the mode new editors start in (key {@code defaultMode}: {@code OPTIMISTIC}, the default, or
 * {@code LOCK_FOR_EDITING}). The default is never {@code LAST_WRITE_WINS}: the unsafe teaching mode is chosen per editor,
 * and a new editor never starts in it.
 */
public final class EditingPreferences {

    /** The preference node's path. */
    public static final String NODE = "org/lockstep";
    /** The key of the default mode. */
    public static final String DEFAULT_MODE = "defaultMode";

    private EditingPreferences() {
    }

    /**
     * The default mode as a property: read from {@code node} now, written back on every change.
     *
     * @param node e.g. {@code Preferences.userRoot().node(NODE)}
     */
    public static ObjectProperty<ConcurrencyMode> defaultMode(Preferences node) {
        ConcurrencyMode stored;
        try {
            stored = ConcurrencyMode.valueOf(node.get(DEFAULT_MODE, ConcurrencyMode.OPTIMISTIC.name()));
        } catch (IllegalArgumentException e) {
            stored = ConcurrencyMode.OPTIMISTIC; // an unknown value written by another version
        }
        if (stored == ConcurrencyMode.LAST_WRITE_WINS) {
            stored = ConcurrencyMode.OPTIMISTIC; // written by hand: the unsafe mode is never a default
        }
        ObjectProperty<ConcurrencyMode> mode = new SimpleObjectProperty<>(null, DEFAULT_MODE, stored) {
            @Override
            public void set(ConcurrencyMode next) {
                if (next == ConcurrencyMode.LAST_WRITE_WINS) {
                    throw new IllegalArgumentException("Last write wins (unsafe) can never be the default mode");
                }
                super.set(next);
            }
        };
        mode.addListener((obs, was, now) -> node.put(DEFAULT_MODE,
                (now == null ? ConcurrencyMode.OPTIMISTIC : now).name()));
        return mode;
    }
}
