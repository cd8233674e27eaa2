-- Issue 29 round 3, fifth set (after setup-4.sql): T5FG, V25's shape on T5: one CHECK calling a PL/pgSQL function
-- (bd_valid, setup-2.sql, as lockstep_customer_valid) and the search text kept by the row trigger.
SET search_path = public;
DROP TABLE IF EXISTS bd_t5fg CASCADE;
CREATE TABLE bd_t5fg (LIKE bd_t5g INCLUDING ALL);
INSERT INTO bd_t5fg SELECT * FROM bd_t5g;
DO $$
DECLARE
    c record;
BEGIN
    FOR c IN SELECT conname FROM pg_constraint WHERE conrelid = 'bd_t5fg'::regclass AND contype = 'c' LOOP
        EXECUTE format('ALTER TABLE bd_t5fg DROP CONSTRAINT %I', c.conname);
    END LOOP;
END $$;
ALTER TABLE bd_t5fg ADD CONSTRAINT bd_t5fg_check CHECK (bd_valid(external_ref, company, contact_name, contact_title,
    email, phone, fax, address, city, region, postal_code, country, notes, credit_limit, version));
CREATE TRIGGER bd_t5fg BEFORE UPDATE ON bd_t5fg FOR EACH ROW EXECUTE FUNCTION bd_t5x('g');
VACUUM ANALYZE bd_t5fg;
