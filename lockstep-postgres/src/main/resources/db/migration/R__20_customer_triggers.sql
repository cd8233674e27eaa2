-- The customer table's triggers (issue 26; before it V2, V9, V16, V19): every writer's row is stamped, guarded and
-- written to the history by the database, whoever the writer — Lockstep, psql, a script, an older client.
--
-- The guard binds every writer. While a session holds an unexpired lease on a customer, a write of that customer
-- commits only if it proves the lease by its secret (lockstep.secret, whose SHA-256 the lease keeps) — Kleppmann's
-- fencing, enforced by the storage (DDIA ch. 8, "The leader and the lock") — and, for a 'fenced' write, names the
-- lease's token. What it does when the proof is missing depends on who asks:
--   'unleased' or 'fenced' (a Lockstep save): the row is skipped (RETURN NULL), the statement matches zero rows and
--               the client reads why (JdbiCustomerRepository), as since V19;
--   no guard (psql, a report tool, a bulk UPDATE, an older client): an error names the lock, its holder and its
--               end, and the whole statement is undone. An administrator who must write anyway breaks the lock
--               first (a supervisor's, recorded in lease_event), never silently.
-- The lease's row is read FOR SHARE once this session holds the customer's row lock (PostgreSQL calls a BEFORE ROW
-- trigger after locking the row; EvalPlanQual re-checks the statement on its newest version — PostgreSQL docs,
-- 13.2.1): a renewal or end in progress is waited for, and the expiry is compared afterwards by the database clock.
-- A grant locks the customer's row first (lockstep_lease_acquire), so none slips in while this write holds it.
--
-- The functions run with the schema owner's rights (SECURITY DEFINER): operators have no INSERT on the history,
-- which only these triggers write.

CREATE OR REPLACE FUNCTION customer_before_write() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
DECLARE
    guard  text;
    lease  record;
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW.version := 1;
        NEW.updated_at := clock_timestamp();
        NEW.updated_by := lockstep_operator_name(current_setting('lockstep.user', true));
        RETURN NEW;
    END IF;

    guard := coalesce(current_setting('lockstep.guard', true), '');
    SELECT l.holder, l.token, l.expires_at, l.secret_hash INTO lease FROM record_lease l
    WHERE l.record_id = OLD.id AND l.ended IS NULL
    FOR SHARE;
    IF FOUND AND lease.expires_at > clock_timestamp() THEN
        IF lease.secret_hash IS DISTINCT FROM
                sha256(convert_to(coalesce(current_setting('lockstep.secret', true), ''), 'UTF8'))
                OR (guard = 'fenced'
                    AND lease.token IS DISTINCT FROM nullif(current_setting('lockstep.token', true), '')::bigint) THEN
            IF guard IN ('unleased', 'fenced') THEN
                RETURN NULL;
            END IF;
            RAISE EXCEPTION 'customer % is locked for editing by % until %', OLD.id, lease.holder,
                    to_char(lease.expires_at, 'HH24:MI:SS')
                USING ERRCODE = 'LS423',
                      HINT = 'Wait for the lock to end, or ask a supervisor to break it (lockstep lease break '
                             || OLD.id || ').';
        END IF;
    ELSIF guard = 'fenced' THEN
        -- The writer's lease has ended or lapsed: nothing it writes under it may commit.
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;

    -- The version, time and writer are the database's to write (V2, V9); the moment of the write, so that a save that
    -- waited for a row lock is stamped after the write it waited for.
    NEW.version := OLD.version + 1;
    NEW.updated_at := clock_timestamp();
    NEW.updated_by := lockstep_operator_name(current_setting('lockstep.user', true));
    -- The history row of this version (V16: the new row only), in the same statement: undone with it.
    INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row, request_id)
    VALUES (NEW.id, NEW.version, 'UPDATE', NEW.updated_by, NEW.updated_at, to_jsonb(NEW) - 'search_text',
            nullif(current_setting('lockstep.request', true), '')::uuid);
    RETURN NEW;
END $$;

-- A creation's and a deletion's history (creations come by thousands: one call per statement), and every writer's
-- notification but Lockstep's own (V16, V19).
CREATE OR REPLACE FUNCTION customer_after_write() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
DECLARE
    who       text := lockstep_operator_name(current_setting('lockstep.user', true));
    request   uuid := nullif(current_setting('lockstep.request', true), '')::uuid;
    session   text;
    announced text[];
    changed   bigint;
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row, request_id)
        SELECT n.id, n.version, 'INSERT', who, n.updated_at, to_jsonb(n) - 'search_text', request
        FROM new_rows n ORDER BY n.id;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, old_row, request_id)
        SELECT o.id, o.version, 'DELETE', who, clock_timestamp(), to_jsonb(o) - 'search_text', request
        FROM old_rows o ORDER BY o.id;
    END IF;

    -- The notification, V4's payload: identifiers only. 'client': announced by its client after commit
    -- (store/Announcer); 'bulk': announced by the writer at its end (one MANY).
    IF current_setting('lockstep.announce', true) IN ('client', 'bulk') THEN
        RETURN NULL;
    END IF;
    session := nullif(current_setting('lockstep.session', true), '');
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(json_build_object('table', 'customer', 'id', o.id, 'version', o.version, 'op', TG_OP,
                                           'session', session)::text)
        INTO announced FROM (SELECT id, version FROM old_rows LIMIT 51) o;
    ELSE
        SELECT array_agg(json_build_object('table', 'customer', 'id', n.id, 'version', n.version, 'op', TG_OP,
                                           'session', session)::text)
        INTO announced FROM (SELECT id, version FROM new_rows LIMIT 51) n;
    END IF;
    IF announced IS NULL THEN
        RETURN NULL;
    END IF;
    -- A statement over 50 rows (a COPY batch, a psql UPDATE of 50,000 rows) sends ONE notification (V16).
    IF cardinality(announced) > 50 THEN
        IF TG_OP = 'DELETE' THEN
            SELECT count(*) INTO changed FROM old_rows;
        ELSE
            SELECT count(*) INTO changed FROM new_rows;
        END IF;
        PERFORM pg_notify('lockstep', json_build_object('table', 'customer', 'id', 0, 'version', changed,
                                                        'op', 'MANY', 'session', session)::text);
    ELSE
        PERFORM pg_notify('lockstep', a) FROM unnest(announced) a;
    END IF;
    RETURN NULL;
END $$;

-- CREATE OR REPLACE TRIGGER needs PostgreSQL 14; Lockstep runs on 13.
DROP TRIGGER IF EXISTS customer_before_write ON customer;
CREATE TRIGGER customer_before_write BEFORE INSERT OR UPDATE OR DELETE ON customer
    FOR EACH ROW EXECUTE FUNCTION customer_before_write();
-- Transition tables allow one event per trigger (PostgreSQL docs, CREATE TRIGGER), hence three. A Lockstep save
-- has nothing left for the update's to do: its WHEN, evaluated without calling the function, skips it.
DROP TRIGGER IF EXISTS customer_after_insert ON customer;
CREATE TRIGGER customer_after_insert AFTER INSERT ON customer REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_after_write();
DROP TRIGGER IF EXISTS customer_after_update ON customer;
CREATE TRIGGER customer_after_update AFTER UPDATE ON customer REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT WHEN (coalesce(current_setting('lockstep.announce', true), '') NOT IN ('client', 'bulk'))
    EXECUTE FUNCTION customer_after_write();
DROP TRIGGER IF EXISTS customer_after_delete ON customer;
CREATE TRIGGER customer_after_delete AFTER DELETE ON customer REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_after_write();

-- Presence is shown under the name the database records for the login, never the one a client claims.
CREATE OR REPLACE FUNCTION presence_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.user_name := lockstep_operator_name(NEW.user_name);
    RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS presence_name ON presence;
CREATE TRIGGER presence_name BEFORE INSERT OR UPDATE ON presence FOR EACH ROW EXECUTE FUNCTION presence_name();
