-- A login for one operator, who is then recorded by this name in history, leases, conflicts, messages and presence.
-- Run it with psql as a superuser (or a role with CREATEROLE), once per person:
--
--   psql -h db.example.com -U postgres -v name=alice -v password='…' -f docs/admin/add-operator.sql
--
-- A supervisor, who may break another operator's lock, is an operator who is also a member of lockstep_supervisors:
--
--   psql -h db.example.com -U postgres -c 'GRANT lockstep_supervisors TO alice'
--
-- Someone who leaves: DROP ROLE alice (what they wrote stays recorded under their name).
-- docs/admin-guide.md, "Roles and privileges", explains it; TeamServerTrustTest (lockstep-postgres) runs this file.

CREATE ROLE :"name" LOGIN PASSWORD :'password' IN ROLE lockstep_operators;
