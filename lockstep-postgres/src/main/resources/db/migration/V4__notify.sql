-- Live updates: every change to customer and record_lease, by any writer (Lockstep, a script, psql), notifies
-- channel 'lockstep' inside the writer's transaction (delivered at commit; PostgreSQL docs, NOTIFY). The payload
-- carries identifiers only — table, id, version or token, op, and the writer's session when known — never the row:
-- a payload over 8,000 bytes would fail the writer's own transaction.

CREATE FUNCTION customer_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r customer := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
    PERFORM pg_notify('lockstep', json_build_object(
        'table', 'customer', 'id', r.id, 'version', r.version, 'op', TG_OP,
        'session', nullif(current_setting('lockstep.session', true), ''))::text);
    RETURN NULL;
END $$;

CREATE TRIGGER customer_notify AFTER INSERT OR UPDATE OR DELETE ON customer
    FOR EACH ROW EXECUTE FUNCTION customer_notify();

-- For leases the session is the holder's: a client recognizes its own grants and renewals.
CREATE FUNCTION record_lease_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r record_lease := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
    -- A renewal changes nothing anyone else shows; telling every client twenty times a minute per lease would be noise.
    IF TG_OP = 'UPDATE' AND NEW.token = OLD.token AND NEW.ended IS NOT DISTINCT FROM OLD.ended THEN
        RETURN NULL;
    END IF;
    PERFORM pg_notify('lockstep', json_build_object(
        'table', 'record_lease', 'id', r.record_id, 'version', r.token, 'op', TG_OP,
        'session', r.session_id, 'holder', r.holder, 'ended', r.ended)::text);
    RETURN NULL;
END $$;

CREATE TRIGGER record_lease_notify AFTER INSERT OR UPDATE OR DELETE ON record_lease
    FOR EACH ROW EXECUTE FUNCTION record_lease_notify();
