-- Messages (issue 5): an operator waiting on a lock asks its holder to let go ("Please save, I need this customer").
-- The holder's client hears of it through the notify trigger and reads its own messages; sent_at is the database
-- clock's, as every timestamp Lockstep shows to more than one client.

CREATE TABLE message (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    from_user    text        NOT NULL,
    from_session text,
    to_session   text        NOT NULL,
    customer_id  bigint      NOT NULL,
    text         text        NOT NULL CHECK (char_length(text) BETWEEN 1 AND 500),
    sent_at      timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX message_inbox ON message (to_session, customer_id, id);

COMMENT ON TABLE message IS 'Short messages from an operator to the client session holding a lock, about one customer.';

-- The payload names the customer (id), the message (version) and the sender (session); the recipient reads the row.
CREATE FUNCTION message_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('lockstep', json_build_object(
        'table', 'message', 'id', NEW.customer_id, 'version', NEW.id, 'op', TG_OP,
        'session', NEW.from_session)::text);
    RETURN NULL;
END $$;

CREATE TRIGGER message_notify AFTER INSERT ON message FOR EACH ROW EXECUTE FUNCTION message_notify();
