package org.lockstep.ui.presence;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.Presence;
import org.lockstep.domain.PresenceRepository;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.ui.Sessions;
import org.slf4j.LoggerFactory;

/**
 * A database away while editors are open (issue 28): presence is a courtesy, so its calls failing write one INFO
 * line per outage, never a WARN — on the desktop a WARN reaches stderr, and a full server disk printed "Could not
 * background task: …StoreUnavailableException: …" with a stack trace in the log at every heartbeat, every 10 s. The
 * outage itself is the status bar's to tell.
 */
class PresenceBoardOutageTest {

    /** The presence store of a database that is away while {@link #away} is set: every call fails as the store's do. */
    static final class Outage implements PresenceRepository {
        boolean away;
        final List<Map<Long, Presence.State>> heartbeats = new ArrayList<>();

        private void check() {
            if (away) {
                throw new StoreUnavailableException("The disk that holds Lockstep's database is full", null);
            }
        }

        @Override
        public String sessionId() {
            return "session-1";
        }

        @Override
        public void heartbeat(Map<Long, Presence.State> open) {
            check();
            heartbeats.add(Map.copyOf(open));
        }

        @Override
        public void leave(long customerId) {
            check();
        }

        @Override
        public void leaveAll() {
            check();
        }

        @Override
        public List<Presence> present() {
            check();
            return List.of(new Presence(4, "session-2", "Bob", Presence.State.EDITING));
        }
    }

    final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeEach
    void capture() {
        log.start();
        root.addAppender(log);
    }

    @AfterEach
    void release() {
        root.detachAppender(log);
    }

    @Test
    void anOutageIsLoggedOnceAtInfoAndAgainOnlyAfterTheDatabaseAnswered() {
        Outage store = new Outage();
        PresenceBoard board = new PresenceBoard(store, TaskExecutor.sameThread(), Runnable::run, Sessions.SCHEDULER,
                Duration.ofHours(1));
        board.start();
        PresenceBoard.Seat seat = board.open(4);

        store.away = true;
        board.heartbeat();
        board.heartbeat();
        board.refresh();
        seat.state(Presence.State.EDITING);
        board.open(5).close();

        assertThat(log.list).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).isEmpty();
        assertThat(log.list).filteredOn(e -> e.getLoggerName().equals(PresenceBoard.class.getName()))
                .singleElement().satisfies(e -> {
                    assertThat(e.getLevel()).isEqualTo(Level.INFO);
                    assertThat(e.getFormattedMessage()).isEqualTo("Presence not updated until the database answers"
                            + " again: The disk that holds Lockstep's database is full");
                });

        store.away = false;
        board.heartbeat();
        assertThat(store.heartbeats).last().isEqualTo(Map.of(4L, Presence.State.EDITING));
        assertThat(board.others(4)).extracting(Presence::user).containsExactly("Bob");

        store.away = true;
        board.heartbeat();
        board.stop();

        assertThat(log.list).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).isEmpty();
        assertThat(log.list).filteredOn(e -> e.getLoggerName().equals(PresenceBoard.class.getName())).hasSize(2);
    }
}
