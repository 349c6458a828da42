start=$(date +%s)
R=$OUT/r107; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 200 $T "[mxm]" > $R/tests-mxm.log 2>&1; echo "CUDA [mxm] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-mxm.log | head -20 | cut -c1-300; grep -E "passed|failed" $R/tests-mxm.log | tail -2
# The new case alone under the launch-logging shim: CUB's partitioned segmented sort.
g++ -std=c++17 -O2 -shared -fPIC -I/usr/local/cuda/include scripts/kernel_log.cpp -o /tmp/shim.so -ldl || echo "shim build failed"
TGB_KERNEL_LOG=$R/seg-kernels.txt LD_PRELOAD=/tmp/shim.so $T "device mxm: many tile rows of 36 pairs (the segmented pair sort) equal host" > $R/seg.log 2>&1
echo "segmented-sort case rc=$? $(tail -2 $R/seg.log | tr '\n' ' ')"; sort -u $R/seg-kernels.txt | grep -E "ThreeWay|SegmentedSort|k_sort_row_pairs|k_row_candidates" | cut -c1-150
CASES=$(paste -sd, .data/cover15.txt)
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $T "$CASES" > $R/memcheck.log 2>&1
echo "memcheck (cover, 15 cases) rc=$? $(grep -E 'ERROR SUMMARY|test cases|All tests' $R/memcheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
left=$(( 575 - ($(date +%s) - start) ))
echo "left for racecheck: $left s"
[ $left -gt 60 ] && { timeout $(( left - 5 )) compute-sanitizer --tool racecheck --error-exitcode 99 $T "$(paste -sd, .data/race-cases.txt),device mxm: many tile rows of 36 pairs (the segmented pair sort) equal host" > $R/racecheck.log 2>&1
echo "racecheck (11 cases) rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/racecheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"; }
