#!/bin/bash
# tcpu.sh IMAGE OUT "extra opts" : per-thread CPU at first page and again at +20s
img=$1; out=$2; extra=$3
export JAVA_TOOL_OPTIONS="-Dlockstep.startupReport=true $extra"
xvfb-run -a -s '-screen 0 1600x900x24' $img/bin/Lockstep --data-dir ${DATA:-/tmp/h30mem-data} >$out.log 2>&1 &
xp=$!
pid=
for i in $(seq 1 1000); do [ -z "$pid" ] && pid=$(pgrep -f "^$img/bin/Lockstep" | head -1); grep -q 'first-page' $out.log 2>/dev/null && break; sleep 0.02; done
snap() { for t in /proc/$pid/task/*; do awk -v n="$(cat $t/comm)" '{printf "%6d %s\n", ($14+$15)*10, n}' $t/stat; done | sort -rn | awk '{s+=$1; print} END {print s, "TOTAL"}'; }
snap > $out.fp
sleep 20
snap > $out.idle
grep -E 'RssAnon|RssFile|VmRSS' /proc/$pid/status >> $out.idle
[ -n "$POST" ] && eval "$POST"
kill $pid; wait $xp
