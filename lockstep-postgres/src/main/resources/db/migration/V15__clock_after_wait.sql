-- Expiry is judged by the database clock at the moment a statement acts (clock_timestamp()), not by the start of its
-- transaction (now()): a statement that waited for a row lock began earlier than it acts, by as long as it waited.
-- The lease statements read the clock only once they hold the lease's row (JdbiLeaseRepository); presence rows
-- follow the same rule (JdbiPresenceRepository), and so does this trigger: a heartbeat that revives a row which
-- expired while the heartbeat waited for it is an arrival, and is announced as one.
-- (V3__lease.sql and V6__presence.sql say now() in their comments; those files stay as they were applied.)

CREATE OR REPLACE FUNCTION presence_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r presence := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.state = OLD.state AND OLD.expires_at > clock_timestamp() THEN
        RETURN NULL;
    END IF;
    PERFORM pg_notify('lockstep', json_build_object(
        'table', 'presence', 'id', r.customer_id, 'version', 0, 'op', TG_OP,
        'session', r.session_id, 'state', r.state)::text);
    RETURN NULL;
END $$;

COMMENT ON COLUMN presence.expires_at IS 'Judged against the database clock at the moment of each statement (clock_timestamp()).';
COMMENT ON COLUMN record_lease.expires_at IS 'Judged against the database clock at the moment of each statement (clock_timestamp()), read once the statement holds the row.';
