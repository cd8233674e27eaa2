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
-- customers this reads every row once and computes its text twice. Each trigger is put back as it was: a DBA's own
-- trigger left disabled stays disabled, and one set ENABLE ALWAYS or ENABLE REPLICA keeps firing for replicated
-- writes (ALTER TABLE ... ENABLE TRIGGER USER would have made every one of them an enabled ORIGIN trigger; found by
-- an attack on V26).
DO $$
DECLARE
    names  text[];
    states text[];
BEGIN
    SELECT array_agg(tgname::text ORDER BY tgname), array_agg(tgenabled::text ORDER BY tgname) INTO names, states
    FROM pg_catalog.pg_trigger WHERE tgrelid = 'customer'::regclass AND NOT tgisinternal AND tgenabled <> 'D';
    FOR i IN 1 .. coalesce(pg_catalog.cardinality(names), 0) LOOP
        EXECUTE format('ALTER TABLE customer DISABLE TRIGGER %I', names[i]);
    END LOOP;
    UPDATE customer SET search_text = customer_search_text(company, contact_name, email, city, country)
    WHERE search_text IS DISTINCT FROM customer_search_text(company, contact_name, email, city, country);
    FOR i IN 1 .. coalesce(pg_catalog.cardinality(names), 0) LOOP
        EXECUTE format('ALTER TABLE customer ENABLE %s TRIGGER %I',
                       CASE states[i] WHEN 'A' THEN 'ALWAYS' WHEN 'R' THEN 'REPLICA' ELSE '' END, names[i]);
    END LOOP;
END $$;
