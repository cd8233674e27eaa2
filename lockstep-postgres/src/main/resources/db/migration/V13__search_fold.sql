-- Search finds what the operator means, whatever the case, accents and Unicode form: "sao paulo" finds "São Paulo",
-- "lodz" "Łódź", "muller" "Müller", "strasse" "Straße", "ΟΔΟΣ" and "οδος" each other, "İzmir" and "izmir" each other.
-- The row's text and the typed term are folded by ONE function, in SQL, so both sides always agree (folding the term
-- in Java and the row in SQL disagreed on "İ" and on the Greek final sigma).
--
-- The fold: unaccent (PostgreSQL docs, F.48; a trusted extension since PostgreSQL 13, so the database owner may
-- create it), which also drops combining marks, so NFD text folds like NFC; then lower(); then the final sigma as
-- sigma. unaccent() is only STABLE (its dictionary could change), so an index needs an IMMUTABLE wrapper naming the
-- dictionary explicitly, in the schema where the extension lives.

CREATE EXTENSION IF NOT EXISTS unaccent;

-- Functions used by an index are run with a safe search_path (only pg_catalog) when the index is built or
-- maintained (PostgreSQL 17 release notes, "safe search_path during maintenance operations"): every name they use is
-- schema-qualified, the extension's schema and this schema alike, found when this migration runs.
DO $$
DECLARE
    ext  text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'unaccent');
    here text := current_schema();
BEGIN
    EXECUTE format($f$
        CREATE FUNCTION %1$I.lockstep_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS
        $body$ SELECT pg_catalog.translate(pg_catalog.lower(%2$I.unaccent(%3$L::regdictionary, t)), 'ς', 'σ') $body$
        $f$, here, ext, ext || '.unaccent');
    -- A LIKE pattern finding the folded term anywhere, LIKE's wildcards in it taken literally ('!' escapes).
    -- Escaping comes after folding: unaccent turns some characters into wildcards (fullwidth ％ and ＿).
    EXECUTE format($f$
        CREATE FUNCTION %1$I.lockstep_search_pattern(term text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
            STRICT AS
        $body$ SELECT '%%' || pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(%1$I.lockstep_fold(term),
                   '!', '!!'), '%%', '!%%'), '_', '!_') || '%%' $body$
        $f$, here);
    -- The search text of a row, folded. Its index is built anew below: the expression it indexes changes.
    DROP INDEX customer_search_trgm;
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION %1$I.customer_search_text(company text, contact_name text, email text, city text,
                                                             country text)
            RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $body$ SELECT %1$I.lockstep_fold(coalesce(company, '') || ' ' || coalesce(contact_name, '') || ' '
                      || coalesce(email, '') || ' ' || coalesce(city, '') || ' ' || coalesce(country, '')) $body$
        $f$, here);
END $$;

COMMENT ON FUNCTION lockstep_fold(text) IS
    'Search folding: unaccent, lower case, final sigma as sigma. Applied to the row and to the search term alike.';

CREATE INDEX customer_search_trgm ON customer
    USING gin (customer_search_text(company, contact_name, email, city, country) gin_trgm_ops);

-- As in V1__customer.sql: enough samples for the planner to estimate rare search terms well.
ALTER INDEX customer_search_trgm ALTER COLUMN 1 SET STATISTICS 1000;
ANALYZE customer;
