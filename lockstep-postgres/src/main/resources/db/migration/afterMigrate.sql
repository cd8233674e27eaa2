-- What Lockstep's groups may do in its database (issue 26). Flyway runs this callback after every migrate, so each
-- function or table a migration adds is granted (or kept from the operators) in the same start that created it; it
-- acts only for the schema's owner (or a superuser) and only once the groups exist (the embedded server makes them,
-- docs/admin/team-roles.sql on a team server), and running it again changes nothing. Functions are executable by
-- PUBLIC when created (PostgreSQL docs, "Privileges"), which is why every one is revoked and granted here.
--
--   lockstep_operators     every operator's login is a member: reads everything, writes customers (the triggers
--                          guard, stamp and audit every write), presence and the contention lab; writes the audit
--                          trail, leases and messages only through the owner's functions
--   lockstep_supervisors   also a member of lockstep_operators: may break another's lock
--   lockstep_shared_login  a login several operators share at one machine, whose client names the operator
--                          (the embedded server's application role); every other login is recorded as itself
--
-- The audit trail (customer_history, lease_event, conflict_event, customer_conflict, client_request, message), the
-- leases (record_lease), the conflict report's counts (customer_save_count, lockstep_count_saves) and the migrations'
-- history are written only by the owner's code. Every privilege on the schema's tables, columns, sequences and
-- functions that Lockstep does not grant — by hand, or by an older Lockstep's team-grants.sql and its default
-- privileges, to a group or to one login — is revoked here, at every start of a new version as at the first
-- (TRIGGER on an audit table, for one, would run an operator's code inside the owner's functions, as the owner).
-- Memberships of predefined roles (pg_write_all_data …) are the server's, not the owner's to take back:
-- lockstep admin check names them.

DO $$
DECLARE
    f regprocedure;
    g record;
BEGIN
    IF pg_catalog.to_regrole('lockstep_operators') IS NULL OR pg_catalog.to_regrole('lockstep_supervisors') IS NULL
            OR NOT lockstep_is_owner() THEN
        RETURN;
    END IF;
    -- Clients starting together each run this callback (Flyway's own lock ends with the migrations): one at a time,
    -- or their GRANTs meet on the same catalog rows ("tuple concurrently updated"). Held until this statement ends.
    PERFORM pg_advisory_xact_lock(hashtext('lockstep afterMigrate grants'));
    -- Nothing to do when everything is already as granted below: the usual start changes no catalog row.
    IF NOT EXISTS (SELECT 1 FROM lockstep_unexpected_grants()) AND NOT EXISTS (
            SELECT 1 FROM pg_proc p
            WHERE p.pronamespace = current_schema()::regnamespace
              AND (p.proname LIKE 'lockstep\_%' OR p.proname = 'customer_search_text')
              AND (p.proacl IS NULL
                   OR EXISTS (SELECT 1 FROM aclexplode(p.proacl) a WHERE a.grantee = 0)
                   OR EXISTS (SELECT 1 FROM aclexplode(p.proacl) a
                              WHERE a.grantee NOT IN (p.proowner, 'lockstep_operators'::regrole,
                                                      'lockstep_supervisors'::regrole))
                   OR (p.proname NOT IN ('lockstep_lease_end', 'lockstep_lease_break')
                       AND NOT has_function_privilege('lockstep_operators', p.oid, 'EXECUTE'))
                   OR (p.proname = 'lockstep_lease_break'
                       AND NOT has_function_privilege('lockstep_supervisors', p.oid, 'EXECUTE'))
                   OR (p.proname IN ('lockstep_lease_end', 'lockstep_lease_break')
                       AND EXISTS (SELECT 1 FROM aclexplode(p.proacl) a
                                   WHERE a.grantee = 'lockstep_operators'::regrole)))
            UNION ALL
            SELECT 1 FROM pg_class c
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
              AND (NOT has_table_privilege('lockstep_operators', c.oid, 'SELECT')
                   OR c.relacl IS NULL
                   OR EXISTS (SELECT 1 FROM aclexplode(c.relacl) a WHERE a.grantee = 0)
                   OR (c.relname = 'customer' AND CASE WHEN current_setting('server_version_num')::int >= 170000
                       THEN NOT has_table_privilege('lockstep_operators', c.oid, 'MAINTAIN') ELSE false END)
                   OR (c.relname IN ('customer', 'presence', 'lab_stock', 'lab_lease')
                       AND NOT (has_table_privilege('lockstep_operators', c.oid, 'INSERT')
                                AND has_table_privilege('lockstep_operators', c.oid, 'UPDATE')
                                AND has_table_privilege('lockstep_operators', c.oid, 'DELETE')))
                   )
            UNION ALL
            SELECT 1 WHERE NOT has_schema_privilege('lockstep_operators', current_schema(), 'USAGE')
            UNION ALL
            SELECT 1 WHERE NOT has_sequence_privilege('lockstep_operators', 'lab_lease_token_seq', 'USAGE')) THEN
        RETURN;
    END IF;
    EXECUTE 'GRANT USAGE ON SCHEMA public TO lockstep_operators';
    EXECUTE 'REVOKE CREATE ON SCHEMA public FROM PUBLIC';
    EXECUTE 'REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC';
    EXECUTE 'REVOKE ALL ON ALL TABLES IN SCHEMA public FROM lockstep_operators';
    EXECUTE 'REVOKE ALL ON ALL TABLES IN SCHEMA public FROM lockstep_supervisors';
    EXECUTE 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO lockstep_operators';
    EXECUTE 'GRANT INSERT, UPDATE, DELETE ON customer, presence, lab_stock, lab_lease TO lockstep_operators';
    -- A bulk load's ANALYZE and VACUUM (CustomerBulkLoader) need the owner, or, from PostgreSQL 17, MAINTAIN.
    IF current_setting('server_version_num')::int >= 170000 THEN
        EXECUTE 'GRANT MAINTAIN ON customer TO lockstep_operators';
    END IF;
    EXECUTE 'REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC';
    EXECUTE 'REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM lockstep_operators';
    EXECUTE 'GRANT USAGE ON SEQUENCE lab_lease_token_seq TO lockstep_operators';
    -- Whatever else anyone but the owner holds on a table, a column or a sequence — granted by hand, or by an older
    -- Lockstep — is taken back: TRIGGER on an audit table would run an operator's code inside the owner's functions,
    -- as the owner; UPDATE on a sequence chooses ids or tokens; TRUNCATE, REFERENCES, a column's UPDATE …
    FOR g IN SELECT * FROM lockstep_unexpected_grants()
    LOOP
        EXECUTE format('REVOKE %s %s ON %s %s FROM %s', g.privilege,
                       CASE WHEN g.col IS NULL THEN '' ELSE '(' || quote_ident(g.col) || ')' END,
                       CASE WHEN g.is_sequence THEN 'SEQUENCE' ELSE 'TABLE' END, g.rel,
                       CASE WHEN g.grantee = 0 THEN 'PUBLIC' ELSE g.grantee::regrole::text END);
    END LOOP;
    -- The owner's functions: every lockstep_* function for operators, but ending a lease by force (supervisors) and the
    -- end of a lease itself (only the owner's release and break call it).
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             WHERE p.pronamespace = current_schema()::regnamespace
               AND (p.proname LIKE 'lockstep\_%' OR p.proname = 'customer_search_text')
    LOOP
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC, lockstep_operators, lockstep_supervisors', f);
        -- And from anyone granted it by hand (GRANT EXECUTE ON lockstep_lease_break … TO alice): the groups decide.
        FOR g IN SELECT DISTINCT a.grantee::regrole AS who FROM pg_proc p, aclexplode(p.proacl) a
                 WHERE p.oid = f AND a.grantee <> 0 AND a.grantee <> p.proowner
                   AND a.grantee NOT IN ('lockstep_operators'::regrole, 'lockstep_supervisors'::regrole)
        LOOP
            EXECUTE format('REVOKE ALL ON FUNCTION %s FROM %s', f, g.who);
        END LOOP;
        IF f::text LIKE 'lockstep_lease_break(%' THEN
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO lockstep_supervisors', f);
        ELSIF f::text NOT LIKE 'lockstep_lease_end(%' THEN
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO lockstep_operators', f);
        END IF;
    END LOOP;
END $$;
