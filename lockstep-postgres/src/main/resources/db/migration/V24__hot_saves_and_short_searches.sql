-- Issue 29: a save that changes no search or sort field writes no index entry, and a search of one or two characters
-- is served by an index. Figures in docs/benchmarks.md, "Issue 29"; the design in ADR 0020.
--
-- 1. No index on a column every write changes. Every write stamps updated_at, and customer_updated_at_key (V1) indexed
--    it, so no UPDATE of a customer could be a heap-only tuple (HOT; PostgreSQL docs, 65.7 "Heap-Only Tuples"): each
--    save inserted an entry into all ten of the table's indexes, the trigram index's pending list included (0 HOT of
--    17,487 saves measured). The Updated order is kept by a narrow table of its own, customer_updated (updated_at, id),
--    which the customer's triggers keep equal to the customer table for every writer (R__20_customer_triggers.sql): a
--    save moves one entry of one small index instead of ten. Its rows are found by their key, which the trigger knows
--    from the old row, so the table needs no second index. The list walks it joined to the customer by id and time
--    (store/CustomerListQuery), so a row it holds for a time the customer no longer has is skipped, never shown.
--
-- 2. Room on every page for a row's next version: a HOT update needs free space on the row's own page. fillfactor 85
--    leaves 15 % of each page free when rows are inserted or the table rewritten (measured against 80 and 90 in
--    docs/benchmarks.md); pages already full stay full until their rows move, so each customer written before this
--    migration moves once, at its first save, to a page with room.
--
-- 3. Searches of one or two characters find substrings, served by an index of the distinct characters and pairs of
--    characters of each row's search text (lockstep_search_grams): trigrams cannot serve them (pg_trgm extracts no
--    trigram from '%ab%'), and the word-start rule of V16 made typing a third character find rows that two did not
--    ("go" missed "Chicago", "gon" found "Aragon"). The index is on an expression of search_text only, so a save
--    that leaves the searched fields alone leaves it alone too (1.).
--
-- 4. The first searches after the server starts meet a cold cache: lockstep_warm_up() loads the customer's search and
--    sort indexes, then the table, into PostgreSQL's buffers with pg_prewarm (PostgreSQL docs, F.27), where that
--    extension is installed (the embedded server installs it; on a team server an administrator does, admin guide).
--    Lockstep's desktop calls it once at start, in the background, on a connection of its own (CacheWarmUp).
--
-- The migration drops an index first, which takes the customer table's strongest lock: no write runs until it commits
-- (Database.MIGRATION_LOCK_TIMEOUT_MS bounds how long it waits for one). About a minute for a million customers, most
-- of it building the new index.

DROP INDEX customer_updated_at_key;

CREATE TABLE customer_updated (
    updated_at timestamptz NOT NULL,
    id         bigint      NOT NULL,
    CONSTRAINT customer_updated_key PRIMARY KEY (updated_at, id)
);

COMMENT ON TABLE customer_updated IS
    'The Updated order of the list: each customer''s (updated_at, id), kept by the customer''s triggers (V24).';

-- Filled here and checked again by R__20 (which Flyway runs after this migration, in a transaction of its own) once the
-- triggers that keep it are in place: a write committed between the two is caught there.
INSERT INTO customer_updated (updated_at, id) SELECT updated_at, id FROM customer;

ALTER TABLE customer SET (fillfactor = 85);

-- The characters and pairs of adjacent characters of a text: 'müll' → {m, ü, l, l, mü, ül, ll}. A text holds a
-- substring of one or two characters exactly when this array holds it, so the GIN index below answers such a search
-- without a recheck; a longer substring needs all its pairs, a necessary condition that the LIKE beside it completes.
-- GIN sorts the elements and drops the duplicates itself (ginExtractEntries), so this leaves them. Measured on a
-- million customers' texts (81 characters on average), per row: this loop 1.0, the same with array_append 1.1,
-- SELECT DISTINCT over generate_series 8 to 11, three regexp_replace and regexp_split_to_array calls 1.9 to 2.4,
-- pg_trgm's own show_trgm 0.45 (docs/benchmarks.md). PL/pgSQL keeps its plans for the session, where an SQL function
-- of a query's shape is planned again in every statement that calls it (V19). Only pg_catalog's functions, named as
-- such: index expressions run with a safe search_path during maintenance (PostgreSQL 17 release notes).
CREATE FUNCTION lockstep_search_grams(t text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    chars text[] := pg_catalog.regexp_split_to_array(t, '');
    grams text[] := chars;
BEGIN
    FOR i IN 1 .. pg_catalog.cardinality(chars) - 1 LOOP
        grams := grams || (chars[i] || chars[i + 1]);
    END LOOP;
    RETURN grams;
END $$;

-- What a search term needs of a row's grams: its folded self when it is one or two characters long, else its pairs.
CREATE FUNCTION lockstep_term_grams(term text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    folded text := lockstep_fold(term);
BEGIN
    IF pg_catalog.char_length(folded) <= 2 THEN
        RETURN ARRAY[folded];
    END IF;
    RETURN ARRAY(SELECT DISTINCT pg_catalog.substr(folded, i, 2) COLLATE "C"
                 FROM pg_catalog.generate_series(1, pg_catalog.char_length(folded) - 1) i);
END $$;

CREATE INDEX customer_search_grams ON customer USING gin (lockstep_search_grams(search_text));

-- As for the trigram index (V1, V19): enough samples that the planner's estimate of a rare pair is near the truth.
ALTER INDEX customer_search_grams ALTER COLUMN 1 SET STATISTICS 1000;

-- Loads what the list reads into the buffer cache (4. above): the indexes the list's searches and orders use, then the
-- customer table, each while the loaded pages fit in three quarters of shared_buffers (a relation loaded past that
-- would push out the ones before it); what does not fit is only read ahead into the operating system's cache
-- ('prefetch'), where a build supports it. Returns the pages loaded; 0 where pg_prewarm is not installed. The owner's
-- rights: pg_prewarm needs SELECT on each relation, and an index grants nothing to anyone but its owner.
CREATE FUNCTION lockstep_warm_up() RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp AS $$
DECLARE
    ext    text := (SELECT n.nspname FROM pg_catalog.pg_extension e
                    JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_prewarm');
    room   bigint := (SELECT setting::bigint FROM pg_catalog.pg_settings WHERE name = 'shared_buffers') * 3 / 4;
    rel    regclass;
    pages  bigint;
    loaded bigint := 0;
BEGIN
    IF ext IS NULL THEN
        RETURN 0;
    END IF;
    FOREACH rel IN ARRAY ARRAY['customer_pkey', 'customer_search_grams', 'customer_search_trgm', 'customer_updated_key',
                               'customer_updated', 'customer_name_key', 'customer_company_key',
                               'customer_contact_name_key', 'customer_email_key', 'customer_city_key',
                               'customer_country_key', 'customer']::regclass[]
    LOOP
        pages := pg_catalog.pg_relation_size(rel) / pg_catalog.current_setting('block_size')::int;
        IF loaded + pages <= room THEN
            EXECUTE format('SELECT %I.pg_prewarm($1, ''buffer'')', ext) INTO pages USING rel;
            loaded := loaded + pages;
        ELSE
            BEGIN
                EXECUTE format('SELECT %I.pg_prewarm($1, ''prefetch'')', ext) USING rel;
            EXCEPTION WHEN feature_not_supported THEN
                NULL; -- a build without posix_fadvise: what does not fit stays where it is
            END;
        END IF;
    END LOOP;
    RETURN loaded;
END $$;

ANALYZE customer;
ANALYZE customer_updated;
