-- Lockstep on a shared PostgreSQL, step 2 of 2: what the operators' role may do to the tables, once Lockstep has
-- started as lockstep_owner and migrated the schema. Run it with psql as lockstep_owner:
--
--   psql -h db.example.com -U lockstep_owner -d lockstep -f docs/admin/team-grants.sql
--
-- Running it again (after an upgrade, say) changes nothing: the default privileges below already give the operators
-- every table and sequence a later migration creates.
-- docs/admin-guide.md, "Roles and privileges", explains it; OperatorRoleTest (lockstep-postgres) runs this file.

GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO lockstep_operator;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO lockstep_operator;
-- Clients only read the migrations' history, to check that the schema is current before they start.
REVOKE ALL ON flyway_schema_history FROM lockstep_operator;
GRANT SELECT ON flyway_schema_history TO lockstep_operator;

-- What the owner creates later (the next version's migrations), the operators get too.
ALTER DEFAULT PRIVILEGES FOR ROLE lockstep_owner IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO lockstep_operator;
ALTER DEFAULT PRIVILEGES FOR ROLE lockstep_owner IN SCHEMA public
    GRANT USAGE, SELECT ON SEQUENCES TO lockstep_operator;
