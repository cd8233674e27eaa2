#!/bin/bash
# ab-env.sh OUT ROUNDS RUNS IDLE "ENV1|IMG1" "ENV2|IMG2" ...
out=$1; rounds=$2; runs=$3; idle=$4; shift 4
for r in $(seq 1 $rounds); do for spec in "$@"; do
  e=${spec%%|*}; img=${spec#*|}; n=$(basename $img)${e:+-env}
  echo "== round $r $n load $(cut -d' ' -f1 /proc/loadavg)" >> $out.txt
  env $e xvfb-run -a -s '-screen 0 1600x900x24' java -jar /work/main/target/lockstep-bench.jar --data-dir ${DATA:-/tmp/s40-q} startup --no-commands --runs $runs --idle-seconds $idle --image $img --json > $out-$r-$n.json 2>> $out.err
  python3 /tmp/s40p/sumj.py $out-$r-$n.json >> $out.txt
done; done
echo DONE >> $out.txt
