-- The customer table's triggers (issue 26; before it V2, V9, V16, V19; a restore's version: V23; the Updated order:
-- V24; the search text: V25): every writer's row is stamped, guarded and written to the history by the database,
-- whoever the writer — Lockstep, psql, a script, an older client.
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
-- A transaction at REPEATABLE READ or SERIALIZABLE reads record_lease as of its snapshot, so a grant committed after
-- the snapshot was taken is not in what it reads. When it reads no lease, it asks the lease's unique index, which
-- knows every committed row: an INSERT … ON CONFLICT DO NOTHING whose conflicting row the snapshot cannot see raises
-- a serialization failure (PostgreSQL docs, 13.2.2 and INSERT, "ON CONFLICT"), which is this write's answer — run it
-- again, and it sees the lock. The probe's row is always undone (its subtransaction), so no lease and no
-- notification comes of it. Lockstep's own writes run at READ COMMITTED, where every statement reads afresh.
--
-- Ids come from the customer's identity sequence, for everyone but the owner: an explicit id above it would be taken
-- from a later creation (which then fails on the primary key), and one below it would join a deleted customer's
-- history. A customer's id never changes (its history, leases and conflicts are kept by it).
--
-- The functions run with the schema owner's rights (SECURITY DEFINER): operators have no INSERT on the history,
-- which only these triggers write.

CREATE OR REPLACE FUNCTION customer_before_write() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
DECLARE
    guard    text;
    lease    record;
    restored bigint;
    earlier  jsonb;
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NOT lockstep_is_owner() THEN
            PERFORM lockstep_check_new_id(NEW.id);
        END IF;
        NEW.version := 1;
        NEW.search_text := customer_search_text(NEW.company, NEW.contact_name, NEW.email, NEW.city, NEW.country);
        NEW.updated_at := clock_timestamp();
        NEW.updated_by := lockstep_operator_name(current_setting('lockstep.user', true));
        RETURN NEW;
    END IF;

    IF TG_OP = 'UPDATE' AND NEW.id <> OLD.id THEN
        RAISE EXCEPTION 'a customer''s number cannot change (customer % to %)', OLD.id, NEW.id
            USING ERRCODE = 'LS422', HINT = 'Create a new customer instead.';
    END IF;
    guard := coalesce(current_setting('lockstep.guard', true), '');
    SELECT l.holder, l.token, l.expires_at, l.secret_hash INTO lease FROM record_lease l
    WHERE l.record_id = OLD.id AND l.ended IS NULL
    FOR SHARE;
    IF NOT FOUND AND current_setting('transaction_isolation') <> 'read committed' THEN
        PERFORM lockstep_check_unseen_lease(OLD.id);
    END IF;
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

    -- The list's search text (V25: no longer a generated column, which PostgreSQL computed again in every UPDATE):
    -- computed when one of its columns changed, or when the writer set it; a save of a phone or a note leaves it.
    IF NEW.company IS DISTINCT FROM OLD.company OR NEW.contact_name IS DISTINCT FROM OLD.contact_name
            OR NEW.email IS DISTINCT FROM OLD.email OR NEW.city IS DISTINCT FROM OLD.city
            OR NEW.country IS DISTINCT FROM OLD.country OR NEW.search_text IS DISTINCT FROM OLD.search_text THEN
        NEW.search_text := customer_search_text(NEW.company, NEW.contact_name, NEW.email, NEW.city, NEW.country);
    END IF;
    -- The version, time and writer are the database's to write (V2, V9); the moment of the write, so that a save that
    -- waited for a row lock is stamped after the write it waited for.
    NEW.version := OLD.version + 1;
    NEW.updated_at := clock_timestamp();
    NEW.updated_by := lockstep_operator_name(current_setting('lockstep.user', true));
    -- The Updated order's entry (V24) moves with the stamp: found by its old key, the only index that table has. A row
    -- missing there (written while the triggers were disabled) is added; the list skips any entry whose time the
    -- customer no longer has.
    UPDATE customer_updated SET updated_at = NEW.updated_at WHERE updated_at = OLD.updated_at AND id = OLD.id;
    IF NOT FOUND THEN
        INSERT INTO customer_updated (updated_at, id) VALUES (NEW.updated_at, NEW.id) ON CONFLICT DO NOTHING;
    END IF;
    -- A restore names the earlier version it restores (V23). Only a version the customer's history holds with values —
    -- its creation or a save, never its deletion — may be named, whoever writes, and the new row must hold that
    -- version's values (lockstep_same_values): the history must not tell of a restore of a version that never existed,
    -- nor show an edit as "Restored version 4". Refused loudly, the whole statement undone: a Lockstep client names
    -- only versions it read from the history and saves their values, so anything else is a script's mistake (or a
    -- session-wide set_config left behind in psql). One probe of the history's (customer_id, version) index, on
    -- restores only.
    restored := nullif(current_setting('lockstep.restore', true), '')::bigint;
    IF restored IS NOT NULL THEN
        SELECT h.new_row INTO earlier FROM customer_history h
        WHERE h.customer_id = OLD.id AND h.version = restored AND h.op IN ('INSERT', 'UPDATE');
        IF NOT FOUND THEN
            RAISE EXCEPTION 'customer % has no version % to restore', OLD.id, restored
                USING ERRCODE = 'LS422', HINT = 'Name a version from the customer''s history; nothing was saved.';
        END IF;
        IF NOT lockstep_same_values(earlier, to_jsonb(NEW)) THEN
            RAISE EXCEPTION 'customer %: these values are not those of version %, so this save is no restore of it',
                    OLD.id, restored
                USING ERRCODE = 'LS422',
                      HINT = 'Save the values of version ' || restored || ', or save without lockstep.restore (an '
                             || 'ordinary change); nothing was saved.';
        END IF;
    END IF;
    -- The history row of this version (V16: the new row only), in the same statement: undone with it.
    INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row, request_id,
                                  restored_from)
    VALUES (NEW.id, NEW.version, 'UPDATE', NEW.updated_by, NEW.updated_at, to_jsonb(NEW) - 'search_text',
            nullif(current_setting('lockstep.request', true), '')::uuid, restored);
    RETURN NEW;
END $$;

-- A value of a customer's row (a history row's JSON) as a Lockstep save stores it (CustomerData.normalized): text in
-- NFC, its line breaks \n, without surrounding blanks, blank text absent; a number by value (12.5 = 12.50). It strips
-- every character Java's String.strip does and a few more (no-break spaces, U+FEFF), from both ends of every text:
-- two values that Lockstep stores alike always compare equal here, so the check below never refuses Lockstep's own
-- restore of values a script wrote unnormalised.
CREATE OR REPLACE FUNCTION lockstep_restore_value(v jsonb) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT CASE
        WHEN v IS NULL OR jsonb_typeof(v) = 'null' THEN NULL
        WHEN jsonb_typeof(v) = 'number' THEN trim_scale(v::numeric)::text
        WHEN jsonb_typeof(v) = 'string' THEN nullif(regexp_replace(
                replace(replace(CASE WHEN getdatabaseencoding() = 'UTF8' THEN normalize(v #>> '{}', NFC)
                                     ELSE v #>> '{}' END, E'\r\n', E'\n'), E'\r', E'\n'),
                '^[\s\u001C-\u001F\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]+'
                || '|[\s\u001C-\u001F\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]+$',
                '', 'g'), '')
        ELSE v::text END
$$;

-- Whether two rows of a customer (as JSON) hold the same values, their version, id, time, writer and search text
-- aside: what a restore's new row must share with the version it names (customer_before_write). A column that a
-- history row of an older schema lacks counts as absent.
CREATE OR REPLACE FUNCTION lockstep_same_values(a jsonb, b jsonb) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT coalesce(bool_and(lockstep_restore_value(a -> k) IS NOT DISTINCT FROM lockstep_restore_value(b -> k)), true)
    FROM (SELECT jsonb_object_keys(a) UNION SELECT jsonb_object_keys(b)) keys (k)
    WHERE k NOT IN ('id', 'version', 'updated_at', 'updated_by', 'search_text')
$$;

-- Whether a grant committed after this transaction's snapshot (see above): raises a serialization failure if so.
CREATE OR REPLACE FUNCTION lockstep_check_unseen_lease(p_id bigint) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
BEGIN
    INSERT INTO record_lease (record_id, holder, session_id, token, acquired_at, expires_at, ended)
    VALUES (p_id, '', '', 0, '-infinity', '-infinity', 'released')
    ON CONFLICT (record_id) DO NOTHING;
    RAISE SQLSTATE 'LS000'; -- undoes the probe's row
EXCEPTION
    WHEN SQLSTATE 'LS000' THEN
        RETURN;
    WHEN serialization_failure THEN
        RAISE EXCEPTION 'customer % was locked for editing after this transaction began', p_id
            USING ERRCODE = 'serialization_failure',
                  HINT = 'Run the transaction again: it will see the lock, and who holds it.';
END $$;

-- An operator's new customer takes its id from the sequence (see above). The row's default has just called
-- nextval in this session, so currval is its id; an explicit id is anything else.
CREATE OR REPLACE FUNCTION lockstep_check_new_id(p_id bigint) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
DECLARE
    drawn bigint;
BEGIN
    BEGIN
        drawn := currval(pg_get_serial_sequence('customer', 'id'));
    EXCEPTION WHEN object_not_in_prerequisite_state THEN
        drawn := NULL; -- no id drawn in this session yet
    END;
    -- currval is still a deleted customer's id after its deletion: that number belongs to its history.
    IF drawn IS DISTINCT FROM p_id OR EXISTS (SELECT 1 FROM customer_history h WHERE h.customer_id = p_id) THEN
        RAISE EXCEPTION 'a new customer''s number is given by the database, not chosen (%)', p_id
            USING ERRCODE = 'LS422', HINT = 'Leave out the id column; the database numbers the customer.';
    END IF;
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
        -- The Updated order's entries (V24), here rather than in the row trigger: an INSERT … ON CONFLICT DO NOTHING
        -- may skip a row after its BEFORE trigger ran, and this table holds only the rows inserted.
        INSERT INTO customer_updated (updated_at, id) SELECT n.updated_at, n.id FROM new_rows n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, old_row, request_id)
        SELECT o.id, o.version, 'DELETE', who, clock_timestamp(), to_jsonb(o) - 'search_text', request
        FROM old_rows o ORDER BY o.id;
        DELETE FROM customer_updated u USING old_rows o WHERE u.updated_at = o.updated_at AND u.id = o.id;
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
-- V25's stand-in for the search text, until this trigger computed it (above).
DROP TRIGGER IF EXISTS customer_search_text_interim ON customer;
DROP FUNCTION IF EXISTS customer_search_text_interim();
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

-- A TRUNCATE of the customers (the owner's; no operator may) empties the Updated order with them (V24).
CREATE OR REPLACE FUNCTION customer_after_truncate() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
BEGIN
    TRUNCATE customer_updated;
    RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS customer_after_truncate ON customer;
CREATE TRIGGER customer_after_truncate AFTER TRUNCATE ON customer
    FOR EACH STATEMENT EXECUTE FUNCTION customer_after_truncate();

-- The Updated order holds every customer's (updated_at, id) and nothing else: checked whenever these triggers are
-- replaced, under the lock CREATE TRIGGER took above (no customer is written until this script commits), so a write
-- committed while the triggers were being replaced (V24 fills the table in a transaction of its own) is caught here.
-- Two anti-joins: about a second for a million customers, and only when this file changes.
DELETE FROM customer_updated u
WHERE NOT EXISTS (SELECT 1 FROM customer c WHERE c.id = u.id AND c.updated_at = u.updated_at);
INSERT INTO customer_updated (updated_at, id)
SELECT c.updated_at, c.id FROM customer c
WHERE NOT EXISTS (SELECT 1 FROM customer_updated u WHERE u.updated_at = c.updated_at AND u.id = c.id);

-- Presence is shown under the name the database records for the login, never the one a client claims; the row is
-- the login's (V21), and lives at most five minutes past its last heartbeat (Lockstep's: 30 s), so that no row
-- outlives its client by more.
CREATE OR REPLACE FUNCTION presence_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.user_name := lockstep_operator_name(NEW.user_name);
    NEW.login := session_user;
    NEW.expires_at := least(NEW.expires_at, clock_timestamp() + interval '5 minutes');
    RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS presence_name ON presence;
CREATE TRIGGER presence_name BEFORE INSERT OR UPDATE ON presence FOR EACH ROW EXECUTE FUNCTION presence_name();
