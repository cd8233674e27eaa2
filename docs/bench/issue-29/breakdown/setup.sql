-- Issue 29 round 3: copies of 20,000 customers, each adding one of the customer table's components to the floor
-- (floor_bare, docs/bench/issue-29/floor-run.sh). Run once as the superuser lockstep on the data directory's server:
--   psql -v ON_ERROR_STOP=1 -f setup.sql          (drop with teardown.sql)
-- The trigger bodies are R__20_customer_triggers.sql's customer_before_write, cut down step by step.
SET search_path = public;
DROP TABLE IF EXISTS bd_hist, bd_k, bd_g, bd_i, bd_t1, bd_t2, bd_t3, bd_t4, bd_t5, bd_t6, bd_updated CASCADE;

-- The history as the customer's: its identity, indexes and CHECK (not its statement triggers: UPDATE/DELETE only).
CREATE TABLE bd_hist (LIKE customer_history INCLUDING ALL);
INSERT INTO bd_hist (customer_id, version, op, changed_by, changed_at, new_row)
    SELECT customer_id, version, op, changed_by, changed_at, new_row FROM customer_history
    WHERE customer_id <= 20000;
-- The Updated order's copy for the copies' rows.
CREATE TABLE bd_updated (LIKE customer_updated INCLUDING ALL);
INSERT INTO bd_updated SELECT updated_at, id FROM customer WHERE id <= 20000;

-- K: the bare copy and the sixteen CHECK constraints, as V1 made them.
CREATE TABLE bd_k (LIKE customer INCLUDING CONSTRAINTS, PRIMARY KEY (id));
ALTER TABLE bd_k DROP COLUMN search_text; -- LIKE without GENERATED copies it as a plain column
ALTER TABLE bd_k ADD COLUMN search_text text;
-- G: K and the generated search text.
CREATE TABLE bd_g (LIKE customer INCLUDING CONSTRAINTS INCLUDING GENERATED, PRIMARY KEY (id));
-- I: G and every index of the customer table, fill factor 85: LIKE … INCLUDING ALL, as bench save's indexed copy.
CREATE TABLE bd_i (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
-- T1…T6: I and a row trigger doing more and more of customer_before_write.
CREATE TABLE bd_t1 (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
CREATE TABLE bd_t2 (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
CREATE TABLE bd_t3 (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
CREATE TABLE bd_t4 (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
CREATE TABLE bd_t5 (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
CREATE TABLE bd_t6 (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
DO $$
DECLARE
    t text;
    cols text := 'id, external_ref, company, contact_name, contact_title, email, phone, fax, address, city, region, '
                 || 'postal_code, country, notes, credit_limit, version, updated_at, updated_by';
BEGIN
    FOREACH t IN ARRAY ARRAY['bd_k', 'bd_g', 'bd_i', 'bd_t1', 'bd_t2', 'bd_t3', 'bd_t4', 'bd_t5', 'bd_t6'] LOOP
        EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM customer WHERE id <= 20000', t, cols, cols);
    END LOOP;
END $$;

-- T1: an empty row trigger, called as the owner with its own search_path, as customer_before_write is.
CREATE OR REPLACE FUNCTION bd_t1() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = public, pg_temp AS $$
BEGIN
    RETURN NEW;
END $$;
-- T2: T1 and the stamp: version, time, writer.
CREATE OR REPLACE FUNCTION bd_t2() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = public, pg_temp AS $$
BEGIN
    IF NEW.id <> OLD.id THEN
        RAISE EXCEPTION 'id' USING ERRCODE = 'LS422';
    END IF;
    NEW.version := OLD.version + 1;
    NEW.updated_at := clock_timestamp();
    NEW.updated_by := lockstep_operator_name(current_setting('lockstep.user', true));
    RETURN NEW;
END $$;
-- T3: T2 and the lease guard's read.
CREATE OR REPLACE FUNCTION bd_t3() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = public, pg_temp AS $$
DECLARE
    guard text;
    lease record;
BEGIN
    IF NEW.id <> OLD.id THEN
        RAISE EXCEPTION 'id' USING ERRCODE = 'LS422';
    END IF;
    guard := coalesce(current_setting('lockstep.guard', true), '');
    SELECT l.holder, l.token, l.expires_at, l.secret_hash INTO lease FROM record_lease l
    WHERE l.record_id = OLD.id AND l.ended IS NULL
    FOR SHARE;
    IF NOT FOUND AND current_setting('transaction_isolation') <> 'read committed' THEN
        PERFORM lockstep_check_unseen_lease(OLD.id);
    END IF;
    IF FOUND AND lease.expires_at > clock_timestamp() THEN
        RETURN NULL;
    ELSIF guard = 'fenced' THEN
        RETURN NULL;
    END IF;
    NEW.version := OLD.version + 1;
    NEW.updated_at := clock_timestamp();
    NEW.updated_by := lockstep_operator_name(current_setting('lockstep.user', true));
    RETURN NEW;
END $$;
-- T4: T3 and the Updated order's entry.
CREATE OR REPLACE FUNCTION bd_t4() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = public, pg_temp AS $$
DECLARE
    guard text;
    lease record;
BEGIN
    IF NEW.id <> OLD.id THEN
        RAISE EXCEPTION 'id' USING ERRCODE = 'LS422';
    END IF;
    guard := coalesce(current_setting('lockstep.guard', true), '');
    SELECT l.holder, l.token, l.expires_at, l.secret_hash INTO lease FROM record_lease l
    WHERE l.record_id = OLD.id AND l.ended IS NULL
    FOR SHARE;
    IF NOT FOUND AND current_setting('transaction_isolation') <> 'read committed' THEN
        PERFORM lockstep_check_unseen_lease(OLD.id);
    END IF;
    IF FOUND AND lease.expires_at > clock_timestamp() THEN
        RETURN NULL;
    ELSIF guard = 'fenced' THEN
        RETURN NULL;
    END IF;
    NEW.version := OLD.version + 1;
    NEW.updated_at := clock_timestamp();
    NEW.updated_by := lockstep_operator_name(current_setting('lockstep.user', true));
    UPDATE bd_updated SET updated_at = NEW.updated_at WHERE updated_at = OLD.updated_at AND id = OLD.id;
    IF NOT FOUND THEN
        INSERT INTO bd_updated (updated_at, id) VALUES (NEW.updated_at, NEW.id) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NEW;
END $$;
-- T5: T4 and the restore check's setting and the history row written by the trigger: customer_before_write's UPDATE
-- path whole (the statement's CTE no longer writes it).
CREATE OR REPLACE FUNCTION bd_t5() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = public, pg_temp AS $$
DECLARE
    guard    text;
    lease    record;
    restored bigint;
BEGIN
    IF NEW.id <> OLD.id THEN
        RAISE EXCEPTION 'id' USING ERRCODE = 'LS422';
    END IF;
    guard := coalesce(current_setting('lockstep.guard', true), '');
    SELECT l.holder, l.token, l.expires_at, l.secret_hash INTO lease FROM record_lease l
    WHERE l.record_id = OLD.id AND l.ended IS NULL
    FOR SHARE;
    IF NOT FOUND AND current_setting('transaction_isolation') <> 'read committed' THEN
        PERFORM lockstep_check_unseen_lease(OLD.id);
    END IF;
    IF FOUND AND lease.expires_at > clock_timestamp() THEN
        RETURN NULL;
    ELSIF guard = 'fenced' THEN
        RETURN NULL;
    END IF;
    NEW.version := OLD.version + 1;
    NEW.updated_at := clock_timestamp();
    NEW.updated_by := lockstep_operator_name(current_setting('lockstep.user', true));
    UPDATE bd_updated SET updated_at = NEW.updated_at WHERE updated_at = OLD.updated_at AND id = OLD.id;
    IF NOT FOUND THEN
        INSERT INTO bd_updated (updated_at, id) VALUES (NEW.updated_at, NEW.id) ON CONFLICT DO NOTHING;
    END IF;
    restored := nullif(current_setting('lockstep.restore', true), '')::bigint;
    INSERT INTO bd_hist (customer_id, version, op, changed_by, changed_at, new_row, request_id, restored_from)
    VALUES (NEW.id, NEW.version, 'UPDATE', NEW.updated_by, NEW.updated_at, to_jsonb(NEW) - 'search_text',
            nullif(current_setting('lockstep.request', true), '')::uuid, restored);
    RETURN NEW;
END $$;
-- T6: T5 and the statement trigger with its transition table, which notifies (a psql-style writer's path).
CREATE OR REPLACE FUNCTION bd_t6_after() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = public, pg_temp AS $$
DECLARE
    session   text;
    announced text[];
BEGIN
    IF current_setting('lockstep.announce', true) IN ('client', 'bulk') THEN
        RETURN NULL;
    END IF;
    session := nullif(current_setting('lockstep.session', true), '');
    SELECT array_agg(json_build_object('table', 'customer', 'id', n.id, 'version', n.version, 'op', TG_OP,
                                       'session', session)::text)
    INTO announced FROM (SELECT id, version FROM new_rows LIMIT 51) n;
    IF announced IS NULL THEN
        RETURN NULL;
    END IF;
    PERFORM pg_notify('bd', a) FROM unnest(announced) a;
    RETURN NULL;
END $$;
CREATE TRIGGER bd_t1 BEFORE UPDATE ON bd_t1 FOR EACH ROW EXECUTE FUNCTION bd_t1();
CREATE TRIGGER bd_t2 BEFORE UPDATE ON bd_t2 FOR EACH ROW EXECUTE FUNCTION bd_t2();
CREATE TRIGGER bd_t3 BEFORE UPDATE ON bd_t3 FOR EACH ROW EXECUTE FUNCTION bd_t3();
CREATE TRIGGER bd_t4 BEFORE UPDATE ON bd_t4 FOR EACH ROW EXECUTE FUNCTION bd_t4();
CREATE TRIGGER bd_t5 BEFORE UPDATE ON bd_t5 FOR EACH ROW EXECUTE FUNCTION bd_t5();
CREATE TRIGGER bd_t6 BEFORE UPDATE ON bd_t6 FOR EACH ROW EXECUTE FUNCTION bd_t5();
CREATE TRIGGER bd_t6_after AFTER UPDATE ON bd_t6 REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT WHEN (coalesce(current_setting('lockstep.announce', true), '') NOT IN ('client', 'bulk'))
    EXECUTE FUNCTION bd_t6_after();
VACUUM ANALYZE bd_hist, bd_updated, bd_k, bd_g, bd_i, bd_t1, bd_t2, bd_t3, bd_t4, bd_t5, bd_t6;

-- K1: the bare copy and the same sixteen rules as ONE CHECK constraint.
DROP TABLE IF EXISTS bd_k1;
CREATE TABLE bd_k1 (LIKE customer, PRIMARY KEY (id));
ALTER TABLE bd_k1 ADD CONSTRAINT bd_k1_check CHECK (
    char_length(external_ref) <= 64 AND char_length(company) <= 160 AND char_length(contact_name) <= 120
    AND char_length(contact_title) <= 80 AND char_length(email) <= 254 AND char_length(phone) <= 40
    AND char_length(fax) <= 40 AND char_length(address) <= 500 AND char_length(city) <= 80
    AND char_length(region) <= 80 AND char_length(postal_code) <= 20 AND char_length(country) <= 80
    AND char_length(notes) <= 100000 AND credit_limit >= 0 AND version >= 1
    AND (coalesce(btrim(company), '') <> '' OR coalesce(btrim(contact_name), '') <> ''));
INSERT INTO bd_k1 SELECT * FROM floor_bare;
VACUUM ANALYZE bd_k1;
