#!/bin/bash
# desktop-only training of image $1 on data dir $2 (already running server)
img=$1
export JAVA_TOOL_OPTIONS="-XX:AOTCacheOutput=$img/lib/app/lockstep.aot -Dlockstep.startupReport=true"
$img/bin/Lockstep --data-dir $2 > /tmp/h30p/train-dt.log 2>&1 &
p=$!
for i in $(seq 1 600); do grep -q '^lockstep-startup first-page' /tmp/h30p/train-dt.log && break; sleep 0.2; done
kill -TERM $p; wait $p
echo 'java-options=-XX:AOTCache=$APPDIR/lockstep.aot' >> $img/lib/app/Lockstep.cfg
ls -la $img/lib/app/lockstep.aot
