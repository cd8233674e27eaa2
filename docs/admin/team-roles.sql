-- Lockstep on a shared PostgreSQL (13 or newer): the owner, the groups, the database and its public schema. This is
-- what `lockstep admin setup` runs (docs/admin-guide.md, "Roles and privileges"); for those who prefer psql, as a
-- superuser, in the maintenance database:
--
--   psql -h db.example.com -U postgres -d postgres -v owner=lockstep_owner -v database=lockstep -f docs/admin/team-roles.sql
--
-- Every statement is a query that writes the statement still needed, which psql's \gexec then runs: run again, it
-- runs nothing. The owner gets no password here (`lockstep admin setup` migrates as the owner without signing in as
-- it); one who is to sign in as the owner gives it one in psql with \password lockstep_owner, hashed by psql.
-- TeamServerTrustTest (lockstep-postgres) runs this file as psql would, AdminCommandsTest (lockstep-cli) through
-- the command.

-- Migrations: owns the database, so its schema, everything the migrations create and the functions that write the
-- audit trail and the leases. Nobody works in Lockstep as the owner but the administrator.
SELECT format('CREATE ROLE %I LOGIN', :'owner')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'owner') \gexec

-- The groups (roles belong to the whole server, so one server holds one Lockstep team). Every operator's login is a
-- member of lockstep_operators; supervisors, who may break another's lock, of lockstep_supervisors;
-- lockstep_shared_login is for a login that several people share at one machine, whose client names the operator
-- (their names are then only as good as that machine's). The embedded server makes the same (AppRoleSetup.GROUPS).
SELECT 'CREATE ROLE lockstep_operators NOLOGIN'
WHERE to_regrole('lockstep_operators') IS NULL \gexec
SELECT 'CREATE ROLE lockstep_supervisors NOLOGIN IN ROLE lockstep_operators'
WHERE to_regrole('lockstep_supervisors') IS NULL \gexec
SELECT 'CREATE ROLE lockstep_shared_login NOLOGIN IN ROLE lockstep_operators'
WHERE to_regrole('lockstep_shared_login') IS NULL \gexec

SELECT format('CREATE DATABASE %I OWNER %I', :'database', :'owner')
WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'database') \gexec

-- The bounds Lockstep sends itself on a direct connection, for connections through PgBouncer, which cannot send
-- them: set on the database, they hold for every operator's login. (Migrations set their own.)
SELECT format('ALTER DATABASE %I SET %s = %L', :'database', b.name, b.value)
FROM (VALUES (1, 'statement_timeout', '10s'), (2, 'lock_timeout', '4s'),
             (3, 'idle_in_transaction_session_timeout', '60s')) b(n, name, value)
WHERE NOT EXISTS (SELECT 1 FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
                  WHERE d.datname = :'database' AND s.setrole = 0
                    AND b.name || '=' || b.value = ANY (s.setconfig))
ORDER BY b.n \gexec

\connect :"database"
-- Nobody but the owner creates anything in the schema; the operators only use it. PostgreSQL 13 and 14 give the
-- public schema to the superuser and let everyone create in it, so the owner gets CREATE by name; from 15 on the
-- database's owner has it already.
SELECT 'REVOKE ALL ON SCHEMA public FROM PUBLIC'
FROM pg_namespace n, aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
WHERE n.nspname = 'public' AND a.grantee = 0
LIMIT 1 \gexec
SELECT format('GRANT CREATE, USAGE ON SCHEMA public TO %I', :'owner')
WHERE NOT (has_schema_privilege(:'owner', 'public', 'CREATE') AND has_schema_privilege(:'owner', 'public', 'USAGE'))
\gexec
SELECT 'GRANT USAGE ON SCHEMA public TO lockstep_operators'
WHERE NOT has_schema_privilege('lockstep_operators', 'public', 'USAGE') \gexec
