start=$(date +%s)
R=$OUT/r19; mkdir -p $R
echo "tree: $(cat .data/tree.txt 2>/dev/null) (prebuilt on the CPU machine, sm_90)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/b && tar -xJf .data/bins.tar.xz -C /tmp/b || exit 1
T=/tmp/b/tgb_tests_cuda
B=/tmp/b/tgb-bench
timeout 90 $T "[rowsaxpy]" > $R/rowsaxpy.log 2>&1; echo "rowsaxpy rc=$?"; grep -E "FAILED|with expansion" -A6 $R/rowsaxpy.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/rowsaxpy.log | tail -2
timeout 100 $B --no-host --reps 10 --data .data --ops plus_times_f64,tri_masked --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$?"
grep -E "tgb-cuda|cusparse" $R/bench.log | grep plus_times | cut -c1-118; grep geomean $R/bench.log | sort -u
echo "t=$(( $(date +%s) - start ))"
timeout 60 $B --no-host --reps 10 --data .data --ops plus_times_f64 --gpu-fused-max 0 --only ca-GrQc,email,hep-th,4elt,luxembourg,cond-mat,uniform,Slashdot,rmat --json $R/bench-nofuse.jsonl > $R/bench-nofuse.log 2>&1; echo "nofuse rc=$?"
grep -E "tgb-cuda" $R/bench-nofuse.log | cut -c1-118
echo "t=$(( $(date +%s) - start ))"
TGB_TRACE=1 timeout 30 $B --no-host --reps 2 --data .data --only ca-GrQc,hep-th,luxembourg,email --ops plus_times_f64 > $R/trace.log 2>&1; echo "trace rc=$?"
timeout 200 $T "~[rowsaxpy]" > $R/suite-rest.log 2>&1; echo "rest of suite rc=$?"; grep -E "FAILED|with expansion" -A6 $R/suite-rest.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/suite-rest.log | tail -2
echo "t=$(( $(date +%s) - start ))"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 $T "row saxpy: every bin*","row saxpy: transposes*","row saxpy: the device row form*" > $R/san-memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san-memcheck.log | tail -2 | tr '\n' ' ')"
echo "t=$(( $(date +%s) - start ))"
