-- Issue 29 round 3, third set (after setup.sql and setup-2.sql): the candidate cuts on T5 (customer_before_write's
-- UPDATE path whole, on a copy with every index, CHECK and the generated search text).
--   T5F:  the sixteen CHECKs as one CHECK calling bd_valid (setup-2.sql), which raises the rule's own name
--   T5C:  the sixteen rules checked by the row trigger itself, no CHECK constraint
--   T5G:  the search text kept by the row trigger (a plain column, computed only when its inputs change)
--   T5CG: both
SET search_path = public;
DROP TABLE IF EXISTS bd_t5f, bd_t5c, bd_t5g, bd_t5cg CASCADE;
CREATE OR REPLACE FUNCTION bd_t5x() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
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
    IF TG_ARGV[0] IN ('c', 'cg') THEN
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
    END IF;
    IF TG_ARGV[0] IN ('g', 'cg') AND (NEW.company IS DISTINCT FROM OLD.company
            OR NEW.contact_name IS DISTINCT FROM OLD.contact_name OR NEW.email IS DISTINCT FROM OLD.email
            OR NEW.city IS DISTINCT FROM OLD.city OR NEW.country IS DISTINCT FROM OLD.country
            OR NEW.search_text IS DISTINCT FROM OLD.search_text) THEN
        NEW.search_text := customer_search_text(NEW.company, NEW.contact_name, NEW.email, NEW.city, NEW.country);
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
CREATE TABLE bd_t5f (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
CREATE TABLE bd_t5c (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
CREATE TABLE bd_t5g (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
CREATE TABLE bd_t5cg (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
DO $$
DECLARE
    t text;
    c record;
    cols text := 'id, external_ref, company, contact_name, contact_title, email, phone, fax, address, city, region, '
                 || 'postal_code, country, notes, credit_limit, version, updated_at, updated_by';
BEGIN
    FOREACH t IN ARRAY ARRAY['bd_t5f', 'bd_t5c', 'bd_t5g', 'bd_t5cg'] LOOP
        EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM floor_bare', t, cols, cols);
        IF t IN ('bd_t5f', 'bd_t5c', 'bd_t5cg') THEN
            FOR c IN SELECT conname FROM pg_constraint WHERE conrelid = t::regclass AND contype = 'c' LOOP
                EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', t, c.conname);
            END LOOP;
        END IF;
        IF t IN ('bd_t5g', 'bd_t5cg') THEN
            EXECUTE format('ALTER TABLE %I ALTER COLUMN search_text DROP EXPRESSION', t);
        END IF;
    END LOOP;
END $$;
ALTER TABLE bd_t5f ADD CONSTRAINT bd_t5f_check CHECK (bd_valid(external_ref, company, contact_name, contact_title,
    email, phone, fax, address, city, region, postal_code, country, notes, credit_limit, version));
CREATE TRIGGER bd_t5f BEFORE UPDATE ON bd_t5f FOR EACH ROW EXECUTE FUNCTION bd_t5x('f');
CREATE TRIGGER bd_t5c BEFORE UPDATE ON bd_t5c FOR EACH ROW EXECUTE FUNCTION bd_t5x('c');
CREATE TRIGGER bd_t5g BEFORE UPDATE ON bd_t5g FOR EACH ROW EXECUTE FUNCTION bd_t5x('g');
CREATE TRIGGER bd_t5cg BEFORE UPDATE ON bd_t5cg FOR EACH ROW EXECUTE FUNCTION bd_t5x('cg');
VACUUM ANALYZE bd_t5f, bd_t5c, bd_t5g, bd_t5cg;
