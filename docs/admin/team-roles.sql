-- Lockstep on a shared PostgreSQL (13 or newer), step 1 of 2: the two roles and the database, before Lockstep's
-- first start. Run it with psql as a superuser, giving each role its password:
--
--   psql -h db.example.com -U postgres -v owner_password='…' -v operator_password='…' -f docs/admin/team-roles.sql
--
-- Then start Lockstep once as lockstep_owner (it migrates the schema) and run team-grants.sql.
-- docs/admin-guide.md, "Roles and privileges", explains it; OperatorRoleTest (lockstep-postgres) runs this file.

-- Migrations: owns the database, so its schema and everything the migrations create.
CREATE ROLE lockstep_owner LOGIN PASSWORD :'owner_password';
-- The operators' clients: no role attribute beyond logging in; what it may do to the tables, team-grants.sql gives.
CREATE ROLE lockstep_operator LOGIN PASSWORD :'operator_password';
CREATE DATABASE lockstep OWNER lockstep_owner;

-- The bounds Lockstep sends itself on a direct connection, for connections through PgBouncer, which cannot send them.
ALTER ROLE lockstep_operator SET statement_timeout = '10s';
ALTER ROLE lockstep_operator SET lock_timeout = '4s';
ALTER ROLE lockstep_operator SET idle_in_transaction_session_timeout = '60s';

\connect lockstep
-- Nobody but the owner creates anything in the schema; the operators only use it. PostgreSQL 13 and 14 give the
-- public schema to the superuser and let everyone create in it, so the owner gets CREATE by name; from 15 on the
-- database's owner has it already.
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT CREATE, USAGE ON SCHEMA public TO lockstep_owner;
GRANT USAGE ON SCHEMA public TO lockstep_operator;
