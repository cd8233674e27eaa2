#!/bin/bash
# jfr-img.sh IMAGE DATA OUT: JFR (profile) of an app image's desktop from launch to its first page
img=$1; data=$2; out=$3
JAVA_TOOL_OPTIONS="-XX:StartFlightRecording=name=s,settings=profile,jdk.ExecutionSample#period=2ms -Dlockstep.startupReport=true" \
  xvfb-run -a -s '-screen 0 1600x900x24' $img/bin/Lockstep --data-dir $data > $out.log 2>&1 &
xp=$!
for i in $(seq 1 600); do grep -q first-page $out.log && break; sleep 0.05; done
pid=$(pgrep -f "^$img/bin/Lockstep" | head -1)
/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $pid JFR.dump name=s filename=$out.jfr >/dev/null
kill $pid; wait $xp
