-- Fast at scale (issue 13): the list's search reads a stored, folded copy of each customer's searchable text, and a
-- write of a customer costs less of the database's time. Figures in docs/benchmarks.md, "Issue 13 on a quiet
-- machine".
--
-- 1. The search text is stored. Until now every search evaluated customer_search_text(...) — unaccent, lower case,
--    final sigma (V13) over five columns — for every row it looked at: each row a walk along the sort order passed,
--    each candidate the trigram index returned, each row a count scanned, about 2 µs a row. On a million customers a
--    walk past 40,000 rows that do not match ("müller" by company) cost 80 ms in the fold alone. A stored generated
--    column (PostgreSQL docs, 5.4 "Generated Columns") is computed once per write, by the database, with the very
--    function the index used, so the row's text and the typed term are still folded by one function in SQL and can
--    never disagree; every writer, psql included, keeps it current, and none can set it. About 100 bytes a row.
--
-- 2. The fold is written in PL/pgSQL. As an SQL function it could not be inlined (unaccent() is only STABLE), so
--    PostgreSQL planned its body again in every statement that called it — each INSERT and UPDATE of a customer once
--    the generated column calls it: 0.1 ms of a 0.47 ms one-row UPDATE (pgbench). A PL/pgSQL function keeps its plan
--    for the session: the generated column then costs a write nothing measurable. Same text in, same text out.
--
-- 3. A Lockstep save is ONE statement. Its guard — no other session's unexpired lease on the row, or the writer's own
--    unexpired lease and token (fencing) — moves from the statement (and the row-lock statement sent before it) into
--    the row's BEFORE trigger, which PostgreSQL calls once it holds the row's lock: ExecBRUpdateTriggers locks the
--    row first (GetTupleForTrigger, waiting for a concurrent locker, bounded by lock_timeout) and re-checks the
--    statement's conditions on its newest version (EvalPlanQual; PostgreSQL docs, 13.2.1 Read Committed). The
--    trigger's queries each take a new snapshot (a volatile function's do, under Read Committed), so a lease granted
--    while the save waited for the row is seen and refuses it, exactly as the row-lock statement before it made sure.
--    The writer names its guard for the transaction (set_config(..., true)): lockstep.guard 'unleased' or 'fenced'
--    (with lockstep.token); a writer that names none (psql, a script) is not checked, as before.
--    The same trigger stamps the version and the time, as before, and writes an UPDATE's history row — one call per
--    row where a save's row took three trigger calls (stamp, history, notification) and a row-lock statement. A
--    creation's and a deletion's history stay with the statement-level trigger (creations come by thousands).
--    Measured with pgbench, one client, a million customers: 0.61 ms → 0.57 ms per save.
--
-- 4. The statement-level trigger writes a creation's or deletion's history and every writer's notification but
--    Lockstep's own (V16's two functions in one).
--
-- This migration rewrites the customer table and builds its trigram index again: about 45 s for a million
-- customers, during which other clients wait (Database.MIGRATION_LOCK_TIMEOUT_MS bounds how long it waits for them).

-- Functions used by an index or a generated column are run with a safe search_path (only pg_catalog) during
-- maintenance (PostgreSQL 17 release notes): every name they use is schema-qualified, as in V13.
DO $$
DECLARE
    ext  text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'unaccent');
    here text := current_schema();
BEGIN
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION %1$I.lockstep_fold(t text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
            STRICT AS
        $body$ BEGIN RETURN pg_catalog.translate(pg_catalog.lower(%2$I.unaccent(%3$L::regdictionary, t)), 'ς', 'σ');
        END $body$
        $f$, here, ext, ext || '.unaccent');
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION %1$I.customer_search_text(company text, contact_name text, email text, city text,
                                                             country text)
            RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS
        $body$ BEGIN RETURN %1$I.lockstep_fold(coalesce(company, '') || ' ' || coalesce(contact_name, '') || ' '
                      || coalesce(email, '') || ' ' || coalesce(city, '') || ' ' || coalesce(country, ''));
        END $body$
        $f$, here);
END $$;

-- The expression index goes first: adding the column rewrites the table and would build it again for nothing.
DROP INDEX customer_search_trgm;

ALTER TABLE customer ADD COLUMN search_text text
    GENERATED ALWAYS AS (customer_search_text(company, contact_name, email, city, country)) STORED;

COMMENT ON COLUMN customer.search_text IS
    'The list''s search text: company, contact, email, city and country folded by lockstep_fold (V13). Generated.';

-- The same trigram index as V13's, on the stored column: LIKE '%term%' and the word-start patterns of V16.
CREATE INDEX customer_search_trgm ON customer USING gin (search_text gin_trgm_ops);

-- As in V1 and V13: enough samples for the planner to estimate rare search terms well (the list chooses its plan from
-- the planner's estimate of how many customers match, store/CustomerListQuery).
ALTER TABLE customer ALTER COLUMN search_text SET STATISTICS 1000;

-- The row's BEFORE trigger: guard, stamp, and an UPDATE's history row (3. above). V2/V9's customer_stamp goes.
DROP TRIGGER customer_stamp ON customer;
DROP FUNCTION customer_stamp();

CREATE FUNCTION customer_before_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    guard  text;
    expiry timestamptz;
    holder text;
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW.version := 1;
        NEW.updated_at := clock_timestamp();
        NEW.updated_by := coalesce(nullif(current_setting('lockstep.user', true), ''), session_user);
        RETURN NEW;
    END IF;

    -- The writer's guard, now that this session holds the row's lock. Skipping the row (RETURN NULL) makes the
    -- statement match zero rows; the writer then reads why (JdbiCustomerRepository).
    guard := current_setting('lockstep.guard', true);
    IF guard = 'unleased' THEN
        -- No other session holds an unexpired lease on the row, by the database clock at this moment. FOR SHARE waits
        -- for a renewal (or an end) of the lease in progress, which holds the lease's row: a renewal that checked the
        -- lease was still running just before it expired, and commits just after, keeps it running without a gap,
        -- so this write must see the expiry it commits, not the one before. The expiry is compared once that lock
        -- is held. (A grant or takeover waits for the customer's row, which this write holds.)
        SELECT l.expires_at, l.session_id INTO expiry, holder FROM record_lease l WHERE l.record_id = OLD.id
        FOR SHARE;
        IF FOUND AND expiry > clock_timestamp() AND holder <> current_setting('lockstep.session') THEN
            RETURN NULL;
        END IF;
    ELSIF guard = 'fenced' THEN
        -- The writer's session holds the row's unexpired lease with its token: a token is not a password (lock
        -- listings show it), so another client that learns it still cannot write under it. FOR SHARE serializes
        -- the write with a concurrent takeover or end of the lease; the expiry is compared once that lock is held,
        -- so a write that waited while the lease lapsed is refused, not written under a lease that has ended.
        SELECT expires_at INTO expiry FROM record_lease
        WHERE record_id = OLD.id AND token = current_setting('lockstep.token')::bigint
          AND session_id = current_setting('lockstep.session') AND ended IS NULL
        FOR SHARE;
        IF NOT FOUND OR expiry <= clock_timestamp() THEN
            RETURN NULL;
        END IF;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;

    -- The version, time and writer are the database's to write, whoever the writer (V2, V9); times are the moment
    -- of the write (clock_timestamp()), so a save that waited for a row lock is stamped after the write it waited for.
    NEW.version := OLD.version + 1;
    NEW.updated_at := clock_timestamp();
    NEW.updated_by := coalesce(nullif(current_setting('lockstep.user', true), ''), session_user);
    -- The history row of this version (V16: the new row only), without the generated search text. Written here, in
    -- the same statement as the row: if the row is refused after all (a CHECK, a unique key), both are undone.
    INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row, request_id)
    VALUES (NEW.id, NEW.version, 'UPDATE', NEW.updated_by, NEW.updated_at, to_jsonb(NEW) - 'search_text',
            nullif(current_setting('lockstep.request', true), '')::uuid);
    RETURN NEW;
END $$;

CREATE TRIGGER customer_before_write BEFORE INSERT OR UPDATE OR DELETE ON customer
    FOR EACH ROW EXECUTE FUNCTION customer_before_write();

-- The statement-level trigger: a creation's and a deletion's history, and notifications (4. above).
DROP TRIGGER customer_history_insert ON customer;
DROP TRIGGER customer_history_update ON customer;
DROP TRIGGER customer_history_delete ON customer;
DROP TRIGGER customer_announce_insert ON customer;
DROP TRIGGER customer_announce_update ON customer;
DROP TRIGGER customer_announce_delete ON customer;
DROP FUNCTION customer_history_rows();
DROP FUNCTION customer_announce();

CREATE FUNCTION customer_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    who       text := coalesce(nullif(current_setting('lockstep.user', true), ''), session_user);
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

    -- The notification, V4's payload: identifiers only. 'client': a single-row write of Lockstep, announced by its
    -- client after commit (store/Announcer); 'bulk': announced by the writer at its end (one MANY).
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

-- Transition tables allow one event per trigger (PostgreSQL docs, CREATE TRIGGER), hence three. An update by a
-- Lockstep save has nothing left for it to do: its WHEN, evaluated without calling the function, skips it.
CREATE TRIGGER customer_after_insert AFTER INSERT ON customer REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_after_write();
CREATE TRIGGER customer_after_update AFTER UPDATE ON customer REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT WHEN (coalesce(current_setting('lockstep.announce', true), '') NOT IN ('client', 'bulk'))
    EXECUTE FUNCTION customer_after_write();
CREATE TRIGGER customer_after_delete AFTER DELETE ON customer REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_after_write();

-- The planner's estimate of how many rows a query returns: EXPLAIN's, a plan and no scan (PostgreSQL docs, 14.1
-- "Using EXPLAIN"). The list asks it for a search (with the term as a literal, so the estimate is for that term) to
-- choose between walking the sort order and collecting the matches first, and to say "about 12,300 match" where it
-- stopped counting. Runs with the caller's rights, like any statement of the caller's.
CREATE FUNCTION lockstep_plan_rows(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
    RETURN round((plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric);
END $$;

ANALYZE customer;
