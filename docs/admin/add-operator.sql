-- A login for one operator, who is then recorded by this name in history, leases, conflicts, messages and presence.
-- This is what `lockstep admin add-operator NAME` runs, in one transaction (docs/admin-guide.md, "Roles and
-- privileges"); for those who prefer psql, as a superuser (or a role with CREATEROLE), once per person:
--
--   psql -h db.example.com -U postgres -1 -v name=alice -f docs/admin/add-operator.sql
--
-- psql's \password asks for the password and sends only its SCRAM hash, so the password itself never reaches the
-- server or its log. A supervisor, who may break another operator's lock, is an operator who is also a member of
-- lockstep_supervisors (`add-operator --supervisor`, or in psql: GRANT lockstep_supervisors TO alice).
-- Someone who leaves: DROP ROLE alice (what they wrote stays recorded under their name).
-- TeamServerTrustTest (lockstep-postgres) runs this file as psql would, AdminCommandsTest (lockstep-cli) through
-- the command.

CREATE ROLE :"name" LOGIN IN ROLE lockstep_operators;
\password :"name"
