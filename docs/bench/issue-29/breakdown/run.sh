#!/bin/bash
# Issue 29 round 3: the breakdown of a one-client save's time (setup.sql made the tables). All scripts interleaved in
# one pgbench run (each transaction picks a script at random; pgbench reports each apart), one client, T seconds
# (default 60), synchronous_commit as SC says (default off: the server's work without the flush's wait).
here="$(cd "$(dirname "$0")" && pwd)"
data="${DATA:-/tmp/i29-1m}"
export PGPASSWORD=$(cat "$data/password") PGHOST=127.0.0.1 PGPORT=$(cat "$data/port") PGUSER=lockstep PGDATABASE=lockstep
export PGOPTIONS="-c synchronous_commit=${SC:-off}"
P=/usr/lib/postgresql/15/bin
cd "$here"
echo "load $(cut -d' ' -f1-3 /proc/loadavg)  synchronous_commit=${SC:-off} mode=${MODE:-prepared}  $(date -u +%H:%M:%S)"
$P/pgbench -n -M ${MODE:-prepared} -c1 -j1 -T${T:-60} ${SCRIPTS:-$(for s in A C H K G I T1 T2 T3 T4 T5 T6 R LB L; do printf -- '-f %s.sql ' $s; done)} 2>&1 \
  | awk '/^SQL script/{s=$4} / transactions \(/{n=$2} /latency average/{if(s!="") printf "%-8s %7s ms  (%s transactions)\n", s, $5, n} /^tps/{print}'
echo "load $(cut -d' ' -f1-3 /proc/loadavg)  $(date -u +%H:%M:%S)"
