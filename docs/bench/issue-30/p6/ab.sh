#!/bin/bash
# ab.sh OUTPREFIX ROUNDS RUNS IDLE IMG1 IMG2 ... : alternating bench startup --no-commands
out=$1; rounds=$2; runs=$3; idle=$4; shift 4
for r in $(seq 1 $rounds); do for img in "$@"; do
  n=$(basename $img)
  echo "== round $r $n load $(cut -d' ' -f1 /proc/loadavg)" >> $out.txt
  xvfb-run -a -s '-screen 0 1600x900x24' java -jar /work/main/target/lockstep-bench.jar --data-dir ${DATA:-/tmp/s40-q} startup --no-commands --runs $runs --idle-seconds $idle --image $img --json > $out-$r-$n.json 2>> $out.err
  python3 "$(dirname "$0")/sumj.py" $out-$r-$n.json >> $out.txt
done; done
echo DONE >> $out.txt
