-- Copies of the first 100,000 customers with every column, constraint and index of the customer table after V24 (no
-- index on updated_at), no trigger, one per fill factor: where an update's new row version fits is what differs
-- (docs/benchmarks.md, issue 29). As the owner or a superuser, on a data directory of at least 100,000 customers:
--   psql -f fillfactor-setup.sql && psql -c 'VACUUM ANALYZE ff80, ff85, ff90, ff100'
--   for ff in 80 85 90 100; do pgbench -n -c 4 -j 2 -T 35 -D tbl=ff$ff -f fillfactor-update.sql; done  (twice)
--   SELECT relname, n_tup_upd, n_tup_hot_upd, pg_relation_size(relid) / 8192 FROM pg_stat_user_tables
--   WHERE relname LIKE 'ff%';   -- then DROP TABLE ff80, ff85, ff90, ff100
DO $$
DECLARE
    cols text := (SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
                  WHERE attrelid = 'customer'::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '');
    ff int;
BEGIN
    FOREACH ff IN ARRAY ARRAY[80, 85, 90, 100] LOOP
        EXECUTE format('DROP TABLE IF EXISTS ff%s', ff);
        EXECUTE format('CREATE TABLE ff%s (LIKE customer INCLUDING ALL) WITH (fillfactor = %s)', ff, ff);
        EXECUTE format('INSERT INTO ff%s (%s) SELECT %s FROM customer WHERE id <= 100000', ff, cols, cols);
    END LOOP;
END $$;
