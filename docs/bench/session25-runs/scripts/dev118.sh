#!/bin/bash
# r118: r117's reports and failures, told apart: 8 processes unsanitized (do
# they fail alone?), then 8 under initcheck with the pools' early cross-stream
# reuse off (no-reuse), against plain again for the same time.
set -u
D=docs/bench/session25-runs/scripts
W=$OUT/r118; mkdir -p $W
nvcc -arch=sm_90 -O2 -std=c++17 -o /tmp/scan_initcheck $D/scan_initcheck.cu || exit 1
for i in $(seq 1 8); do /tmp/scan_initcheck plain 40 > $W/bare.$i.out 2>&1 & done; wait
for i in $(seq 1 8); do echo "bare $i: $(tail -1 $W/bare.$i.out)" >> $W/summary.txt; done
run() {  # mode procs seconds
  local tag=$1-$2
  for i in $(seq 1 $2); do
    compute-sanitizer --tool initcheck --print-limit 100000 --log-file $W/$tag.$i.log \
      /tmp/scan_initcheck $1 $3 > $W/$tag.$i.bufs 2>&1 &
  done
  wait
  for i in $(seq 1 $2); do
    echo "== $tag process $i: $(grep -c 'Uninitialized' $W/$tag.$i.log) reports; $(grep -v '^buf' $W/$tag.$i.bufs | head -2 | tr '\n' ' ')" >> $W/summary.txt
    python3 $D/classify.py $W/$tag.$i.bufs $W/$tag.$i.log | grep -v '^reports by\|^kernels: {}' >> $W/summary.txt
  done
}
run no-reuse 8 120
cat $W/summary.txt
cd $OUT && tar czf r118.tgz r118 && rm -rf r118
