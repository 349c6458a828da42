start=$(date +%s)
R=$OUT/r18; mkdir -p $R
echo "tree: $(cat .data/tree.txt 2>/dev/null) (prebuilt on the CPU machine, sm_90)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/b && tar -xJf .data/bins.tar.xz -C /tmp/b || exit 1
T=/tmp/b/tgb_tests_cuda
B=/tmp/b/tgb-bench
timeout 300 $T > $R/suite.log 2>&1; echo "suite rc=$?"; grep -E "FAILED|with expansion" -A6 $R/suite.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/suite.log | tail -2
echo "t=$(( $(date +%s) - start ))"
timeout 100 $B --no-host --reps 10 --data .data --ops plus_times_f64,tri_masked --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$?"
grep -E "tgb-cuda|cusparse" $R/bench.log | cut -c1-118; grep geomean $R/bench.log | sort -u
echo "t=$(( $(date +%s) - start ))"
timeout 60 $B --no-host --reps 10 --data .data --ops plus_times_f64 --gpu-concurrent-min 0 --only ca-GrQc,email,hep-th,4elt,luxembourg,cond-mat,bcsstk33,uniform,Slashdot,rmat --json $R/bench-fanout.jsonl > $R/bench-fanout.log 2>&1; echo "fanout rc=$?"
grep -E "tgb-cuda" $R/bench-fanout.log | cut -c1-118
timeout 60 $B --no-host --reps 10 --ops plus_times_f64 --gpu-method rows --data .data --only lap2d,stencil27,blocks6,bcsstk33 --json $R/bench-rows.jsonl > $R/bench-rows.log 2>&1; echo "rows rc=$?"
grep -E "tgb-cuda|cusparse" $R/bench-rows.log | cut -c1-118
echo "t=$(( $(date +%s) - start ))"
TGB_TRACE=1 timeout 30 $B --no-host --reps 2 --data .data --only ca-GrQc,hep-th,luxembourg --ops plus_times_f64 > $R/trace.log 2>&1; echo "trace rc=$?"
echo "t=$(( $(date +%s) - start ))"
