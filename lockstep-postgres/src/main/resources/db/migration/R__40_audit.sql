-- The audit trail is append-only for operators (issue 26): conflicts, conflict-report events, request ids and
-- messages are written only through these functions, which run with the schema owner's rights and record the
-- operator the database knows (lockstep_operator_name), never a name the caller types. Operators may read these
-- tables; they have no INSERT, UPDATE or DELETE on them. Each function purges what its table keeps no longer, as
-- the client's statements did before (ConflictLog.RETENTION: 400 days).

-- A save or delete met a newer version (V8, V17): counted only when it did (issue 27). p_version is the version the
-- write was based on; it is a conflict only when that version existed and the customer moved past it: 1 <= p_version
-- < the current version, or, for a customer since deleted, p_version <= the version its deletion removed (its
-- history's DELETE row) — an edit that met a delete is a real conflict. Every customer starts at version 1 and each
-- write raises it by exactly one (V2, R__20), so every version below those existed. A version above them never
-- existed, and an id no customer ever had meets no one: typing errors, not conflicts, so neither is counted,
-- whoever calls. Returns whether it counted. The four-argument form that counted whatever it was told is dropped, so
-- that no writer can count a conflict the database cannot check.
DROP FUNCTION IF EXISTS lockstep_record_conflict(bigint, text, text, text);
CREATE OR REPLACE FUNCTION lockstep_record_conflict(p_customer bigint, p_user text, p_kind text, p_session text,
                                                    p_version bigint)
    RETURNS boolean LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
    WITH purged AS (
        DELETE FROM customer_conflict WHERE id IN (SELECT id FROM customer_conflict
            WHERE detected_at < now() - interval '400 days' FOR UPDATE SKIP LOCKED)
    ), counted AS (
        INSERT INTO customer_conflict (customer_id, detected_by, kind, session_id)
        SELECT p_customer, lockstep_operator_name(p_user), p_kind, p_session
        WHERE p_version >= 1 AND (
               EXISTS (SELECT 1 FROM customer c WHERE c.id = p_customer AND p_version < c.version)
            OR EXISTS (SELECT 1 FROM customer_history h
                       WHERE h.customer_id = p_customer AND h.op = 'DELETE' AND p_version <= h.version
                         AND NOT EXISTS (SELECT 1 FROM customer c WHERE c.id = p_customer)))
        RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM counted)
$$;

-- A merge saved or abandoned, a lease wait, a lab's exhausted retries (V17). Each call is one event, counted once,
-- but a lab run's, which counts its purchases given up — at most 10,000 (ContentionLab records more as several
-- events) and on no customer; the operator is the one the database knows, so whatever an operator records is recorded
-- as theirs, and a lab count is no more than one run could give.
CREATE OR REPLACE FUNCTION lockstep_record_event(p_kind text, p_customer bigint, p_user text, p_session text,
                                                 p_version bigint, p_detail text, p_count integer)
    RETURNS void LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
BEGIN
    IF p_count IS NULL OR p_count < 1 OR (p_kind IS DISTINCT FROM 'lab_retries_exhausted' AND p_count <> 1)
            OR p_count > 10000 OR (p_kind = 'lab_retries_exhausted' AND p_customer IS NOT NULL) THEN
        RAISE EXCEPTION 'an event of kind % counts 1 (a lab run: 1 to 10,000, on no customer), not %', p_kind,
                p_count
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    DELETE FROM conflict_event WHERE id IN (SELECT id FROM conflict_event
        WHERE happened_at < now() - interval '400 days' FOR UPDATE SKIP LOCKED);
    INSERT INTO conflict_event (kind, customer_id, operator, session_id, version, detail, count)
    VALUES (p_kind, p_customer, lockstep_operator_name(p_user), p_session, p_version, p_detail, p_count);
END $$;

-- A create's or an import's request id (V9). A second attempt collides on the primary key (client_request_pkey),
-- waiting for the first if it still runs, so the write happens once.
CREATE OR REPLACE FUNCTION lockstep_claim_request(p_request uuid, p_kind text, p_customer bigint, p_detail jsonb)
    RETURNS boolean LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
    INSERT INTO client_request (request_id, kind, customer_id, detail) VALUES (p_request, p_kind, p_customer, p_detail)
    RETURNING true
$$;

-- After a lost connection, claims an import's request id: true when this call inserted it (the import did not
-- commit, and now never will), false when it was there (the import committed).
CREATE OR REPLACE FUNCTION lockstep_fence_request(p_request uuid, p_kind text)
    RETURNS boolean LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
    WITH claimed AS (
        INSERT INTO client_request (request_id, kind) VALUES (p_request, p_kind)
        ON CONFLICT (request_id) DO NOTHING RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM claimed)
$$;

-- A message from this operator (V7): to one session (a lock's holder), or to every supervisor ("Ask a supervisor…").
CREATE OR REPLACE FUNCTION lockstep_send_message(p_user text, p_from_session text, p_to_session text,
                                                 p_customer bigint, p_text text)
    RETURNS SETOF message LANGUAGE sql VOLATILE SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
    INSERT INTO message (from_user, from_session, to_session, to_supervisors, customer_id, text)
    VALUES (lockstep_operator_name(p_user), p_from_session, p_to_session, p_to_session IS NULL, p_customer, p_text)
    RETURNING *
$$;

-- The message's notification says whether it is for the supervisors (V7's payload, op 'SUPERVISORS').
CREATE OR REPLACE FUNCTION message_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('lockstep', json_build_object(
        'table', 'message', 'id', NEW.customer_id, 'version', NEW.id,
        'op', CASE WHEN NEW.to_supervisors THEN 'SUPERVISORS' ELSE TG_OP END,
        'session', NEW.from_session)::text);
    RETURN NULL;
END $$;

-- The conflict report's saves per settled quarter-hour (V18, store/SaveCounts): counted here, from the history, and
-- nowhere else, so that no operator can store a count of their own. Settled means ended a day ago by the database
-- clock (SaveCounts.SETTLE); at most seven days per call (SaveCounts.CHUNK_DAYS), on quarter-hour bounds. A
-- quarter-hour another report counted meanwhile is left as it is. Under V18's advisory lock, as the invalidating
-- triggers: a count and a purge of its rows never interleave. Answers how many quarter-hours it counted.
CREATE OR REPLACE FUNCTION lockstep_count_saves(p_from timestamptz, p_to timestamptz)
    RETURNS integer LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
DECLARE
    origin  constant timestamptz := timestamptz '2000-01-01 00:00+00';
    counted integer;
BEGIN
    IF p_from IS NULL OR p_to IS NULL OR date_bin('15 minutes', p_from, origin) <> p_from
            OR date_bin('15 minutes', p_to, origin) <> p_to OR p_to <= p_from
            OR p_to - p_from > interval '7 days' OR p_to > now() - interval '1 day' THEN
        RAISE EXCEPTION 'saves are counted for settled quarter-hours, at most seven days at a time (% to %)',
                p_from, p_to USING ERRCODE = 'invalid_parameter_value';
    END IF;
    PERFORM pg_advisory_xact_lock('customer_save_count'::regclass::oid::int, 0);
    IF (SELECT count(*) FROM customer_save_count WHERE period >= p_from AND period < p_to)
            = extract(epoch FROM p_to - p_from) / 900 THEN
        RETURN 0; -- another report counted them while this one waited for the lock
    END IF;
    INSERT INTO customer_save_count (period, saves)
    SELECT p, coalesce(c.n, 0)
    FROM generate_series(p_from, p_to - interval '15 minutes', interval '15 minutes') p
    LEFT JOIN (SELECT date_bin('15 minutes', changed_at, origin) AS q, count(*) AS n FROM customer_history
               WHERE op = 'UPDATE' AND changed_at >= p_from AND changed_at < p_to GROUP BY 1) c ON c.q = p
    ON CONFLICT (period) DO NOTHING;
    GET DIAGNOSTICS counted = ROW_COUNT;
    RETURN counted;
END $$;
