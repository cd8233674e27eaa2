-- Presence belongs to the login that wrote it (issue 26, second attack). Any operator could UPDATE or DELETE every
-- presence row — hide who is editing a customer, or show someone there who is not — and set an expiry years away.
-- Now each row carries its login (session_user, set by the database), and row-level security lets a login change
-- and remove only its own rows, and others' only once they have expired (the clean-up every client does,
-- JdbiPresenceRepository.CLEAR_EXPIRED, locks them FOR UPDATE, which asks the UPDATE policy too); a row updated
-- becomes the updater's. The login is part of the key: a row another login wrote under my session
-- id is a row of its own, never one my heartbeat must update. The schema's owner — the embedded server's one
-- application role — is not subject to these policies (PostgreSQL docs, 5.9 "Row Security Policies"): its
-- operators are the one machine's, as for names (lockstep_names_by_client). presence_stamp (R__20) bounds the expiry.

ALTER TABLE presence ADD COLUMN login text NOT NULL DEFAULT session_user;
ALTER TABLE presence DROP CONSTRAINT presence_pkey;
ALTER TABLE presence ADD PRIMARY KEY (customer_id, login, session_id);

ALTER TABLE presence ENABLE ROW LEVEL SECURITY;
CREATE POLICY presence_read ON presence FOR SELECT USING (true);
CREATE POLICY presence_insert ON presence FOR INSERT WITH CHECK (login = session_user);
CREATE POLICY presence_update ON presence FOR UPDATE USING (login = session_user OR expires_at <= clock_timestamp())
    WITH CHECK (login = session_user);
CREATE POLICY presence_delete ON presence FOR DELETE USING (login = session_user OR expires_at <= clock_timestamp());
