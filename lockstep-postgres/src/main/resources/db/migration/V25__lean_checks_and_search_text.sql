-- Issue 29, round 3: the same rules and the same search text, for less of every save's time. Measured with pgbench on
-- a million customers (docs/benchmarks.md, "Round 3"; docs/bench/issue-29/breakdown/): of a one-client save's
-- server time, the sixteen CHECK constraints took 50-60 µs and the generated search text about 10 µs more, both in
-- every UPDATE, whatever it changed.
--
-- 1. The sixteen CHECK constraints (V1) become one, which calls lockstep_customer_valid. PostgreSQL keeps a CHECK's
--    expression as text and reads, plans and compiles it again in every statement that writes the table
--    (ExecRelCheck: stringToNode, ExecPrepareExpr), so their cost grew with their size, not their number: one CHECK
--    of the same sixteen rules ANDed cost as much. A PL/pgSQL function's body is compiled once a session, and the one
--    CHECK left is a call with fifteen columns. The rules, their SQLSTATE (23514, check_violation) and their names are
--    those of V1: the function raises PostgreSQL's own sentence with the name of the rule the row breaks
--    ('new row for relation "customer" violates check constraint "customer_phone_check"'), so every writer is refused
--    as before and Lockstep still tells which field (StoreErrors.fieldIn). A CHECK, not the row trigger, so that a
--    writer whose triggers do not fire (session_replication_role = replica, a superuser's) is still refused.
--
-- 2. search_text (V19) is no longer a generated column, which PostgreSQL computes again in every UPDATE (a call of
--    customer_search_text, unaccent and lower over some 80 characters) even when none of its five columns changed:
--    the customer's row trigger sets it when a row is created and when one of them, or search_text itself, changes
--    (R__20_customer_triggers.sql), for every writer. A writer who sets search_text gets it computed anew. DROP
--    EXPRESSION keeps every row's value and rewrites nothing (PostgreSQL docs, ALTER TABLE; PostgreSQL 13+).
--    Until R__20 has replaced the row trigger (Flyway runs it after this migration, in a transaction of its own), an
--    interim trigger computes the text on every write, so that no write in between stores a row without it; R__20
--    drops it.
--
-- Adding the CHECK reads every customer once, under the table's lock: 5.6 s for a million customers
-- (docs/benchmarks.md).

-- The rules of V1, one per column, and that a customer has a company or a contact. Each length counts code points
-- of the NFC form, as Lockstep counts them (core's UnicodeText, CustomerField): a text stored in another form must
-- fit its limit in NFC, or Lockstep, which sends text in NFC, could not save that customer again (found by an attack:
-- 80 × U+0958, a composition exclusion, is 160 code points in NFC). NFC is at most three times as long as its input
-- (Unicode UAX #15), so a text no longer than a third of its limit is not normalised: a save's usual values cost
-- nothing more. normalize() needs a UTF8 database; elsewhere the text is counted as stored. A NULL passes, as a
-- CHECK's NULL does. A credit limit must be a number: NaN compares as greater than every number, so V1's
-- "credit_limit >= 0" let it in, and no client can read it back (a psql write of 'NaN' stopped every operator's list,
-- found by an attack); scale() is NULL for it (Infinity, which scale() would catch too, the column's precision refuses). Only pg_catalog's functions and operators: the search_path is fixed, so that no writer's own operator
-- can stand in for '<='.
CREATE FUNCTION lockstep_customer_valid(external_ref text, company text, contact_name text, contact_title text,
                                        email text, phone text, fax text, address text, city text, region text,
                                        postal_code text, country text, notes text, credit_limit numeric,
                                        version bigint)
    RETURNS boolean LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    broken text;
    utf8   boolean := getdatabaseencoding() = 'UTF8';
BEGIN
    broken := CASE
        WHEN char_length(external_ref) > 21
            AND char_length(CASE WHEN utf8 THEN normalize(external_ref, NFC) ELSE external_ref END) > 64
            THEN 'customer_external_ref_check'
        WHEN char_length(company) > 53
            AND char_length(CASE WHEN utf8 THEN normalize(company, NFC) ELSE company END) > 160
            THEN 'customer_company_check'
        WHEN char_length(contact_name) > 40
            AND char_length(CASE WHEN utf8 THEN normalize(contact_name, NFC) ELSE contact_name END) > 120
            THEN 'customer_contact_name_check'
        WHEN char_length(contact_title) > 26
            AND char_length(CASE WHEN utf8 THEN normalize(contact_title, NFC) ELSE contact_title END) > 80
            THEN 'customer_contact_title_check'
        WHEN char_length(email) > 84
            AND char_length(CASE WHEN utf8 THEN normalize(email, NFC) ELSE email END) > 254
            THEN 'customer_email_check'
        WHEN char_length(phone) > 13
            AND char_length(CASE WHEN utf8 THEN normalize(phone, NFC) ELSE phone END) > 40
            THEN 'customer_phone_check'
        WHEN char_length(fax) > 13
            AND char_length(CASE WHEN utf8 THEN normalize(fax, NFC) ELSE fax END) > 40
            THEN 'customer_fax_check'
        WHEN char_length(address) > 166
            AND char_length(CASE WHEN utf8 THEN normalize(address, NFC) ELSE address END) > 500
            THEN 'customer_address_check'
        WHEN char_length(city) > 26
            AND char_length(CASE WHEN utf8 THEN normalize(city, NFC) ELSE city END) > 80
            THEN 'customer_city_check'
        WHEN char_length(region) > 26
            AND char_length(CASE WHEN utf8 THEN normalize(region, NFC) ELSE region END) > 80
            THEN 'customer_region_check'
        WHEN char_length(postal_code) > 6
            AND char_length(CASE WHEN utf8 THEN normalize(postal_code, NFC) ELSE postal_code END) > 20
            THEN 'customer_postal_code_check'
        WHEN char_length(country) > 26
            AND char_length(CASE WHEN utf8 THEN normalize(country, NFC) ELSE country END) > 80
            THEN 'customer_country_check'
        WHEN char_length(notes) > 33333
            AND char_length(CASE WHEN utf8 THEN normalize(notes, NFC) ELSE notes END) > 100000
            THEN 'customer_notes_check'
        WHEN NOT (credit_limit >= 0) OR scale(credit_limit) IS NULL AND credit_limit IS NOT NULL
            THEN 'customer_credit_limit_check'
        WHEN NOT (version >= 1) THEN 'customer_version_check'
        WHEN NOT (coalesce(btrim(company), '') <> '' OR coalesce(btrim(contact_name), '') <> '')
            THEN 'customer_company_or_contact_required'
        END;
    IF broken IS NOT NULL THEN
        RAISE EXCEPTION 'new row for relation "customer" violates check constraint "%"', broken
            USING ERRCODE = 'check_violation', CONSTRAINT = broken, TABLE = 'customer';
    END IF;
    RETURN true;
END $$;
-- afterMigrate.sql grants every lockstep_* function to the operators again; granted here too, so that no operator's
-- write is refused for want of it between this migration and that script.
DO $$
BEGIN
    IF pg_catalog.to_regrole('lockstep_operators') IS NOT NULL THEN
        GRANT EXECUTE ON FUNCTION lockstep_customer_valid(text, text, text, text, text, text, text, text, text, text,
                                                          text, text, text, numeric, bigint) TO lockstep_operators;
    END IF;
END $$;

ALTER TABLE customer
    DROP CONSTRAINT customer_external_ref_check,
    DROP CONSTRAINT customer_company_check,
    DROP CONSTRAINT customer_contact_name_check,
    DROP CONSTRAINT customer_contact_title_check,
    DROP CONSTRAINT customer_email_check,
    DROP CONSTRAINT customer_phone_check,
    DROP CONSTRAINT customer_fax_check,
    DROP CONSTRAINT customer_address_check,
    DROP CONSTRAINT customer_city_check,
    DROP CONSTRAINT customer_region_check,
    DROP CONSTRAINT customer_postal_code_check,
    DROP CONSTRAINT customer_country_check,
    DROP CONSTRAINT customer_notes_check,
    DROP CONSTRAINT customer_credit_limit_check,
    DROP CONSTRAINT customer_version_check,
    DROP CONSTRAINT customer_company_or_contact_required,
    ADD CONSTRAINT customer_values_check CHECK (lockstep_customer_valid(external_ref, company, contact_name,
        contact_title, email, phone, fax, address, city, region, postal_code, country, notes, credit_limit, version)),
    ALTER COLUMN search_text DROP EXPRESSION;

COMMENT ON COLUMN customer.search_text IS
    'The list''s search text: company, contact, email, city and country folded by lockstep_fold (V13). Set by the '
    'row trigger when one of them changes (V25).';

-- Until R__20 replaces customer_before_write (see 2. above).
CREATE FUNCTION customer_search_text_interim() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.search_text := ${flyway:defaultSchema}.customer_search_text(NEW.company, NEW.contact_name, NEW.email, NEW.city,
                                                                    NEW.country);
    RETURN NEW;
END $$;
CREATE TRIGGER customer_search_text_interim BEFORE INSERT OR UPDATE ON customer
    FOR EACH ROW EXECUTE FUNCTION customer_search_text_interim();
