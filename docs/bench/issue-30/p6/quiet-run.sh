#!/bin/bash
cd /tmp/s41q
B="java -jar /tmp/s41-bench.jar"
X="xvfb-run -a -s '-screen 0 1600x900x24'"
for i in 1 2; do echo "load $(cat /proc/loadavg)" > image-$i.txt; xvfb-run -a -s '-screen 0 1600x900x24' $B --data-dir /tmp/s40-q startup --runs 2 --idle-seconds 20 --image /tmp/s41img-F >> image-$i.txt 2>&1; done
for i in 3 4; do echo "load $(cat /proc/loadavg)" > image-$i.txt; xvfb-run -a -s '-screen 0 1600x900x24' $B --data-dir /tmp/s40-q startup --no-commands --runs 3 --idle-seconds 20 --image /tmp/s41img-F >> image-$i.txt 2>&1; done
rm -rf /tmp/s41-fresh; mkdir -p /tmp/s41-fresh
echo "load $(cat /proc/loadavg)" > fresh-1.txt; xvfb-run -a -s '-screen 0 1600x900x24' $B --data-dir /tmp/s41-fresh startup --fresh --no-commands --runs 2 --image /tmp/s41img-F >> fresh-1.txt 2>&1
echo DONE > done
