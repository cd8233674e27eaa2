-- EXPLAIN ANALYZE of every query of the conflict report (store/JdbiConflictReports), for the last :days days:
-- psql -d SCRATCH -v days=30 -f docs/bench/conflict-report-explain.sql
\set zone '''UTC'''
\timing on
BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;
-- :from / :to for the last N days
SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - (:days - 1) * interval '1 day' AS from_ts,
       date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 day' AS to_ts \gset
-- Saves per day (store/SaveCounts): the counts per settled quarter-hour (V18; docs/bench/conflict-report-fill.sql
-- stores them as the first report does) for every day whose quarter-hours are all counted ...
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT (period AT TIME ZONE :zone)::date AS day, sum(saves) AS n, count(*) AS periods
FROM customer_save_count WHERE period >= :'from_ts' AND period < :'to_ts' GROUP BY 1;
-- ... and the rest from the history: yesterday and today, whose last quarter-hours have not settled (a day).
SELECT date_trunc('day', now() AT TIME ZONE 'UTC' - interval '1 day') AT TIME ZONE 'UTC' AS live_ts \gset
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT (changed_at AT TIME ZONE :zone)::date AS day, count(*) AS n FROM customer_history
WHERE changed_at >= :'live_ts' AND changed_at < :'to_ts' AND op = 'UPDATE' GROUP BY 1;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT (detected_at AT TIME ZONE :zone)::date AS day, count(*) AS n FROM customer_conflict
WHERE detected_at >= :'from_ts' AND detected_at < :'to_ts' AND kind = 'save' GROUP BY 1;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT (happened_at AT TIME ZONE :zone)::date AS day, kind, sum(count) AS n FROM conflict_event
WHERE happened_at >= :'from_ts' AND happened_at < :'to_ts' GROUP BY 1, 2;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT (at AT TIME ZONE :zone)::date AS day, count(*) AS n FROM lease_event
WHERE event = 'broken' AND at >= :'from_ts' AND at < :'to_ts' GROUP BY 1;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT (g.expires_at AT TIME ZONE :zone)::date AS day, count(*) AS n FROM lease_event g
WHERE g.event IN ('acquired', 'expired_takeover')
  AND g.expires_at >= :'from_ts' AND g.expires_at < least(:'to_ts'::timestamptz, now())
  AND NOT EXISTS (SELECT 1 FROM lease_event e WHERE e.record_id = g.record_id AND e.token = g.token
                  AND e.event IN ('released', 'broken'))
  AND NOT EXISTS (SELECT 1 FROM lease_event n WHERE n.record_id = g.record_id AND n.id > g.id
                  AND n.event IN ('acquired', 'expired_takeover') AND n.at = g.expires_at)
GROUP BY 1;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT customer_id, count(*) AS n FROM customer_conflict
WHERE detected_at >= :'from_ts' AND detected_at < :'to_ts'
GROUP BY customer_id ORDER BY n DESC, customer_id LIMIT 10;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT customer_id, detected_by, count(*) AS n FROM customer_conflict
WHERE customer_id = ANY('{1,2,3,4,5,6,7,8,9,10}'::bigint[]) AND detected_at >= :'from_ts' AND detected_at < :'to_ts'
GROUP BY 1, 2 ORDER BY 1, n DESC, detected_by;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT customer_id, count(*) AS n FROM customer_history
WHERE customer_id = ANY('{1,2,3,4,5,6,7,8,9,10}'::bigint[]) AND op = 'UPDATE' AND changed_at >= :'from_ts' AND changed_at < :'to_ts'
GROUP BY 1;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT customer_id, count(*) AS n FROM customer_conflict
WHERE detected_at > now() - make_interval(secs => 604800)
GROUP BY customer_id HAVING count(*) >= 3 ORDER BY n DESC, customer_id LIMIT 20;
COMMIT;
