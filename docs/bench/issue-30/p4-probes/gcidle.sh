#!/bin/bash
# gcidle.sh IMAGE "extra opts" GC(yes|no): RSS 20 s after the first page, with or without a full GC at 8 s
img=$1; extra=$2; gc=$3; out=/tmp/s39p/gcidle.log
export JAVA_TOOL_OPTIONS="-Dlockstep.startupReport=true $extra"
xvfb-run -a -s '-screen 0 1600x900x24' $img/bin/Lockstep --data-dir /tmp/s39-data >$out 2>&1 &
xp=$!
for i in $(seq 1 1000); do grep -q 'first-page' $out 2>/dev/null && break; sleep 0.02; done
pid=$(pgrep -f "^$img/bin/Lockstep" | head -1)
sleep 8
[ "$gc" = yes ] && /usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $pid GC.run >/dev/null
sleep 12
echo "$gc [$extra] $(grep VmRSS /proc/$pid/status) $(/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $pid GC.heap_info | grep -o 'total [0-9]*K, used [0-9]*K' | head -2 | tr '\n' ' ')"
kill $pid; wait $xp
