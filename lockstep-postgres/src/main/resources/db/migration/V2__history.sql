-- Version history kept by the database, whoever writes: Lockstep, a script or psql.

-- Every UPDATE raises the version by exactly one and stamps the database clock, even a bulk
-- `UPDATE customer SET city = …` that never mentions them, so no writer can slip past an editor's version check
-- (the "implicit lock" that ORM bulk updates lack). The writer is the Lockstep user set for the transaction
-- (set_config('lockstep.user', …, true), i.e. SET LOCAL), else the database role.
CREATE FUNCTION customer_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        NEW.version := OLD.version + 1;
    ELSE
        NEW.version := 1;
    END IF;
    NEW.updated_at := now();
    NEW.updated_by := coalesce(nullif(current_setting('lockstep.user', true), ''), session_user);
    RETURN NEW;
END $$;

CREATE TRIGGER customer_stamp BEFORE INSERT OR UPDATE ON customer
    FOR EACH ROW EXECUTE FUNCTION customer_stamp();

CREATE TABLE customer_history (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id bigint      NOT NULL,
    version     bigint      NOT NULL,
    op          text        NOT NULL CHECK (op IN ('INSERT', 'UPDATE', 'DELETE')),
    changed_by  text        NOT NULL,
    changed_at  timestamptz NOT NULL DEFAULT now(),
    old_row     jsonb,
    new_row     jsonb
);

COMMENT ON TABLE customer_history IS
    'One row per INSERT, UPDATE and DELETE of customer, written by trigger; changed_at is the database clock.';

CREATE INDEX customer_history_customer ON customer_history (customer_id, version);

CREATE FUNCTION customer_record_history() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    who text := coalesce(nullif(current_setting('lockstep.user', true), ''), session_user);
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO customer_history (customer_id, version, op, changed_by, new_row)
        VALUES (NEW.id, NEW.version, 'INSERT', who, to_jsonb(NEW));
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO customer_history (customer_id, version, op, changed_by, old_row, new_row)
        VALUES (NEW.id, NEW.version, 'UPDATE', who, to_jsonb(OLD), to_jsonb(NEW));
    ELSE
        INSERT INTO customer_history (customer_id, version, op, changed_by, old_row)
        VALUES (OLD.id, OLD.version, 'DELETE', who, to_jsonb(OLD));
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER customer_record_history AFTER INSERT OR UPDATE OR DELETE ON customer
    FOR EACH ROW EXECUTE FUNCTION customer_record_history();

-- Rows written before this migration have no INSERT in the history; record their current state once, so that a
-- merge can always find the base version it needs.
INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row)
SELECT id, version, 'INSERT', coalesce(updated_by, session_user), updated_at, to_jsonb(customer.*) FROM customer;
