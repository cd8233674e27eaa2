-- Lockstep on a shared PostgreSQL (13 or newer), before its first start: the owner, the groups and the database.
-- Run it with psql as a superuser (or a role with CREATEROLE and CREATEDB), giving the owner its password:
--
--   psql -h db.example.com -U postgres -v owner_password='…' -f docs/admin/team-roles.sql
--
-- Then start Lockstep once as lockstep_owner (it migrates the schema and grants the groups what they may do) and
-- give each operator a login with add-operator.sql. docs/admin-guide.md, "Roles and privileges", explains it;
-- TeamServerTrustTest (lockstep-postgres) runs this file.

-- Migrations: owns the database, so its schema, everything the migrations create and the functions that write the
-- audit trail and the leases. Nobody signs in to Lockstep as the owner but the administrator.
CREATE ROLE lockstep_owner LOGIN PASSWORD :'owner_password';

-- The groups (roles belong to the whole server, so one server holds one Lockstep team; running this file again
-- leaves groups that exist as they are). Every operator's login is a member of lockstep_operators; supervisors,
-- who may break another's lock, of lockstep_supervisors; lockstep_shared_login is for a login that several people
-- share at one machine, whose client names the operator (their names are then only as good as that machine's).
DO $$
BEGIN
    IF to_regrole('lockstep_operators') IS NULL THEN CREATE ROLE lockstep_operators NOLOGIN; END IF;
    IF to_regrole('lockstep_supervisors') IS NULL THEN
        CREATE ROLE lockstep_supervisors NOLOGIN IN ROLE lockstep_operators;
    END IF;
    IF to_regrole('lockstep_shared_login') IS NULL THEN
        CREATE ROLE lockstep_shared_login NOLOGIN IN ROLE lockstep_operators;
    END IF;
END $$;

CREATE DATABASE lockstep OWNER lockstep_owner;

-- The bounds Lockstep sends itself on a direct connection, for connections through PgBouncer, which cannot send
-- them: set on the database, they hold for every operator's login. (Migrations set their own.)
ALTER DATABASE lockstep SET statement_timeout = '10s';
ALTER DATABASE lockstep SET lock_timeout = '4s';
ALTER DATABASE lockstep SET idle_in_transaction_session_timeout = '60s';

\connect lockstep
-- Nobody but the owner creates anything in the schema; the operators only use it. PostgreSQL 13 and 14 give the
-- public schema to the superuser and let everyone create in it, so the owner gets CREATE by name; from 15 on the
-- database's owner has it already.
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT CREATE, USAGE ON SCHEMA public TO lockstep_owner;
GRANT USAGE ON SCHEMA public TO lockstep_operators;
