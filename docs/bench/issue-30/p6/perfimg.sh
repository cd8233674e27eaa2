#!/bin/bash
# perfimg.sh IMAGE DATA OUT : perf record (cpu-clock, 4 kHz, call graphs off) of the image's desktop from launch to its first page
img=$1; data=$2; out=$3
Xvfb :142 -screen 0 1600x900x24 -nolisten tcp >/dev/null 2>&1 & x=$!
sleep 1
DISPLAY=:142 JAVA_TOOL_OPTIONS="-Dlockstep.startupReport=true -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" perf record -F 4000 -o $out.data -- $img/bin/Lockstep --data-dir $data > $out.log 2>&1 &
pr=$!
for i in $(seq 1 600); do grep -q first-page $out.log && break; sleep 0.02; done
pid=$(pgrep -f "^$img/bin/Lockstep -classpath" | head -1)
cpu=$(awk '{print $14+$15}' /proc/$pid/stat)
echo "pid $pid cpu-ticks-at-first-page $cpu" >> $out.log
kill $pid; wait $pr; kill $x; wait $x 2>/dev/null
