#!/bin/bash
# probe.sh IMAGE OUTPREFIX "extra JAVA_TOOL_OPTIONS" [wait seconds]
img=$1; out=$2; extra=$3; wait=${4:-25}
export JAVA_TOOL_OPTIONS="-Dlockstep.startupReport=true $extra"
xvfb-run -a -s '-screen 0 1600x900x24' $img/bin/Lockstep --data-dir /tmp/h30mem-data >$out.log 2>&1 &
xp=$!
for i in $(seq 1 200); do grep -q 'first-page' $out.log && break; sleep 0.2; done
sleep $wait
pid=$(pgrep -f "^$img/bin/Lockstep" | head -1)
[ -z "$pid" ] && pid=$(pgrep -f "$img/lib/runtime/bin/java" | head -1)
echo pid=$pid
cat /proc/$pid/smaps_rollup > $out.smaps
cat /proc/$pid/status | grep -E 'VmHWM|VmRSS|RssAnon|RssFile|RssShmem|Threads' > $out.status
/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $pid VM.native_memory summary > $out.nmt 2>&1
/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $pid GC.heap_info > $out.heap 2>&1
/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $pid Thread.print > $out.threads 2>&1
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
for k,v in agg.most_common(40): print(f'{v//1024:6d} MB {k}')
PY
/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd $pid Thread.print > $out.threads 2>&1
[ -n "$POST" ] && eval "$POST"
kill $pid; wait $xp
