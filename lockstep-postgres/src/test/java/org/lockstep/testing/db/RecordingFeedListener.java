package org.lockstep.testing.db;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;

/**
 * A {@link ChangeFeed.Listener} that keeps, in order, every status a feed told it and every reason it gave for not
 * connecting ({@link ChangeFeed.Listener#cannotConnect}), for tests of what a feed says while its server or the way to
 * it is unfit. Safe to read from the test's thread while the feed's thread tells it. For the changes another client
 * hears, see {@link HeardChanges}.
 */
public final class RecordingFeedListener implements ChangeFeed.Listener {

    private final List<ChangeFeed.Status> statuses = new CopyOnWriteArrayList<>();
    private final List<String> reasons = new CopyOnWriteArrayList<>();

    @Override
    public void changes(List<ChangeEvent> events) {
        // only what the feed says about itself is kept
    }

    @Override
    public void status(ChangeFeed.Status status) {
        statuses.add(status);
    }

    @Override
    public void cannotConnect(String why) {
        reasons.add(why);
    }

    /** The statuses told so far, oldest first. */
    public List<ChangeFeed.Status> statuses() {
        return List.copyOf(statuses);
    }

    /** The reasons for not connecting told so far, oldest first (an empty text: a reason it could not tell). */
    public List<String> reasons() {
        return List.copyOf(reasons);
    }
}
