-- The write protocol (issue 26): what a writer tells the database about itself, named in one place. Java's
-- org.lockstep.store.WriteProtocol names the same settings; every Lockstep write calls lockstep_write() once, in its
-- own statement's WHERE clause (so the settings hold for that statement's transaction, as SET LOCAL would):
--
--   lockstep.user     the operator's name as the client knows it; recorded only where the login may name its
--                     operators (lockstep_operator_name), else the login is recorded
--   lockstep.session  the writer id (editing.WriterIds): carried in change notifications, never trusted for a lease
--   lockstep.request  the write's request id, kept beside the version it makes (ADR 0009)
--   lockstep.guard    'unleased' (another's live lease skips the row: zero rows, the client reads why) or 'fenced'
--                     (the writer's own lease, by token and secret); empty: another's live lease raises an error
--                     naming it — psql, scripts, reports, older clients
--   lockstep.token    the fencing token of a 'fenced' write
--   lockstep.secret   the lease secret: proves the writer holds the live lease (its SHA-256 is the lease's)
--   lockstep.announce 'client' or 'bulk': the writer announces its change itself (V16)
--   lockstep.restore  the earlier version whose values this save restores (V23): the history keeps it beside the
--                     version made, once the trigger found that version in the customer's history
--
-- This file is a repeatable migration: it holds the current code, whole, and runs again whenever it changes.
-- Functions that run with the owner's rights (SECURITY DEFINER) fix their search_path, with pg_temp last, so that
-- no caller's object can stand in for one of ours (PostgreSQL docs, CREATE FUNCTION, "Writing SECURITY DEFINER
-- Functions Safely").

-- NULL leaves a setting as it was in this transaction (a bulk writer names itself once, then announces 'bulk').
-- p_restore came with V23, as a last argument that defaults to none, so that a client of before still calls the same
-- function with seven; the seven-argument form is replaced, not kept beside it (a call of seven would be ambiguous).
-- A SQL function of one expression, which PostgreSQL inlines into the statement that calls it (PostgreSQL docs, 38.5
-- "Query Language (SQL) Functions"; wiki "Inlining of SQL functions"): the settings are set by the statement's own
-- expression, with no function call of their own. As a PL/pgSQL function with eight PERFORMs (issue 26) it cost a save
-- 15 µs more (issue 29, docs/benchmarks.md). The expression is always true.
DROP FUNCTION IF EXISTS lockstep_write(text, text, text, text, bigint, text, text);
CREATE OR REPLACE FUNCTION lockstep_write(p_user text, p_session text, p_request text, p_guard text, p_token bigint,
                                          p_secret text, p_announce text, p_restore bigint DEFAULT NULL)
    RETURNS boolean LANGUAGE sql VOLATILE AS $$
    SELECT pg_catalog.num_nonnulls(
        CASE WHEN p_user IS NOT NULL THEN pg_catalog.set_config('lockstep.user', p_user, true) END,
        CASE WHEN p_session IS NOT NULL THEN pg_catalog.set_config('lockstep.session', p_session, true) END,
        CASE WHEN p_request IS NOT NULL THEN pg_catalog.set_config('lockstep.request', p_request, true) END,
        CASE WHEN p_guard IS NOT NULL THEN pg_catalog.set_config('lockstep.guard', p_guard, true) END,
        CASE WHEN p_token IS NOT NULL THEN pg_catalog.set_config('lockstep.token', p_token::text, true) END,
        CASE WHEN p_secret IS NOT NULL THEN pg_catalog.set_config('lockstep.secret', p_secret, true) END,
        CASE WHEN p_announce IS NOT NULL THEN pg_catalog.set_config('lockstep.announce', p_announce, true) END,
        CASE WHEN p_restore IS NOT NULL THEN pg_catalog.set_config('lockstep.restore', p_restore::text, true) END
    ) >= 0
$$;

-- Whether the login is the schema's owner (or a member of it) or a superuser. The owner is already trusted with every
-- table it owns: a role nobody logs in as on the embedded server (lockstep_owner, whose superuser migrates as it); on
-- a team server the administrator's. SECURITY DEFINER makes current_user the
-- owner of this function — the schema's owner — whatever the caller's search_path. A superuser is a member of every
-- role (PostgreSQL docs, pg_has_role; acl.c is_member_of_role), so one call answers both; it runs on every write,
-- and a query of pg_roles here cost a save 10 µs more (docs/benchmarks.md, issue 26). PL/pgSQL, whose plan a session
-- keeps: a SQL function that cannot be inlined (as SECURITY DEFINER) is parsed and planned again in every statement
-- that calls it, 11 µs of every save (issue 29).
CREATE OR REPLACE FUNCTION lockstep_is_owner() RETURNS boolean LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RETURN pg_catalog.pg_has_role(session_user, current_user, 'MEMBER');
END $$;

-- Whether this login may name the operator it writes for: a member of lockstep_shared_login (a login several
-- operators share at one machine, as the embedded server's is), or the owner. Everyone else is the login they signed
-- in as (session_user: unchanged by SECURITY DEFINER and by SET ROLE). The shared login is asked first: it is one
-- inlined call, where the owner's is a call as the owner (issue 29).
CREATE OR REPLACE FUNCTION lockstep_names_by_client() RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT coalesce(pg_catalog.pg_has_role(session_user, pg_catalog.to_regrole('lockstep_shared_login'), 'MEMBER'),
                    false)
        OR lockstep_is_owner()
$$;

-- The operator a write is recorded as: the name the client gives where the login may name it, else the login.
CREATE OR REPLACE FUNCTION lockstep_operator_name(claimed text) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN nullif(claimed, '') IS NOT NULL AND lockstep_names_by_client() THEN claimed
                ELSE session_user::text END
$$;

-- Who breaks locks: the owner, or a member of lockstep_supervisors (Salesforce's, FileMaker's privilege sets).
CREATE OR REPLACE FUNCTION lockstep_is_supervisor() RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT lockstep_is_owner()
        OR coalesce(pg_catalog.pg_has_role(session_user, pg_catalog.to_regrole('lockstep_supervisors'), 'MEMBER'),
                    false)
$$;

-- What the client shows as itself: the name it is recorded as, and whether it may break locks.
CREATE OR REPLACE FUNCTION lockstep_whoami(claimed text)
    RETURNS TABLE (operator text, supervisor boolean, named_by_client boolean) LANGUAGE sql STABLE AS $$
    SELECT lockstep_operator_name(claimed), lockstep_is_supervisor(), lockstep_names_by_client()
$$;

-- Every privilege on a table, view, sequence or column of the schema that someone other than its owner holds and
-- Lockstep does not grant: the operators' SELECT on tables, INSERT, UPDATE and DELETE on customer, presence and the
-- lab's tables, MAINTAIN on customer, USAGE on the lab's token sequence — nothing else, to nobody else. The one
-- statement of that rule: afterMigrate.sql takes these back, lockstep admin check (PrivilegeCheck) names them.
CREATE OR REPLACE FUNCTION lockstep_unexpected_grants()
    RETURNS TABLE (rel regclass, col name, grantee oid, privilege text, is_sequence boolean)
    LANGUAGE sql STABLE AS $$
    SELECT c.oid::regclass, NULL::name, a.grantee, a.privilege_type, c.relkind = 'S'
    FROM pg_catalog.pg_class c, pg_catalog.aclexplode(c.relacl) a
    WHERE c.relnamespace = pg_catalog.current_schema()::regnamespace AND a.grantee <> c.relowner
      AND NOT (a.grantee = pg_catalog.to_regrole('lockstep_operators') AND (
              (c.relkind <> 'S' AND a.privilege_type = 'SELECT')
           OR (c.relname IN ('customer', 'presence', 'lab_stock', 'lab_lease')
               AND a.privilege_type IN ('INSERT', 'UPDATE', 'DELETE'))
           OR (c.relname = 'customer' AND a.privilege_type = 'MAINTAIN')
           OR (c.relname = 'lab_lease_token_seq' AND a.privilege_type = 'USAGE')))
  UNION ALL
    SELECT c.oid::regclass, t.attname, a.grantee, a.privilege_type, false
    FROM pg_catalog.pg_class c JOIN pg_catalog.pg_attribute t ON t.attrelid = c.oid,
         pg_catalog.aclexplode(t.attacl) a
    WHERE c.relnamespace = pg_catalog.current_schema()::regnamespace AND a.grantee <> c.relowner
$$;
