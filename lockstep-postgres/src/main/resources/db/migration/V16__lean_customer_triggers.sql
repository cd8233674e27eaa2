-- Saves near the database's limit, and bursts of changes (issue 13). Every feature of V2, V4 and V9 stays — a history
-- row per change with its writer, time and request id; a notification per change by any writer — but the work per
-- write shrinks (figures in docs/benchmarks.md, "The save path near the limit"):
--
-- 1. NOTIFY inside a writer's transaction serializes writers. At commit, a transaction that notified takes one
--    database-wide lock and holds it until its commit record is flushed to disk (PostgreSQL source, async.c,
--    PreCommit_Notify: "serialize writers … hold till after commit"), so concurrent saves can no longer share a disk
--    flush (group commit): 8 clients ran at 0.22 × a trigger-free UPDATE. Lockstep's own single-row writes now
--    announce themselves right after their commit, in a transaction of their own that writes nothing and need not
--    wait for the disk (JdbiCustomerRepository: lockstep.announce = 'client'). Every other writer — psql, a script —
--    is still announced by the trigger, as before.
-- 2. One trigger call per statement, not per row (statement-level triggers with transition tables, PostgreSQL docs,
--    CREATE TRIGGER): a statement that changes more than 50 customers (a COPY batch of `generate`, a psql UPDATE of
--    50,000 rows) sends ONE notification, op 'MANY' (id 0, version: how many rows), instead of one per row. Bulk
--    writers that change rows one statement at a time (import) set lockstep.announce = 'bulk' and send one 'MANY'
--    themselves (CustomerBulkStore).
-- 3. The history of an UPDATE keeps the new row only: its old row is the previous version's new row, which the
--    history already holds (JdbiHistoryRepository reads it with lag()). Rows written before V16 keep their old_row.
--    INSERT and DELETE rows are as before.

DROP TRIGGER customer_record_history ON customer;
DROP TRIGGER customer_notify ON customer;
DROP FUNCTION customer_record_history();
DROP FUNCTION customer_notify();

CREATE FUNCTION customer_history_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    who     text := coalesce(nullif(current_setting('lockstep.user', true), ''), session_user);
    request uuid := nullif(current_setting('lockstep.request', true), '')::uuid;
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row, request_id)
        SELECT n.id, n.version, 'INSERT', who, n.updated_at, to_jsonb(n), request FROM new_rows n ORDER BY n.id;
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row, request_id)
        SELECT n.id, n.version, 'UPDATE', who, n.updated_at, to_jsonb(n), request FROM new_rows n ORDER BY n.id;
    ELSE
        INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, old_row, request_id)
        SELECT o.id, o.version, 'DELETE', who, clock_timestamp(), to_jsonb(o), request FROM old_rows o ORDER BY o.id;
    END IF;
    RETURN NULL;
END $$;

-- Transition tables allow one event per trigger (PostgreSQL docs, CREATE TRIGGER), hence three of each.
CREATE TRIGGER customer_history_insert AFTER INSERT ON customer REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_history_rows();
CREATE TRIGGER customer_history_update AFTER UPDATE ON customer REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_history_rows();
CREATE TRIGGER customer_history_delete AFTER DELETE ON customer REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_history_rows();

COMMENT ON COLUMN customer_history.old_row IS
    'DELETE: the row deleted. UPDATE: NULL since V16 (the previous version''s new_row is the old row).';

-- The payload is V4's: identifiers only, never the row.
CREATE FUNCTION customer_announce() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    session   text := nullif(current_setting('lockstep.session', true), '');
    announced text[];
    changed   bigint;
BEGIN
    -- 'client': a single-row write of Lockstep, announced by its client after commit; 'bulk': announced at its end.
    IF current_setting('lockstep.announce', true) IN ('client', 'bulk') THEN
        RETURN NULL;
    END IF;
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

CREATE TRIGGER customer_announce_insert AFTER INSERT ON customer REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_announce();
CREATE TRIGGER customer_announce_update AFTER UPDATE ON customer REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_announce();
CREATE TRIGGER customer_announce_delete AFTER DELETE ON customer REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_announce();

-- The list's search for one or two letters or digits (issue 13). Trigrams cannot serve a substring shorter than
-- three characters, so `zq` or `mü` scanned the whole table (700–840 ms on a million customers). A short term of
-- letters or digits therefore means the start of a word — at the start of the search text or after a space, dot,
-- @, slash, underscore or hyphen — as an operator typing the first letters of a name or a place means it. pg_trgm
-- indexes every word's start as a padded trigram ("  m", " mu"; PostgreSQL docs, F.35 pg_trgm), so both patterns
-- below are served by the existing trigram index (customer_search_trgm, V13), with no new index and no write cost.
-- Terms of three characters or more, and short terms holding any other character, search substrings as before.
-- Both fold the term as V13 folds the row; LIKE's and the regular expression's special characters are escaped.
CREATE FUNCTION lockstep_word_start_pattern(term text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS
$$ SELECT replace(replace(replace(lockstep_fold(term), '!', '!!'), '%', '!%'), '_', '!_') || '%' $$;

CREATE FUNCTION lockstep_word_start_regex(term text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS
$$ SELECT '[ .@/_-]' || regexp_replace(lockstep_fold(term), '([^[:alnum:]])', '\\\1', 'g') $$;

COMMENT ON FUNCTION lockstep_word_start_pattern(text) IS
    'LIKE pattern (escape !) for search text that starts with the folded term; see lockstep_word_start_regex.';
COMMENT ON FUNCTION lockstep_word_start_regex(text) IS
    'Regular expression for a word inside the search text that starts with the folded term.';
