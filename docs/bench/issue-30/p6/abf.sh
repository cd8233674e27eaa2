#!/bin/bash
# abf.sh OUTPREFIX ROUNDS RUNS IMG NAME=FLAGS ... : alternating bench startup --no-commands of one image with JVM flag sets
out=$1; rounds=$2; runs=$3; img=$4; shift 4
for r in $(seq 1 $rounds); do for nf in "$@"; do
  n=${nf%%=*}; f=${nf#*=}
  echo "== round $r $n load $(cut -d' ' -f1 /proc/loadavg) flags: $f" >> $out.txt
  xvfb-run -a -s '-screen 0 1600x900x24' java -jar /work/main/target/lockstep-bench.jar --data-dir ${DATA:-/tmp/s40-q} startup --no-commands --runs $runs --idle-seconds ${IDLE:-5} --image $img --jvm-flags="$f" --json > $out-$r-$n.json 2>> $out.err
  python3 "$(dirname "$0")/sumj.py" $out-$r-$n.json >> $out.txt
done; done
echo DONE >> $out.txt
