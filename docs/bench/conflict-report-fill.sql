-- The first report's work on a year of history (store/SaveCounts.fill): every settled quarter-hour from 367 days ago
-- to a day ago counted and stored, 7 days per statement, as the report does; the statement's time printed for each chunk.
-- Drops the stored counts first, so it measures a cold fill each time. Never on a database you care about:
-- psql -d SCRATCH -f docs/bench/conflict-report-fill.sql
\timing on
DELETE FROM customer_save_count;
SELECT date_bin('15 minutes', now() - interval '367 days', timestamptz '2000-01-01 00:00+00') + interval '15 minutes'
           AS fill_from,
       date_bin('15 minutes', now() - interval '1 day', timestamptz '2000-01-01 00:00+00') AS fill_to \gset
SELECT format($f$
    INSERT INTO customer_save_count (period, saves)
    SELECT p, coalesce(c.n, 0)
    FROM generate_series(%1$L::timestamptz, %2$L::timestamptz - interval '15 minutes', interval '15 minutes') p
    LEFT JOIN (SELECT date_bin('15 minutes', changed_at, timestamptz '2000-01-01 00:00+00') AS q, count(*) AS n
               FROM customer_history
               WHERE op = 'UPDATE' AND changed_at >= %1$L AND changed_at < %2$L GROUP BY 1) c ON c.q = p
    ON CONFLICT (period) DO NOTHING$f$, a, least(a + interval '7 days', :'fill_to'::timestamptz))
FROM generate_series(:'fill_from'::timestamptz, :'fill_to'::timestamptz - interval '15 minutes', interval '7 days') a
\gexec
SELECT count(*) AS quarter_hours, sum(saves) AS saves FROM customer_save_count;
