-- Search finds a row whatever Unicode form its writer stored it in. Lockstep's clients store and search NFC, but the
-- fold (V13, V19) composed nothing: unaccent drops the Latin combining marks, so NFD Latin text folded like NFC, but a
-- writer that stored Korean as conjoining jamo (NFD, as macOS keyboards and some scripts send it), or the precomposed
-- Devanagari QA U+0958 (which NFC decomposes: a composition exclusion), was not found by what an operator types, and
-- the same held for every other script unaccent does not know (found by an attack on V25, issue 29). The fold now
-- brings the text to NFC first, the row's and the typed term's alike. normalize() needs a UTF8 database; elsewhere the
-- fold is as before. Its cost on ASCII text is PostgreSQL's quick check.
DO $$
DECLARE
    ext  text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'unaccent');
    here text := current_schema();
    nfc  text := CASE WHEN getdatabaseencoding() = 'UTF8' THEN 'pg_catalog.normalize(t, ''NFC'')' ELSE 't' END;
BEGIN
    -- Schema-qualified throughout: functions an index or a trigger uses run with a safe search_path (as in V13, V19).
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION %1$I.lockstep_fold(t text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
            STRICT AS
        $body$ BEGIN RETURN pg_catalog.translate(pg_catalog.lower(%2$I.unaccent(%3$L::regdictionary, %4$s)), 'ς', 'σ');
        END $body$
        $f$, here, ext, ext || '.unaccent', nfc);
END $$;

COMMENT ON FUNCTION lockstep_fold(text) IS
    'Search folding: NFC (UTF8 databases), unaccent, lower case, final sigma as sigma. Applied to the row and to the '
    'search term alike.';

-- The rows whose stored text the new fold changes are written again without their triggers: none of their values
-- changes, so no version, stamp, history row or notification is due (the owner, who runs the migrations, may disable
-- its table's triggers; the CHECK still holds). Only the trigram and pair indexes of those rows change. On a million
-- customers this reads every row once and computes its text twice.
ALTER TABLE customer DISABLE TRIGGER USER;
UPDATE customer SET search_text = customer_search_text(company, contact_name, email, city, country)
WHERE search_text IS DISTINCT FROM customer_search_text(company, contact_name, email, city, country);
ALTER TABLE customer ENABLE TRIGGER USER;
