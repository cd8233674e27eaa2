-- A write is recognised by something only it carries, never by who wrote it: many desks share one login
-- (docs/decisions/0009-retries-and-idempotency.md).
--
-- Every versioned save and delete names a request id, chosen by the client for that one write and set for the
-- transaction (set_config('lockstep.request', …, true), i.e. SET LOCAL). The history trigger keeps it beside the
-- version it made. When a save's reply is lost and the same save is sent again, the second attempt matches zero rows
-- (the version moved on) and finds its own request id in the history: it was this very save, not a conflict. A
-- second process under the same user name carries another id, so its write is a conflict, as it must be.

ALTER TABLE customer_history ADD COLUMN request_id uuid;

COMMENT ON COLUMN customer_history.request_id IS
    'The client-chosen id of the write that made this version (lockstep.request), NULL for writers outside Lockstep.';

-- Times are the moment the row is written (clock_timestamp()), not the start of the transaction (now()): a save that
-- waited for a row lock is stamped after the write it waited for committed, so history times follow commit order.
-- The history row takes the stamp's time, so updated_at and changed_at of one version are the same instant.
CREATE OR REPLACE FUNCTION customer_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        NEW.version := OLD.version + 1;
    ELSE
        NEW.version := 1;
    END IF;
    NEW.updated_at := clock_timestamp();
    NEW.updated_by := coalesce(nullif(current_setting('lockstep.user', true), ''), session_user);
    RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION customer_record_history() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    who     text := coalesce(nullif(current_setting('lockstep.user', true), ''), session_user);
    request uuid := nullif(current_setting('lockstep.request', true), '')::uuid;
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row, request_id)
        VALUES (NEW.id, NEW.version, 'INSERT', who, NEW.updated_at, to_jsonb(NEW), request);
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, old_row, new_row, request_id)
        VALUES (NEW.id, NEW.version, 'UPDATE', who, NEW.updated_at, to_jsonb(OLD), to_jsonb(NEW), request);
    ELSE
        INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, old_row, request_id)
        VALUES (OLD.id, OLD.version, 'DELETE', who, clock_timestamp(), to_jsonb(OLD), request);
    END IF;
    RETURN NULL;
END $$;

-- Idempotency keys for writes that have no version to check: creating a customer, importing a file. The write
-- inserts its request id here in its own transaction. Sent again after a lost reply, the second attempt collides
-- with the first on the primary key — waiting for it if it is still running — so the write happens once, and the
-- client reads what the first attempt did. A key is kept for a week; a client never repeats a request that old.
CREATE TABLE client_request (
    request_id  uuid        PRIMARY KEY,
    kind        text        NOT NULL CHECK (kind IN ('create', 'import')),
    -- create: the new customer's id.
    customer_id bigint,
    -- import: what it wrote ({"inserted": n, "updated": n, "unchanged": n}).
    detail      jsonb,
    done_at     timestamptz NOT NULL DEFAULT clock_timestamp()
);

COMMENT ON TABLE client_request IS
    'Request ids of creates and imports, so that a write repeated after a lost reply happens once; kept 7 days.';

CREATE INDEX client_request_done_at ON client_request (done_at);
