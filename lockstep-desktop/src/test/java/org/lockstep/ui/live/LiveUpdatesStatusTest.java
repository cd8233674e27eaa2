package org.lockstep.ui.live;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.lockstep.domain.ChangeFeed;

/**
 * What the status bar reads from the feed's reports: its state in a word, and, when the feed cannot connect for a
 * reason the store names (a full disk), that reason in place of the list's counts, until the feed is live again.
 */
class LiveUpdatesStatusTest {

    private final LiveUpdates live = new LiveUpdates(Runnable::run, "alice-session");

    @Test
    void aNamedReasonShowsInTheStatusBarAndTheFeedSaysOfflineUntilItIsLiveAgain() {
        live.status(ChangeFeed.Status.LIVE);
        live.status(ChangeFeed.Status.RECONNECTING);
        assertThat(live.statusTextProperty().get()).isEqualTo("Reconnecting…");
        assertThat(live.problemProperty().get()).isEmpty();

        live.cannotConnect("The disk that holds Lockstep's database is full: …");
        assertThat(live.problemProperty().get()).isEqualTo("The disk that holds Lockstep's database is full: …");
        assertThat(live.statusTextProperty().get()).isEqualTo("Offline");

        // A later attempt fails for a reason nobody can name: the sentence would no longer be known to be true.
        live.cannotConnect("");
        assertThat(live.problemProperty().get()).isEmpty();
        assertThat(live.statusTextProperty().get()).isEqualTo("Reconnecting…");

        live.cannotConnect("The disk that holds Lockstep's database is full: …");
        live.status(ChangeFeed.Status.LIVE);
        assertThat(live.problemProperty().get()).isEmpty();
        assertThat(live.statusTextProperty().get()).isEqualTo("Live");
    }
}
