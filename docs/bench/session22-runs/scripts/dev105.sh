start=$(date +%s)
R=$OUT/r105; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 200 $T "[mxm]" > $R/tests-mxm.log 2>&1; echo "CUDA [mxm] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-mxm.log | head -20 | cut -c1-300; grep -E "passed|failed" $R/tests-mxm.log | tail -2
timeout 200 $T "~[mxm]" > $R/tests-rest.log 2>&1; echo "CUDA ~[mxm] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-rest.log | head -20 | cut -c1-300; grep -E "passed|failed" $R/tests-rest.log | tail -2
left=$(( 570 - ($(date +%s) - start) ))
echo "left for racecheck: $left s"
[ $left -gt 60 ] && { timeout $(( left - 5 )) compute-sanitizer --tool racecheck --error-exitcode 99 $T "$(paste -sd, .data/race-cases.txt)" > $R/racecheck.log 2>&1
echo "racecheck (10 cases) rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/racecheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"; }
