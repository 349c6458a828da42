start=$(date +%s)
R=$OUT/r95; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 240 compute-sanitizer --tool racecheck --error-exitcode 99 $T "row saxpy: rows past 4\,096 entries take the hub bins" -d yes > $R/racecheck-hub.log 2>&1
echo "racecheck hub bins rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/racecheck-hub.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
for g in karate.mtx ca-GrQc.mtx cage8.mtx; do
  left=$(( 550 - ($(date +%s) - start) )); [ $left -gt 30 ] || { echo "no time for $g"; continue; }
  timeout $(( left - 5 )) compute-sanitizer --tool racecheck --error-exitcode 99 $T "algorithms on the GPU against the host*" -c $g -d yes > $R/racecheck-alg.log 2>&1
  echo "racecheck algorithms $g rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/racecheck-alg.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"; cat $R/racecheck-alg.log >> $R/racecheck-algs.log
done
rm -f $R/racecheck-alg.log
