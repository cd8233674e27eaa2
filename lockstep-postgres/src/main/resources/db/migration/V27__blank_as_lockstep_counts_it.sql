-- A company or a contact is blank for every writer as it is for Lockstep: made of nothing but white space as Java
-- counts it (Character.isWhitespace: the Unicode space, line and paragraph separators but the three no-break spaces,
-- and the control characters \t \n \v \f \r and U+001C-U+001F), which Lockstep strips from what it stores. V25's
-- btrim() strips spaces only, so psql could store a company of one tab, which Lockstep read as no company at all and
-- then refused every save of that customer ("Company or contact name is required"; found by an attack on V25, issue
-- 29). Only this rule changes; the function is V25's otherwise. In a SQL_ASCII database (the one encoding besides
-- UTF8 that Lockstep's migrations run in: the others cannot hold V2's text), the server sees bytes, not characters,
-- while Lockstep reads them as UTF-8: there the white space is matched as its UTF-8 bytes (an attack on V27 stored
-- U+3000 there, which Lockstep read as nameless and could not save). A row already stored so keeps its values until a
-- write of it, which must then give it a company or a contact (an UPDATE checks the whole row).

CREATE OR REPLACE FUNCTION lockstep_customer_valid(external_ref text, company text, contact_name text, contact_title text,
                                        email text, phone text, fax text, address text, city text, region text,
                                        postal_code text, country text, notes text, credit_limit numeric,
                                        version bigint)
    RETURNS boolean LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    broken text;
    utf8   boolean := getdatabaseencoding() = 'UTF8';
    bytes  boolean := getdatabaseencoding() = 'SQL_ASCII';
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
        WHEN NOT bytes AND NOT (
                     coalesce(company ~ '[^\t\n\v\f\r\u001C-\u001F \u1680\u2000-\u2006\u2008-\u200A\u2028\u2029\u205F\u3000]',
                              false)
                     OR coalesce(contact_name ~ '[^\t\n\v\f\r\u001C-\u001F \u1680\u2000-\u2006\u2008-\u200A\u2028\u2029\u205F\u3000]',
                                 false))
            THEN 'customer_company_or_contact_required'
        -- The same characters as UTF-8 bytes: U+1680 E1 9A 80, U+2000-U+2006 E2 80 80-86, U+2008-U+200A E2 80 88-8A,
        -- U+2028 and U+2029 E2 80 A8 and A9, U+205F E2 81 9F, U+3000 E3 80 80.
        WHEN bytes AND coalesce(company ~ '^(?:[\t\n\v\f\r\x1C-\x1F ]|\xE1\x9A\x80|\xE2\x80[\x80-\x86\x88-\x8A\xA8\xA9]|\xE2\x81\x9F|\xE3\x80\x80)*$', true)
                  AND coalesce(contact_name ~ '^(?:[\t\n\v\f\r\x1C-\x1F ]|\xE1\x9A\x80|\xE2\x80[\x80-\x86\x88-\x8A\xA8\xA9]|\xE2\x81\x9F|\xE3\x80\x80)*$', true)
            THEN 'customer_company_or_contact_required'
        END;
    IF broken IS NOT NULL THEN
        RAISE EXCEPTION 'new row for relation "customer" violates check constraint "%"', broken
            USING ERRCODE = 'check_violation', CONSTRAINT = broken, TABLE = 'customer';
    END IF;
    RETURN true;
END $$;
