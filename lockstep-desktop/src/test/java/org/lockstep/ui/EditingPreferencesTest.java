package org.lockstep.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.beans.property.ObjectProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.ConcurrencyMode;

/** The default mode of new editors, kept as a preference (a throw-away node, never the operator's own). */
class EditingPreferencesTest {

    final Preferences node = Preferences.userRoot().node("org/lockstep-test/" + UUID.randomUUID());

    @AfterEach
    void removeNode() throws BackingStoreException {
        node.removeNode();
    }

    @Test
    void optimisticUntilChosenOtherwiseAndTheChoiceIsKept() {
        ObjectProperty<ConcurrencyMode> mode = EditingPreferences.defaultMode(node);
        assertThat(mode.get()).isEqualTo(ConcurrencyMode.OPTIMISTIC);

        mode.set(ConcurrencyMode.LOCK_FOR_EDITING);

        assertThat(node.get(EditingPreferences.DEFAULT_MODE, null)).isEqualTo("LOCK_FOR_EDITING");
        assertThat(EditingPreferences.defaultMode(node).get()).isEqualTo(ConcurrencyMode.LOCK_FOR_EDITING);
    }

    @Test
    void lastWriteWinsIsNeverTheDefaultMode() {
        ObjectProperty<ConcurrencyMode> mode = EditingPreferences.defaultMode(node);

        assertThatThrownBy(() -> mode.set(ConcurrencyMode.LAST_WRITE_WINS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(mode.get()).isEqualTo(ConcurrencyMode.OPTIMISTIC);
        assertThat(node.get(EditingPreferences.DEFAULT_MODE, null)).isNull();

        node.put(EditingPreferences.DEFAULT_MODE, "LAST_WRITE_WINS"); // written by hand
        assertThat(EditingPreferences.defaultMode(node).get()).isEqualTo(ConcurrencyMode.OPTIMISTIC);
    }

    @Test
    void anUnknownStoredValueMeansOptimistic() {
        node.put(EditingPreferences.DEFAULT_MODE, "PESSIMISTIC_FOREVER");

        assertThat(EditingPreferences.defaultMode(node).get()).isEqualTo(ConcurrencyMode.OPTIMISTIC);
    }
}
