-- What Lockstep's groups may do in its database (issue 26). Run by `lockstep admin setup` and by the embedded server
-- at every start, as the schema's owner (or a superuser), after the migrations and once the groups exist
-- (org.lockstep.server.Roles creates them, and makes every supervisor an operator); running it again changes nothing. A test runs this file, never a copy.
--
--   lockstep_operators     every operator's login is a member: reads everything, writes customers (the triggers
--                          guard, stamp and audit every write), presence and the contention lab; writes the audit
--                          trail, leases and messages only through the owner's functions
--   lockstep_supervisors   also a member of lockstep_operators: may break another's lock
--   lockstep_shared_login  a login several operators share at one machine, whose client names the operator
--                          (the embedded server's application role); every other login is recorded as itself
--
-- Nothing here grants UPDATE or DELETE on the audit tables (customer_history, lease_event, conflict_event,
-- customer_conflict, client_request, message) or any write on record_lease, to anyone: `lockstep admin check`
-- reports it if someone did.

GRANT USAGE ON SCHEMA public TO lockstep_operators;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;

REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM lockstep_operators;
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM lockstep_supervisors;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO lockstep_operators;
GRANT INSERT, UPDATE, DELETE ON customer, presence, lab_stock, lab_lease TO lockstep_operators;
-- The conflict report's cache of settled counts (V18): anyone's report may fill it; a count removed is counted again.
GRANT INSERT, DELETE ON customer_save_count TO lockstep_operators;

REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM lockstep_operators;
GRANT USAGE ON SEQUENCE lab_lease_token_seq TO lockstep_operators;

-- The owner's functions: every lockstep_* function for operators, but ending a lease by force (supervisors) and the
-- end of a lease itself (only the owner's release and break call it).
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             WHERE p.pronamespace = current_schema()::regnamespace
               AND (p.proname LIKE 'lockstep\_%' OR p.proname = 'customer_search_text')
    LOOP
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC, lockstep_operators, lockstep_supervisors', f);
        IF f::text LIKE 'lockstep_lease_break(%' THEN
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO lockstep_supervisors', f);
        ELSIF f::text NOT LIKE 'lockstep_lease_end(%' THEN
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO lockstep_operators', f);
        END IF;
    END LOOP;
END $$;
