start=$(date +%s)
R=$OUT/r91; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 250 $T "[mxm]" -d yes > $R/tests-mxm.log 2>&1; echo "CUDA [mxm] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-mxm.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-mxm.log | tail -2
timeout 280 $T "~[mxm]" -d yes > $R/tests-rest.log 2>&1; echo "CUDA ~[mxm] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-rest.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-rest.log | tail -2
sort -t: -k1 -rn <(grep -E "^[0-9.]+ s: " $R/tests-mxm.log $R/tests-rest.log -h) | head -8
left=$(( 565 - ($(date +%s) - start) ))
if [ $left -gt 40 ]; then
  timeout $(( left - 10 )) compute-sanitizer --tool racecheck --error-exitcode 99 $T "algorithms on the GPU against the host*" -c jagmesh7.mtx -d yes > $R/racecheck-jagmesh7.log 2>&1
  echo "racecheck algorithms case, jagmesh7 alone: rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/racecheck-jagmesh7.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"; tail -12 $R/racecheck-jagmesh7.log | cut -c1-200
fi
