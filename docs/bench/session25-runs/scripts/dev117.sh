#!/bin/bash
# r117: is r115's initcheck report CUB's decoupled look-back polling a tile
# descriptor's value half before its block wrote it? scan_initcheck.cu under
# initcheck alone, then 8 at a time (plain, then with the temp storage zeroed).
set -u
D=docs/bench/session25-runs/scripts
W=$OUT/r117; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $W/device.txt
compute-sanitizer --version >> $W/device.txt
compute-sanitizer --help 2>&1 | grep -i -B1 -A3 'suppr' > $W/suppress-help.txt
nvcc -arch=sm_90 -O2 -std=c++17 -o /tmp/scan_initcheck $D/scan_initcheck.cu || exit 1
/tmp/scan_initcheck plain > $W/unsanitized.txt 2>&1; echo "unsanitized rc $?" >> $W/summary.txt
run() {  # mode procs
  local tag=$1-$2
  for i in $(seq 1 $2); do
    compute-sanitizer --tool initcheck --print-limit 100000 --log-file $W/$tag.$i.log \
      /tmp/scan_initcheck $1 $SECS > $W/$tag.$i.bufs 2>&1 &
  done
  wait
  for i in $(seq 1 $2); do
    echo "== $tag process $i: $(grep -c 'Uninitialized' $W/$tag.$i.log) reports; $(tail -1 $W/$tag.$i.bufs)" >> $W/summary.txt
    python3 $D/classify.py $W/$tag.$i.bufs $W/$tag.$i.log >> $W/summary.txt
  done
}
SECS=60 run plain 1
SECS=150 run plain 8
SECS=100 run zero-temp 8
cat $W/summary.txt
cd $OUT && tar czf r117.tgz r117 && rm -rf r117
