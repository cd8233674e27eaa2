-- Issue 29 round 3, fourth set (after setup-3.sql): on T5CG (checks in the trigger, the search text kept by it):
--   T5M: the Updated order's entry and the history row written by ONE statement of the trigger (a CTE), not two
--   T5W: T5CG and an AFTER UPDATE statement trigger with a transition table whose WHEN is false (Lockstep's own
--        save: customer_after_update is skipped, but its transition table is still filled)
SET search_path = public;
DROP TABLE IF EXISTS bd_t5m, bd_t5w CASCADE;
CREATE OR REPLACE FUNCTION bd_t5m() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
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
    IF char_length(NEW.external_ref) > 64 THEN RAISE check_violation USING CONSTRAINT = 'customer_external_ref_check'; END IF;
    IF char_length(NEW.company) > 160 THEN RAISE check_violation USING CONSTRAINT = 'customer_company_check'; END IF;
    IF char_length(NEW.contact_name) > 120 THEN RAISE check_violation USING CONSTRAINT = 'customer_contact_name_check'; END IF;
    IF char_length(NEW.contact_title) > 80 THEN RAISE check_violation USING CONSTRAINT = 'customer_contact_title_check'; END IF;
    IF char_length(NEW.email) > 254 THEN RAISE check_violation USING CONSTRAINT = 'customer_email_check'; END IF;
    IF char_length(NEW.phone) > 40 THEN RAISE check_violation USING CONSTRAINT = 'customer_phone_check'; END IF;
    IF char_length(NEW.fax) > 40 THEN RAISE check_violation USING CONSTRAINT = 'customer_fax_check'; END IF;
    IF char_length(NEW.address) > 500 THEN RAISE check_violation USING CONSTRAINT = 'customer_address_check'; END IF;
    IF char_length(NEW.city) > 80 THEN RAISE check_violation USING CONSTRAINT = 'customer_city_check'; END IF;
    IF char_length(NEW.region) > 80 THEN RAISE check_violation USING CONSTRAINT = 'customer_region_check'; END IF;
    IF char_length(NEW.postal_code) > 20 THEN RAISE check_violation USING CONSTRAINT = 'customer_postal_code_check'; END IF;
    IF char_length(NEW.country) > 80 THEN RAISE check_violation USING CONSTRAINT = 'customer_country_check'; END IF;
    IF char_length(NEW.notes) > 100000 THEN RAISE check_violation USING CONSTRAINT = 'customer_notes_check'; END IF;
    IF NEW.credit_limit < 0 THEN RAISE check_violation USING CONSTRAINT = 'customer_credit_limit_check'; END IF;
    IF coalesce(btrim(NEW.company), '') = '' AND coalesce(btrim(NEW.contact_name), '') = '' THEN
        RAISE check_violation USING CONSTRAINT = 'customer_company_or_contact_required';
    END IF;
    IF NEW.company IS DISTINCT FROM OLD.company
            OR NEW.contact_name IS DISTINCT FROM OLD.contact_name OR NEW.email IS DISTINCT FROM OLD.email
            OR NEW.city IS DISTINCT FROM OLD.city OR NEW.country IS DISTINCT FROM OLD.country
            OR NEW.search_text IS DISTINCT FROM OLD.search_text THEN
        NEW.search_text := customer_search_text(NEW.company, NEW.contact_name, NEW.email, NEW.city, NEW.country);
    END IF;
    NEW.version := OLD.version + 1;
    NEW.updated_at := clock_timestamp();
    NEW.updated_by := lockstep_operator_name(current_setting('lockstep.user', true));
    restored := nullif(current_setting('lockstep.restore', true), '')::bigint;
    WITH moved AS (
        UPDATE bd_updated SET updated_at = NEW.updated_at WHERE updated_at = OLD.updated_at AND id = OLD.id
        RETURNING id),
    added AS (
        INSERT INTO bd_updated (updated_at, id) SELECT NEW.updated_at, NEW.id WHERE NOT EXISTS (SELECT FROM moved)
        ON CONFLICT DO NOTHING)
    INSERT INTO bd_hist (customer_id, version, op, changed_by, changed_at, new_row, request_id, restored_from)
    VALUES (NEW.id, NEW.version, 'UPDATE', NEW.updated_by, NEW.updated_at, to_jsonb(NEW) - 'search_text',
            nullif(current_setting('lockstep.request', true), '')::uuid, restored);
    RETURN NEW;
END $$;
CREATE OR REPLACE FUNCTION bd_t5w_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RETURN NULL;
END $$;
CREATE TABLE bd_t5m (LIKE bd_t5cg INCLUDING ALL);
CREATE TABLE bd_t5w (LIKE bd_t5cg INCLUDING ALL);
INSERT INTO bd_t5m SELECT * FROM bd_t5cg;
INSERT INTO bd_t5w SELECT * FROM bd_t5cg;
CREATE TRIGGER bd_t5m BEFORE UPDATE ON bd_t5m FOR EACH ROW EXECUTE FUNCTION bd_t5m();
CREATE TRIGGER bd_t5w BEFORE UPDATE ON bd_t5w FOR EACH ROW EXECUTE FUNCTION bd_t5x('cg');
CREATE TRIGGER bd_t5w_after AFTER UPDATE ON bd_t5w REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT WHEN (coalesce(current_setting('lockstep.announce', true), '') NOT IN ('client', 'bulk'))
    EXECUTE FUNCTION bd_t5w_after();
VACUUM ANALYZE bd_t5m, bd_t5w;
