package org.lockstep.store;

import static org.lockstep.text.Texts.tr;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.RowMapper;
import org.lockstep.domain.Message;
import org.lockstep.domain.MessageRepository;

/**
 * Messages in {@code message} (V7__message.sql); the insert's trigger notifies the recipient's client. Times are the
 * database clock's ({@code DEFAULT now()}).
 */
public final class JdbiMessageRepository implements MessageRepository {

    private static final RowMapper<Message> MESSAGE = (rs, ctx) -> new Message(rs.getLong("id"),
            rs.getString("from_user"), rs.getLong("customer_id"), rs.getString("text"),
            rs.getObject("sent_at", OffsetDateTime.class).toInstant());

    private final Jdbi jdbi;
    private final String user;
    private final String session;

    /**
     * @param jdbi    the database
     * @param user    the operator's name, shown to the recipient
     * @param session this client's session id (where replies and messages to it go)
     */
    public JdbiMessageRepository(Jdbi jdbi, String user, String session) {
        this.jdbi = jdbi;
        this.user = user;
        this.session = session;
    }

    @Override
    public JdbiMessageRepository asWriter(String writerId) {
        return new JdbiMessageRepository(jdbi, user, writerId);
    }

    @Override
    public Message send(String toSession, long customerId, String text) {
        String checked = Message.checkedText(text);
        // Sent twice would be received twice: never repeated.
        return sendTo(Objects.requireNonNull(toSession, "toSession"), customerId, checked);
    }

    @Override
    public Message askSupervisors(long customerId, String text) {
        return sendTo(null, customerId, Message.checkedText(text));
    }

    /**
     * Through the owner's function (R__40_audit.sql): operators cannot insert messages themselves, so none is ever
     * "from" anyone but the login that sent it. Sent twice would be received twice: never repeated.
     */
    private Message sendTo(String toSession, long customerId, String checked) {
        return DatabaseCalls.once(() -> jdbi.withHandle(h -> h.createQuery("""
                        SELECT id, from_user, customer_id, text, sent_at
                        FROM lockstep_send_message(:user, :session, :to, :customer, :text)""")
                .bind("user", user).bind("session", session).bind("to", toSession).bind("customer", customerId)
                .bind("text", checked)
                .map(MESSAGE).one()), tr("whether the message was sent is unknown"));
    }

    /** {@inheritDoc} The database says who is a supervisor ({@code lockstep_is_supervisor()}), never the client. */
    @Override
    public List<Message> supervisorRequests(long afterId) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery("""
                        SELECT id, from_user, customer_id, text, sent_at FROM message
                        WHERE to_supervisors AND id > :after AND lockstep_is_supervisor() ORDER BY id LIMIT :max
                        """)
                .bind("after", afterId).bind("max", MAX_REQUESTS).map(MESSAGE).list()));
    }

    /** {@inheritDoc} The newest {@link #MAX_REQUESTS}, turned oldest first. */
    @Override
    public List<Message> supervisorRequestsSince(Instant since) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery("""
                        SELECT * FROM (
                            SELECT id, from_user, customer_id, text, sent_at FROM message
                            WHERE to_supervisors AND sent_at >= :since AND lockstep_is_supervisor()
                            ORDER BY id DESC LIMIT :max
                        ) newest ORDER BY id
                        """)
                .bind("since", since.atOffset(ZoneOffset.UTC)).bind("max", MAX_REQUESTS).map(MESSAGE).list()));
    }

    @Override
    public List<Message> received(long customerId, long afterId) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery("""
                        SELECT id, from_user, customer_id, text, sent_at FROM message
                        WHERE to_session = :session AND customer_id = :customer AND id > :after ORDER BY id
                        """)
                .bind("session", session).bind("customer", customerId).bind("after", afterId)
                .map(MESSAGE).list()));
    }
}
