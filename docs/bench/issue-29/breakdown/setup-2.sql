-- Issue 29 round 3, second set (after setup.sql): what a CHECK and a row trigger's call cost is made of.
SET search_path = public;
DROP TABLE IF EXISTS bd_kf, bd_t1n, bd_t1s CASCADE;
-- KF: the bare copy and the sixteen rules as one CHECK calling a PL/pgSQL function (whose plan a session keeps),
-- which raises the rule's own constraint name.
CREATE OR REPLACE FUNCTION bd_valid(external_ref text, company text, contact_name text, contact_title text,
                                    email text, phone text, fax text, address text, city text, region text,
                                    postal_code text, country text, notes text, credit_limit numeric, version bigint)
    RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF char_length(external_ref) > 64 THEN RAISE check_violation USING CONSTRAINT = 'customer_external_ref_check'; END IF;
    IF char_length(company) > 160 THEN RAISE check_violation USING CONSTRAINT = 'customer_company_check'; END IF;
    IF char_length(contact_name) > 120 THEN RAISE check_violation USING CONSTRAINT = 'customer_contact_name_check'; END IF;
    IF char_length(contact_title) > 80 THEN RAISE check_violation USING CONSTRAINT = 'customer_contact_title_check'; END IF;
    IF char_length(email) > 254 THEN RAISE check_violation USING CONSTRAINT = 'customer_email_check'; END IF;
    IF char_length(phone) > 40 THEN RAISE check_violation USING CONSTRAINT = 'customer_phone_check'; END IF;
    IF char_length(fax) > 40 THEN RAISE check_violation USING CONSTRAINT = 'customer_fax_check'; END IF;
    IF char_length(address) > 500 THEN RAISE check_violation USING CONSTRAINT = 'customer_address_check'; END IF;
    IF char_length(city) > 80 THEN RAISE check_violation USING CONSTRAINT = 'customer_city_check'; END IF;
    IF char_length(region) > 80 THEN RAISE check_violation USING CONSTRAINT = 'customer_region_check'; END IF;
    IF char_length(postal_code) > 20 THEN RAISE check_violation USING CONSTRAINT = 'customer_postal_code_check'; END IF;
    IF char_length(country) > 80 THEN RAISE check_violation USING CONSTRAINT = 'customer_country_check'; END IF;
    IF char_length(notes) > 100000 THEN RAISE check_violation USING CONSTRAINT = 'customer_notes_check'; END IF;
    IF credit_limit < 0 THEN RAISE check_violation USING CONSTRAINT = 'customer_credit_limit_check'; END IF;
    IF version < 1 THEN RAISE check_violation USING CONSTRAINT = 'customer_version_check'; END IF;
    IF coalesce(btrim(company), '') = '' AND coalesce(btrim(contact_name), '') = '' THEN
        RAISE check_violation USING CONSTRAINT = 'customer_company_or_contact_required';
    END IF;
    RETURN true;
END $$;
CREATE TABLE bd_kf (LIKE customer, PRIMARY KEY (id));
ALTER TABLE bd_kf ADD CONSTRAINT bd_kf_check CHECK (bd_valid(external_ref, company, contact_name, contact_title, email,
    phone, fax, address, city, region, postal_code, country, notes, credit_limit, version));
INSERT INTO bd_kf SELECT * FROM floor_bare;
-- T1N: I and an empty row trigger called as the writer (no SECURITY DEFINER, no SET); T1S: as the owner, no SET.
CREATE OR REPLACE FUNCTION bd_t1n() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RETURN NEW;
END $$;
CREATE OR REPLACE FUNCTION bd_t1s() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    RETURN NEW;
END $$;
CREATE TABLE bd_t1n (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
CREATE TABLE bd_t1s (LIKE customer INCLUDING ALL) WITH (fillfactor = 85);
INSERT INTO bd_t1n (id, external_ref, company, contact_name, contact_title, email, phone, fax, address, city, region,
    postal_code, country, notes, credit_limit, version, updated_at, updated_by)
    SELECT id, external_ref, company, contact_name, contact_title, email, phone, fax, address, city, region,
    postal_code, country, notes, credit_limit, version, updated_at, updated_by FROM floor_bare;
INSERT INTO bd_t1s (id, external_ref, company, contact_name, contact_title, email, phone, fax, address, city, region,
    postal_code, country, notes, credit_limit, version, updated_at, updated_by)
    SELECT id, external_ref, company, contact_name, contact_title, email, phone, fax, address, city, region,
    postal_code, country, notes, credit_limit, version, updated_at, updated_by FROM floor_bare;
CREATE TRIGGER bd_t1n BEFORE UPDATE ON bd_t1n FOR EACH ROW EXECUTE FUNCTION bd_t1n();
CREATE TRIGGER bd_t1s BEFORE UPDATE ON bd_t1s FOR EACH ROW EXECUTE FUNCTION bd_t1s();
VACUUM ANALYZE bd_kf, bd_t1n, bd_t1s;
-- K0: a bare copy made as the K tables were (fresh), without any CHECK: the K tables' yardstick.
DROP TABLE IF EXISTS bd_k0;
CREATE TABLE bd_k0 (LIKE customer, PRIMARY KEY (id));
INSERT INTO bd_k0 SELECT * FROM floor_bare;
VACUUM ANALYZE bd_k0;
