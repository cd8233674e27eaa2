#!/bin/bash
# browse.sh IMAGE DATA OUT : desktop on DATA under Xvfb, then browse with xdotool, RSS samples
img=$1; data=$2; out=$3
export JAVA_TOOL_OPTIONS="-Dlockstep.startupReport=true $EXTRA -Xlog:gc:file=$out-gc-%p.log"
Xvfb :77 -screen 0 1600x900x24 -nolisten tcp >/dev/null 2>&1 & xv=$!
export DISPLAY=:77
sleep 1
$img/bin/Lockstep --data-dir $data > $out.log 2>&1 & ap=$!
for i in $(seq 1 300); do grep -q first-page $out.log && break; sleep 0.2; done
sleep 2
rss() { echo "$1 $(grep -E 'VmRSS|VmHWM' /proc/$ap/status | tr -s ' ' | tr '\n' ' ')"; }
rss first-page
import -window root $out-1.png
eval "$STEPS"
sleep 20
rss idle-after-browsing
import -window root $out-2.png
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd
$J $ap GC.heap_info > $out.heap 2>&1
grep -E 'RssAnon|RssFile|RssShmem' /proc/$ap/status > $out.status
$J $ap GC.class_histogram > $out.histo 2>&1
$J $ap GC.heap_info > $out.heap2 2>&1
rss after-full-gc
kill $ap; wait $ap; kill $xv
