package org.lockstep.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockstep.text.Language;

/** Which language the desktop speaks (issue 16): {@code --lang}, else View → Language's choice, else the system's. */
class LanguageChoiceTest {

    final Preferences node = Preferences.userRoot().node("org/lockstep/test/" + UUID.randomUUID());
    final LanguageChoice choice = new LanguageChoice(node);

    @AfterEach
    void removeTheTestNode() throws BackingStoreException {
        node.removeNode();
    }

    @Test
    void withNothingStoredTheSystemsLanguageIsSpokenWhenLockstepSpeaksIt() {
        assertThat(choice.stored()).isEmpty();
        assertThat(choice.choose(Optional.empty(), Locale.forLanguageTag("es-MX"))).isEqualTo(Language.SPANISH);
        assertThat(choice.choose(Optional.empty(), Locale.forLanguageTag("pt-PT")))
                .isEqualTo(Language.PORTUGUESE_BRAZIL);
        assertThat(choice.choose(Optional.empty(), Locale.GERMANY)).isEqualTo(Language.ENGLISH);
    }

    @Test
    void aStoredChoiceBeatsTheSystemAndLangBeatsBoth() {
        choice.store(Language.PORTUGUESE_BRAZIL);

        assertThat(node.get(LanguageChoice.KEY, null)).isEqualTo("pt-BR");
        assertThat(new LanguageChoice(node).stored()).contains(Language.PORTUGUESE_BRAZIL);
        assertThat(choice.choose(Optional.empty(), Locale.forLanguageTag("es-ES")))
                .isEqualTo(Language.PORTUGUESE_BRAZIL);
        assertThat(choice.choose(Optional.of(Language.ENGLISH), Locale.forLanguageTag("es-ES")))
                .isEqualTo(Language.ENGLISH);
    }

    @Test
    void aTagLockstepDoesNotSpeakCountsAsNoChoice() {
        node.put(LanguageChoice.KEY, "klingon");

        assertThat(choice.stored()).isEmpty();
        assertThat(choice.choose(Optional.empty(), Locale.forLanguageTag("es"))).isEqualTo(Language.SPANISH);
    }
}
