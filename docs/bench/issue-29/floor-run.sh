#!/bin/bash
# Issue 29's floor under the one-client save ratio: a bare versioned UPDATE on a primary-key-only copy (A), the same
# plus a history row with the new row as JSON (B), plus a notification (C): pgbench, one client (C=8 for eight),
# 5 s each, interleaved rounds, on a Lockstep data directory's embedded server (DATA, default /tmp/i29-1m).
# The tables, made once as the superuser lockstep:
#   CREATE TABLE floor_bare (LIKE customer, PRIMARY KEY (id));
#   INSERT INTO floor_bare SELECT * FROM customer WHERE id <= 20000;
#   CREATE TABLE floor_hist (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, customer_id bigint NOT NULL,
#       version bigint NOT NULL, op text NOT NULL, changed_by text NOT NULL, changed_at timestamptz NOT NULL
#       DEFAULT now(), old_row jsonb, new_row jsonb);
#   VACUUM ANALYZE floor_bare;
here="$(cd "$(dirname "$0")" && pwd)"
data="${DATA:-/tmp/i29-1m}"
export PGPASSWORD=$(cat "$data/password") PGHOST=127.0.0.1 PGPORT=$(cat "$data/port") PGUSER=lockstep PGDATABASE=lockstep
P=/usr/lib/postgresql/15/bin
for r in $(seq 1 ${ROUNDS:-6}); do
  l=$(cut -d' ' -f1 /proc/loadavg)
  a=$($P/pgbench -n -c${C:-1} -j${C:-1} -T5 -f "$here/floorA.sql" 2>&1 | awk '/^tps/{print $3}')
  b=$($P/pgbench -n -c${C:-1} -j${C:-1} -T5 -f "$here/floorB.sql" 2>&1 | awk '/^tps/{print $3}')
  c=$($P/pgbench -n -c${C:-1} -j${C:-1} -T5 -f "$here/floorC.sql" 2>&1 | awk '/^tps/{print $3}')
  printf "round %s load %s  A %.0f  B %.0f  C %.0f  B/A %.3f  C/A %.3f\n" $r $l $a $b $c $(echo "$b/$a" | bc -l) $(echo "$c/$a" | bc -l)
done
