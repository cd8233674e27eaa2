-- Saves counted ahead of time for the conflict report (issue 15): a year of saves per day took ~5 s to count from
-- customer_history on every report (docs/benchmarks.md, "The conflict report"). Nothing is added to a save: no
-- trigger on customer or on INSERT into customer_history, no counter row a save would update. Instead the report
-- itself (store/SaveCounts) counts each SETTLED quarter-hour once, stores the count here, and counts only the
-- unsettled rest live.
--
-- Quarter-hours on the UTC clock, not days: a day of any report zone begins on a quarter-hour (every offset in use
-- is a multiple of 15 minutes), so every zone's day is a sum of whole rows here. A zone whose day does not (an old
-- local mean time) is counted live.
--
-- Settled: the quarter-hour ended more than a day ago by the database clock (SaveCounts.SETTLE). A history row is
-- stamped with clock_timestamp() while its statement runs (V9 customer_stamp) and becomes visible at its commit;
-- Lockstep's transactions end within seconds (statement_timeout 10 s, idle_in_transaction_session_timeout 60 s), so a
-- row that appears after its quarter-hour settled needs a transaction left open for a day (psql) or a hand-written
-- INSERT of history dated in the past. Neither is a Lockstep path; whoever does it recounts the days concerned by
-- deleting their rows here (the next report counts them again), e.g.
--   DELETE FROM customer_save_count WHERE period >= '2026-03-01' AND period < '2026-04-01';
--
-- Rows removed from or moved within the history (an administrator's purge: Lockstep never deletes history, so it has
-- no retention job of its own; an UPDATE of changed_at; a TRUNCATE) drop the counts of the quarter-hours they touch,
-- by the statement triggers below. Saves only INSERT history rows, so these triggers never run on a save. The next
-- report counts those quarter-hours again from what is left, so a count always equals a direct count of the history.

-- Counting a quarter-hour reads only the blocks that hold saves: V17's BRIN index on changed_at is made partial
-- (op = 'UPDATE'), so the blocks of a bulk creation (a million INSERT rows of an import or `generate`, all within a few
-- quarter-hours) summarise as empty and are skipped, where before the count read every one of them (10 s for the
-- month holding the million creations of docs/bench/conflict-report-seed.sql). A save's history row costs the index
-- what it did; a creation's now costs it nothing.
DROP INDEX customer_history_changed_at;
CREATE INDEX customer_history_saved_at ON customer_history USING brin (changed_at) WITH (pages_per_range = 32)
    WHERE op = 'UPDATE';

CREATE TABLE customer_save_count (
    -- The start of the quarter-hour (UTC-aligned); the row counts saves with period <= changed_at < period + 15 min.
    period     timestamptz PRIMARY KEY CHECK (date_bin('15 minutes', period, timestamptz '2000-01-01 00:00+00') = period),
    -- UPDATE rows of customer_history in that quarter-hour; 0 is stored too, so "counted" and "none" differ.
    saves      bigint      NOT NULL CHECK (saves >= 0),
    counted_at timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE customer_save_count IS
    'Saves (customer_history UPDATE rows) per settled UTC quarter-hour, filled by the conflict report; never by a save.';

-- Counting and invalidating take the same transaction-level advisory lock, so a count computed from a snapshot that
-- still saw rows a concurrent purge removes is never stored after the purge dropped its quarter-hour: whichever
-- comes second waits for the first to commit (PostgreSQL docs, 13.3.5 Advisory Locks). Key: this table's oid.
CREATE FUNCTION customer_save_count_drop() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock('customer_save_count'::regclass::oid::int, 0);
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM customer_save_count;
    ELSIF TG_OP = 'DELETE' THEN
        DELETE FROM customer_save_count WHERE period IN (
            SELECT date_bin('15 minutes', changed_at, timestamptz '2000-01-01 00:00+00') FROM old_rows
            WHERE op = 'UPDATE');
    ELSE
        DELETE FROM customer_save_count WHERE period IN (
            SELECT date_bin('15 minutes', changed_at, timestamptz '2000-01-01 00:00+00') FROM old_rows
            WHERE op = 'UPDATE'
            UNION
            SELECT date_bin('15 minutes', changed_at, timestamptz '2000-01-01 00:00+00') FROM new_rows
            WHERE op = 'UPDATE');
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER customer_history_delete_counts AFTER DELETE ON customer_history REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_save_count_drop();
CREATE TRIGGER customer_history_update_counts AFTER UPDATE ON customer_history
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION customer_save_count_drop();
CREATE TRIGGER customer_history_truncate_counts AFTER TRUNCATE ON customer_history
    FOR EACH STATEMENT EXECUTE FUNCTION customer_save_count_drop();

-- A timeline's "re-created as #N" (issue 15, store/StoryQueries.RECREATED): the customer created later with a deleted
-- one's external reference, found by its creation in the history, so that one re-created and deleted again is still
-- found (the live table forgets it). Partial: only creations (op 'INSERT') get an entry — a save's history row is
-- tested against the predicate and skipped, so saves stay as lean as issue 13 left them.
CREATE INDEX customer_history_created_ref ON customer_history ((new_row ->> 'external_ref'), customer_id)
    WHERE op = 'INSERT';
