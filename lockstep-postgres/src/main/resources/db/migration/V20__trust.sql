-- Trust on a team server (issue 26): the database, not the client, keeps what must hold for every writer. This
-- migration changes the tables; the code that enforces the rules — the customer triggers, the lease functions, the
-- functions that alone write the audit trail — is kept whole in the repeatable migrations R__*.sql, run after this one
-- and again whenever their text changes (Flyway, "Repeatable migrations"), so that today's code is one file each,
-- not the sum of V2 → V19. Who may call what — the operator and supervisor groups and their grants — is not a
-- migration's to decide (roles belong to the whole server, and the owner cannot create them): the groups are made by
-- the embedded server or docs/admin/team-roles.sql, and afterMigrate.sql grants them after every migrate.

-- A lease is proven by a secret only its holder's client has (HMAC of the writer id under a key that never leaves
-- the client), stored here hashed (SHA-256): what anyone can read — holder, session, token — proves nothing any more.
-- Leases granted before this migration have none, so no writer can prove them; they lapse within their TTL.
ALTER TABLE record_lease ADD COLUMN secret_hash bytea;
COMMENT ON COLUMN record_lease.secret_hash IS
    'SHA-256 of the holder''s lease secret (lockstep.secret): a write or renewal proves the lease by the secret.';

-- "Ask a supervisor…": a message to whoever is signed in as a supervisor, not to one session.
ALTER TABLE message ALTER COLUMN to_session DROP NOT NULL;
ALTER TABLE message ADD COLUMN to_supervisors boolean NOT NULL DEFAULT false;
ALTER TABLE message ADD CONSTRAINT message_has_recipient CHECK (to_session IS NOT NULL OR to_supervisors);
CREATE INDEX message_to_supervisors ON message (id) WHERE to_supervisors;

-- The triggers and functions of V2–V19 that the repeatable migrations replace under new names.
DROP TRIGGER IF EXISTS customer_before_write ON customer;
DROP TRIGGER IF EXISTS customer_after_insert ON customer;
DROP TRIGGER IF EXISTS customer_after_update ON customer;
DROP TRIGGER IF EXISTS customer_after_delete ON customer;
DROP FUNCTION IF EXISTS customer_before_write();
DROP FUNCTION IF EXISTS customer_after_write();

-- Functions are callable by PUBLIC unless revoked (PostgreSQL docs, 5.8 "Privileges"): the functions the repeatable
-- migrations create are granted by name, to the groups, and to nobody else.
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
