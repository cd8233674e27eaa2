package org.lockstep.testing;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.lockstep.domain.Message;
import org.lockstep.domain.MessageRepository;

/**
 * A {@link MessageRepository} in memory, for view-model tests: one store shared by the clients {@link #as} makes,
 * each an operator who is or is not a supervisor (on PostgreSQL the database decides that; here the test does). Times
 * are the given clock's. Kept honest by {@code MessageRepositoryContractTest}. Thread-safe.
 */
public final class InMemoryMessageRepository implements MessageRepository {

    private record Stored(Message message, String toSession, boolean toSupervisors) {
    }

    private static final class Store {
        final Clock clock;
        final List<Stored> messages = new ArrayList<>();
        long lastId;

        Store(Clock clock) {
            this.clock = clock;
        }
    }

    private final Store store;
    private final String user;
    private final String session;
    private final boolean supervisor;

    private InMemoryMessageRepository(Store store, String user, String session, boolean supervisor) {
        this.store = store;
        this.user = user;
        this.session = session;
        this.supervisor = supervisor;
    }

    /** An empty store on {@code clock}, with its first client: {@code user} on {@code session}. */
    public static InMemoryMessageRepository empty(Clock clock, String user, String session, boolean supervisor) {
        return new InMemoryMessageRepository(new Store(clock), user, session, supervisor);
    }

    /** Another client of the same store. */
    public InMemoryMessageRepository as(String otherUser, String otherSession, boolean isSupervisor) {
        return new InMemoryMessageRepository(store, otherUser, otherSession, isSupervisor);
    }

    @Override
    public Message send(String toSession, long customerId, String text) {
        return add(Objects.requireNonNull(toSession, "toSession"), customerId, Message.checkedText(text));
    }

    @Override
    public Message askSupervisors(long customerId, String text) {
        return add(null, customerId, Message.checkedText(text));
    }

    private Message add(String toSession, long customerId, String checked) {
        synchronized (store) {
            Message m = new Message(++store.lastId, user, customerId, checked, store.clock.instant());
            store.messages.add(new Stored(m, toSession, toSession == null));
            return m;
        }
    }

    @Override
    public List<Message> supervisorRequests(long afterId) {
        if (!supervisor) {
            return List.of();
        }
        synchronized (store) {
            return store.messages.stream().filter(s -> s.toSupervisors() && s.message().id() > afterId)
                    .map(Stored::message).limit(MAX_REQUESTS).toList();
        }
    }

    @Override
    public List<Message> supervisorRequestsSince(Instant since) {
        if (!supervisor) {
            return List.of();
        }
        synchronized (store) {
            List<Message> all = store.messages.stream()
                    .filter(s -> s.toSupervisors() && !s.message().sentAt().isBefore(since))
                    .map(Stored::message).toList();
            return all.subList(Math.max(0, all.size() - MAX_REQUESTS), all.size());
        }
    }

    @Override
    public List<Message> received(long customerId, long afterId) {
        synchronized (store) {
            return store.messages.stream().filter(s -> session.equals(s.toSession())
                    && s.message().customerId() == customerId && s.message().id() > afterId)
                    .map(Stored::message).toList();
        }
    }

    @Override
    public MessageRepository asWriter(String writerId) {
        return new InMemoryMessageRepository(store, user, writerId, supervisor);
    }
}
