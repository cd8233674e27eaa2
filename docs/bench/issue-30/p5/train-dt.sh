#!/bin/bash
# train-dt.sh IMAGE DATA : trains IMAGE's cache on a warm desktop start to its first page (+ EXTRA_WAIT s)
img=$1; data=$2
cache=$img/lib/app/lockstep.aot
env -u JAVA_TOOL_OPTIONS $img/bin/Lockstep --data-dir $data get 1 >/dev/null
export JAVA_TOOL_OPTIONS="-XX:AOTCacheOutput=$cache -Dlockstep.startupReport=true"
log=/tmp/s40p/train-$(basename $img).log
xvfb-run -a -s '-screen 0 1600x900x24' $img/bin/Lockstep --data-dir $data >$log 2>&1 &
xp=$!
for i in $(seq 1 600); do grep -q '^lockstep-startup first-page' $log && break; sleep 0.2; done
sleep ${EXTRA_WAIT:-0}
pid=$(pgrep -f "^$img/bin/Lockstep" | head -1)
kill -TERM $pid; wait $xp
unset JAVA_TOOL_OPTIONS
ls -la $cache
echo 'java-options=-XX:AOTCache=$APPDIR/lockstep.aot' >> $img/lib/app/Lockstep.cfg
