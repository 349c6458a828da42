start=$(date +%s)
R=$OUT/r26; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/b /tmp/n && tar -xJf .data/bins-base.tar.xz -C /tmp/b && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
T=/tmp/n/tgb_tests_cuda
timeout 150 $T "device mxm*" > $R/tests-mxm.log 2>&1; echo "mxm tests rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-mxm.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-mxm.log | tail -2
for bin in b n; do
  timeout 90 /tmp/$bin/tgb-bench --no-host --reps 10 --data .data --only lap2d,stencil27,blocks6,bcsstk33,cond-mat,hep-th --ops plus_times_f64,min_plus_f64,lor_land_bool,tri_masked --json $R/bench-$bin.jsonl > $R/bench-$bin.log 2>&1; echo "bench $bin rc=$? t=$(( $(date +%s) - start ))"
  grep -E "tgb-cuda" $R/bench-$bin.log | cut -c1-120
done
NCU=/usr/local/cuda/bin/ncu
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
for m in lap2d stencil27 blocks6; do
  timeout 60 $NCU --csv --metrics $M /tmp/n/tgb-bench --no-host --reps 1 --data .data --only $m --ops plus_times_f64 > $R/ncu-$m.csv 2> $R/ncu-$m.err; echo "ncu $m rc=$? t=$(( $(date +%s) - start ))"
done
echo "t=$(( $(date +%s) - start ))"
