-- Seeds a scratch database, migrated to V17, with 1,000,000 customers and a year of history for the conflict report's
-- measurement (docs/benchmarks.md, "The conflict report"). Never run it on a database you care about.
-- psql -d SCRATCH -f docs/bench/conflict-report-seed.sql
SET synchronous_commit = off;
INSERT INTO customer (external_ref, company, contact_name, city, country)
SELECT 'B-' || g, 'Company ' || g, 'Contact ' || g, 'City ' || (g % 5000), 'Country ' || (g % 100)
FROM generate_series(1, 1000000) g;
-- The customers were created a year ago ...
UPDATE customer_history SET changed_at = now() - interval '366 days' WHERE op = 'INSERT';
-- ... then 10,000 saves a day were appended for a year, in time order, as the history trigger appends them.
INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row)
SELECT 1 + (g::bigint * 7919) % 1000000, 2 + g / 1000000, 'UPDATE', 'op' || (g % 40),
       now() - interval '365 days' + make_interval(secs => g * (365 * 86400.0 / 3650000)), '{}'::jsonb
FROM generate_series(1, 3650000) g;
-- 1 % of saves met a conflict (36,500 in the year), a tenth of them on 50 hot customers.
INSERT INTO customer_conflict (customer_id, detected_at, detected_by, kind)
SELECT CASE WHEN g % 10 = 0 THEN 1 + g % 50 ELSE 1 + (g::bigint * 104729) % 1000000 END,
       now() - interval '365 days' + make_interval(secs => g * (365 * 86400.0 / 36500)), 'op' || (g % 40),
       CASE WHEN g % 20 = 0 THEN 'delete' ELSE 'save' END
FROM generate_series(1, 36500) g;
INSERT INTO conflict_event (kind, customer_id, happened_at, operator, count)
SELECT (ARRAY['merge_saved', 'merge_abandoned', 'lease_wait', 'lab_retries_exhausted'])[1 + g % 4],
       1 + (g::bigint * 104729) % 1000000, now() - interval '365 days' + make_interval(secs => g * (365 * 86400.0 / 30000)),
       'op' || (g % 40), 1
FROM generate_series(1, 30000) g;
-- 20,000 lease grants; a third released, a tenth broken, the rest lapse.
INSERT INTO lease_event (record_id, token, holder, event, actor, at, expires_at)
SELECT 1 + (g::bigint * 7919) % 1000000, g, 'op' || (g % 40), 'acquired', 'op' || (g % 40),
       now() - interval '365 days' + make_interval(secs => g * (365 * 86400.0 / 20000)),
       now() - interval '365 days' + make_interval(secs => g * (365 * 86400.0 / 20000) + 60)
FROM generate_series(1, 20000) g;
INSERT INTO lease_event (record_id, token, holder, event, actor, at)
SELECT record_id, token, holder, CASE WHEN token % 10 = 0 THEN 'broken' ELSE 'released' END, holder,
       at + interval '30 seconds'
FROM lease_event WHERE event = 'acquired' AND (token % 3 = 0 OR token % 10 = 0);
-- History written by hand and dated in the past: drop any saves counted ahead (V18__save_counts.sql) so that the next
-- report counts them again (a report run before this seed stored zeros for the last days).
DELETE FROM customer_save_count;
VACUUM ANALYZE;
