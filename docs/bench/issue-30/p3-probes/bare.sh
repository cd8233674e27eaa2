#!/bin/bash
# bare table with probe, same flags as image
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
out=$1; extra=$2; wait=${3:-20}
Q="--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"; L="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms16m -Xmx256m"
[ -f /tmp/bt.aot ] || xvfb-run -a -s '-screen 0 1600x900x24' timeout 15 $J25 $Q $L -XX:AOTCacheOutput=/tmp/bt.aot -jar /tmp/floor/bare-table.jar
xvfb-run -a -s '-screen 0 1600x900x24' $J25 $Q $L -XX:AOTCache=/tmp/bt.aot $extra -Dlockstep.startupReport=true -jar /tmp/floor/bare-table.jar > $out.log 2>&1 &
xp=$!
sleep 5; sleep $wait
pid=$(pgrep -f "bare-table.jar" | grep -v $xp | tail -1)
pid=$(pgrep -f "^$J25 .*bare-table" | tail -1)
echo pid=$pid
cat /proc/$pid/smaps_rollup > $out.smaps
grep -E 'VmHWM|VmRSS|RssAnon|RssFile|RssShmem|Threads' /proc/$pid/status > $out.status
/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $pid VM.native_memory summary > $out.nmt 2>&1
python3 - $pid > $out.maps <<'PY'
import sys,re,collections
pid=sys.argv[1]
cur=None; agg=collections.Counter()
for line in open(f'/proc/{pid}/smaps'):
    if re.match(r'^[0-9a-f]+-[0-9a-f]+ ',line):
        parts=line.split(None,5); cur=parts[5].strip() if len(parts)>5 else '[anon]'
        cur=re.sub(r'.*/','',cur) if cur.startswith('/') else cur
    elif line.startswith('Rss:'):
        agg[cur]+=int(line.split()[1])
for k,v in agg.most_common(12): print(f'{v//1024:6d} MB {k}')
PY
/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $pid Thread.print > $out.threads 2>&1
[ -n "$POST" ] && eval "$POST"
kill $pid; wait $xp
