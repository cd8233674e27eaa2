-- Presence (issue 5): who has a customer open, and whether they are editing it. Each client upserts its rows every
-- ~10 s (a heartbeat) with expires_at set by the database clock, and deletes them when it closes the customer. A
-- crashed client stops heartbeating; its rows expire within the TTL and every reader ignores expired rows, so it is
-- gone from everyone's screen without anyone cleaning up after it.

CREATE TABLE presence (
    session_id  text        NOT NULL,
    user_name   text        NOT NULL,
    -- No foreign key to customer: a heartbeat must never fail because someone deleted a customer a moment ago; a
    -- row for a deleted customer simply expires.
    customer_id bigint      NOT NULL,
    state       text        NOT NULL CHECK (state IN ('viewing', 'editing')),
    -- Judged against the database clock only (now()), as leases are: client clocks disagree.
    expires_at  timestamptz NOT NULL,
    PRIMARY KEY (customer_id, session_id)
);

CREATE INDEX presence_session ON presence (session_id);

COMMENT ON TABLE presence IS 'Who has a customer open (viewing or editing), kept alive by heartbeats; expired rows are ignored.';

-- Tells listeners when someone arrives, leaves or starts/stops editing — not on a pure heartbeat, which changes
-- nothing anyone shows (except reviving an expired row, which is an arrival).
CREATE FUNCTION presence_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r presence := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.state = OLD.state AND OLD.expires_at > now() THEN
        RETURN NULL;
    END IF;
    PERFORM pg_notify('lockstep', json_build_object(
        'table', 'presence', 'id', r.customer_id, 'version', 0, 'op', TG_OP,
        'session', r.session_id, 'state', r.state)::text);
    RETURN NULL;
END $$;

CREATE TRIGGER presence_notify AFTER INSERT OR UPDATE OR DELETE ON presence
    FOR EACH ROW EXECUTE FUNCTION presence_notify();
