package org.lockstep.testing.db;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.store.PgChangeFeed;

/**
 * Another client's ears: a real change feed (LISTEN) on a database, live before {@link #listening} returns, that keeps
 * every change it hears, in order. For tests of what other clients are told; close it before the database.
 */
public final class HeardChanges implements AutoCloseable {

    private final List<ChangeEvent> heard = new CopyOnWriteArrayList<>();
    private final PgChangeFeed feed;

    private HeardChanges(String url, String user, String password) {
        feed = new PgChangeFeed(url, user, password, new ChangeFeed.Listener() {
            @Override
            public void changes(List<ChangeEvent> batch) {
                heard.addAll(batch);
            }

            @Override
            public void status(ChangeFeed.Status status) {
            }

            @Override
            public void resync() {
            }
        });
    }

    /** Listens on the database at {@code url} (without credentials in it), waiting up to 10 s for the feed to be live. */
    public static HeardChanges listening(String url, String user, String password) {
        HeardChanges h = new HeardChanges(url, user, password);
        h.feed.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> h.feed.status() == ChangeFeed.Status.LIVE);
        return h;
    }

    /** Every change heard so far, oldest first. */
    public List<ChangeEvent> all() {
        return List.copyOf(heard);
    }

    /** The changes to customers heard so far, oldest first. */
    public List<ChangeEvent> customers() {
        return heard.stream().filter(ChangeEvent::isCustomer).toList();
    }

    /** Forgets what was heard. */
    public void clear() {
        heard.clear();
    }

    @Override
    public void close() {
        feed.close();
    }
}
