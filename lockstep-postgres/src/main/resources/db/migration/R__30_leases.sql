-- Lock for editing (V3; issue 26): Fowler's Pessimistic Offline Lock as a lease with fencing tokens, changed only
-- through these functions, which run with the schema owner's rights: operators may read record_lease and lease_event
-- but not write them, so nobody hands themselves a lease or erases its audit. Each function is one statement — the
-- lease change and its audit entry together, through data-modifying CTEs (PostgreSQL docs, 7.8.4) — and reads the
-- database clock (clock_timestamp()) only once it holds the row it changes: a grant, renewal, release or break that
-- waited for a lock is judged by the moment it got it.
--
-- A lease is proven by its secret (p_secret), never by what others can read: the holder's name, its session (writer
-- id) and its token are shown to everyone (lease list, the editor's bar). The lease keeps the secret's SHA-256.
-- The holder recorded is lockstep_operator_name(p_user): the login, unless the login may name its operators.
--
-- The functions are PL/pgSQL, each one statement (RETURN QUERY): PostgreSQL plans a LANGUAGE sql function's body
-- anew at every call (before PostgreSQL 18), and PL/pgSQL keeps its plans for the session — an acquire and release
-- ran at half the rate as SQL functions (docs/benchmarks.md, issue 26).

-- What a grant or renewal may ask for, for every caller (Lockstep's own DurationRange.LEASE_TTL says the same before
-- it asks): a lease of at most 24 hours, so that a lock nobody renews is gone by the next day; and a secret of at
-- least 32 characters (Lockstep's are 43: LeaseSecrets), so that no lease can be proven by an empty or guessable one.
CREATE OR REPLACE FUNCTION lockstep_check_lease_terms(p_secret text, p_ttl_ms bigint) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF p_ttl_ms IS NULL OR p_ttl_ms < 0 OR p_ttl_ms > 86400000 THEN
        RAISE EXCEPTION 'a lock lasts from 0 to 24 hours, not % ms', p_ttl_ms
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_secret IS NULL OR length(p_secret) < 32 THEN
        RAISE EXCEPTION 'a lock''s secret has at least 32 characters'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN true;
END $$;

-- The grant first locks the customer's row FOR SHARE, which conflicts with the row lock every write takes first: a
-- grant waits for a save in flight to commit, and a save that comes later waits for the grant and then sees it. A
-- customer that does not exist gives no row to lock, and nothing is granted. In DO UPDATE the token and the clock are
-- taken after the lease row's lock is held: a grant starts after the previous holder's last renewal, release or
-- break, and its token is larger than every earlier grant's. Only a record's first grant draws its token in the
-- SELECT (it has no predecessor), which keeps tokens dense.
CREATE OR REPLACE FUNCTION lockstep_lease_acquire(p_id bigint, p_user text, p_session text, p_secret text,
                                                  p_ttl_ms bigint)
    RETURNS TABLE (token bigint, acquired_at timestamptz, expires_at timestamptz, remaining_ms bigint)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH target AS (
        SELECT c.id, lockstep_operator_name(p_user) AS holder FROM customer c
        WHERE c.id = p_id AND lockstep_check_lease_terms(p_secret, p_ttl_ms) FOR SHARE
    ), granted AS (
        INSERT INTO record_lease AS l (record_id, holder, session_id, token, acquired_at, expires_at, secret_hash)
        SELECT t.id, t.holder, p_session,
                CASE WHEN EXISTS (SELECT 1 FROM record_lease r WHERE r.record_id = p_id) THEN 0
                     ELSE nextval('lease_token_seq') END,
                clock_timestamp(), clock_timestamp() + make_interval(secs => p_ttl_ms / 1000.0),
                sha256(convert_to(p_secret, 'UTF8'))
        FROM target t
        ON CONFLICT (record_id) DO UPDATE
            SET holder = excluded.holder, session_id = excluded.session_id, secret_hash = excluded.secret_hash,
                token = nextval('lease_token_seq'),
                acquired_at = clock_timestamp(),
                expires_at = clock_timestamp() + make_interval(secs => p_ttl_ms / 1000.0),
                ended = NULL, previous_session = l.session_id, previous_token = l.token,
                previous_ended = l.ended
            -- Lapsed, or this very writer's (a second grant after a lost reply supersedes the first).
            WHERE l.expires_at <= clock_timestamp()
               OR (l.session_id = excluded.session_id AND l.secret_hash = excluded.secret_hash)
        RETURNING l.record_id, l.holder, l.token, l.acquired_at, l.expires_at, l.previous_session, l.previous_token,
                  l.previous_ended, (xmax <> 0) AS replaced
    ), superseded AS (
        -- This writer took a new token while its old one still ran: the old grant ends here.
        UPDATE lease_event e SET expires_at = g.acquired_at FROM granted g
        WHERE g.replaced AND e.record_id = g.record_id AND e.token = g.previous_token
          AND e.event IN ('acquired', 'expired_takeover') AND e.expires_at > g.acquired_at
    ), logged AS (
        INSERT INTO lease_event (record_id, token, holder, event, actor, at, expires_at)
        SELECT g.record_id, g.token, g.holder,
               CASE WHEN g.replaced AND g.previous_ended IS NULL AND g.previous_session <> p_session
                    THEN 'expired_takeover' ELSE 'acquired' END,
               g.holder, g.acquired_at, g.expires_at
        FROM granted g
    )
    SELECT g.token, g.acquired_at, g.expires_at,
           (extract(epoch FROM g.expires_at - clock_timestamp()) * 1000)::bigint
    FROM granted g;
END $$;

-- A renewal, release and break may wait for the lease's row (a save under the lease holds it FOR SHARE until it
-- commits). Each first takes the row lock (locked), then reads the clock (clock, computed from locked's row, so
-- only once the lock is granted), and judges and sets the expiry by that moment. A row changed meanwhile is re-read
-- by the UPDATE (EvalPlanQual), so a new token or an end is seen.
CREATE OR REPLACE FUNCTION lockstep_lease_renew(p_id bigint, p_token bigint, p_secret text, p_ttl_ms bigint)
    RETURNS TABLE (token bigint, acquired_at timestamptz, expires_at timestamptz, remaining_ms bigint)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH locked AS MATERIALIZED (
        SELECT r.record_id FROM record_lease r
        WHERE r.record_id = p_id AND r.token = p_token AND r.secret_hash = sha256(convert_to(p_secret, 'UTF8'))
          AND lockstep_check_lease_terms(p_secret, p_ttl_ms)
        FOR NO KEY UPDATE
    ), clock AS MATERIALIZED (
        SELECT clock_timestamp() AS now FROM locked
    ), renewed AS (
        UPDATE record_lease l SET expires_at = c.now + make_interval(secs => p_ttl_ms / 1000.0)
        FROM clock c
        WHERE l.record_id = p_id AND l.token = p_token AND l.secret_hash = sha256(convert_to(p_secret, 'UTF8'))
          AND l.ended IS NULL AND l.expires_at > c.now
        RETURNING l.token, l.acquired_at, l.expires_at
    ), logged AS (
        UPDATE lease_event e SET expires_at = r.expires_at FROM renewed r
        WHERE e.record_id = p_id AND e.token = r.token AND e.event IN ('acquired', 'expired_takeover')
    )
    SELECT r.token, r.acquired_at, r.expires_at, (extract(epoch FROM r.expires_at - clock_timestamp()) * 1000)::bigint
    FROM renewed r;
END $$;

-- Ends a grant early (release or break): the row stays, expired as of now, so that the next grant goes through the
-- row lock of INSERT … ON CONFLICT and starts after this end; the grant's event records the end. Not for callers:
-- lockstep_lease_release and lockstep_lease_break choose which grant may be ended, and by whom.
CREATE OR REPLACE FUNCTION lockstep_lease_end(p_id bigint, p_token bigint, p_secret_hash bytea, p_how text,
                                              p_actor text)
    RETURNS TABLE (record_id bigint, holder text, session_id text, token bigint, acquired_at timestamptz,
                   expires_at timestamptz)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH locked AS MATERIALIZED (
        SELECT r.record_id FROM record_lease r
        WHERE r.record_id = p_id AND (p_token IS NULL OR (r.token = p_token AND r.secret_hash = p_secret_hash))
        FOR NO KEY UPDATE
    ), clock AS MATERIALIZED (
        SELECT clock_timestamp() AS now FROM locked
    ), ended AS (
        UPDATE record_lease l SET expires_at = c.now, ended = p_how
        FROM clock c
        WHERE l.record_id = p_id AND l.ended IS NULL AND l.expires_at > c.now
          AND (p_token IS NULL OR (l.token = p_token AND l.secret_hash = p_secret_hash))
        RETURNING l.record_id, l.holder, l.session_id, l.token, l.acquired_at, l.expires_at
    ), logged AS (
        INSERT INTO lease_event (record_id, token, holder, event, actor, at)
        SELECT x.record_id, x.token, x.holder, p_how, p_actor, x.expires_at FROM ended x
    ), closed AS (
        UPDATE lease_event e SET expires_at = x.expires_at FROM ended x
        WHERE e.record_id = x.record_id AND e.token = x.token AND e.event IN ('acquired', 'expired_takeover')
    )
    SELECT x.record_id, x.holder, x.session_id, x.token, x.acquired_at, x.expires_at FROM ended x;
END $$;

-- The holder gives its lease up. Safe to repeat: true when this grant is (now or already) released.
CREATE OR REPLACE FUNCTION lockstep_lease_release(p_id bigint, p_token bigint, p_secret text)
    RETURNS boolean LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
DECLARE
    hash bytea := sha256(convert_to(p_secret, 'UTF8'));
    who  text;
BEGIN
    SELECT r.holder INTO who FROM record_lease r WHERE r.record_id = p_id AND r.token = p_token AND r.secret_hash = hash;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    PERFORM 1 FROM lockstep_lease_end(p_id, p_token, hash, 'released', who);
    RETURN EXISTS (SELECT 1 FROM record_lease r WHERE r.record_id = p_id AND r.token = p_token
                   AND r.secret_hash = hash AND r.ended = 'released');
END $$;

-- A supervisor ends anyone's lease, recorded as broken by them. Everyone else is refused, whatever they were granted.
CREATE OR REPLACE FUNCTION lockstep_lease_break(p_id bigint, p_user text)
    RETURNS TABLE (record_id bigint, holder text, session_id text, token bigint, acquired_at timestamptz,
                   expires_at timestamptz)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
BEGIN
    IF NOT lockstep_is_supervisor() THEN
        RAISE EXCEPTION 'only a supervisor can break a lock; % is not one', lockstep_operator_name(p_user)
            USING ERRCODE = 'LS403', HINT = 'Ask a supervisor to break it, or wait for the lock to end.';
    END IF;
    RETURN QUERY SELECT * FROM lockstep_lease_end(p_id, NULL, NULL, 'broken', lockstep_operator_name(p_user));
END $$;

-- The holder found its lease gone (broken, or taken over after it lapsed): recorded under the writer's own name,
-- for a grant that name held.
CREATE OR REPLACE FUNCTION lockstep_lease_lost(p_id bigint, p_token bigint, p_user text)
    RETURNS void LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
BEGIN
    INSERT INTO lease_event (record_id, token, holder, event, actor)
    SELECT p_id, p_token, n.name, 'lost', n.name
    FROM (SELECT lockstep_operator_name(p_user) AS name) n
    WHERE EXISTS (SELECT 1 FROM lease_event e WHERE e.record_id = p_id AND e.token = p_token AND e.holder = n.name
                  AND e.event IN ('acquired', 'expired_takeover'));
END $$;
