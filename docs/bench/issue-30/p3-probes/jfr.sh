#!/bin/bash
/usr/lib/jvm/temurin-25-jdk-amd64/bin/java --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms16m -Xmx256m -XX:CompileThresholdScaling=4 -XX:StartFlightRecording=name=s,settings=profile -Dlockstep.startupReport=true -jar /work/h30mem/target/lockstep.jar --data-dir /tmp/h30mem-data > /tmp/h30p/jfr.log 2>&1 &
p=$!
for i in $(seq 1 600); do grep -q first-page /tmp/h30p/jfr.log && break; sleep 0.05; done
/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $p JFR.dump name=s filename=/tmp/h30p/d.jfr >/dev/null
kill $p; wait $p
