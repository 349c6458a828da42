start=$(date +%s)
R=$OUT/r103; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 60 $T "[mxm][tile]" > $R/tests-tile.log 2>&1; echo "CUDA [mxm][tile] rc=$? $(grep -E "passed|failed" $R/tests-tile.log | tail -1)"
timeout 150 $T "[ops]" > $R/tests-ops.log 2>&1; echo "CUDA [ops] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-ops.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-ops.log | tail -2
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 99 $T "*small cases for the sanitizers" > $R/$tool-small.log 2>&1
  echo "$tool small cases rc=$? $(grep -E 'SUMMARY|test cases|All tests' $R/$tool-small.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
done
CASES=$(paste -sd, .data/cover-cases.txt)
for tool in memcheck synccheck initcheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 $T "$CASES" > $R/$tool.log 2>&1
  echo "$tool (cover, 12 cases) rc=$? $(grep -E 'ERROR SUMMARY|test cases|All tests' $R/$tool.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
done
left=$(( 585 - ($(date +%s) - start) ))
echo "left for gpu-bench: $left s"
TGB_BENCH_BIN=/tmp/n/tgb-bench TGB_PEERS=.data/peers TGB_DATA=.data TGB_COMMIT=$(cut -c1-7 .data/tree.txt) TGB_BENCH_BUDGET=$(( left - 40 )) timeout $(( left - 5 )) bash scripts/gpu-bench.sh $R/bench > $R/bench-run.log 2>&1
echo "gpu-bench rc=$? t=$(( $(date +%s) - start ))"; tail -5 $R/bench/summary.txt; grep -E "^\| [a-z]" $R/bench/report.md | head -13 | cut -d'|' -f2,9-16
rm -f $R/bench/summary.txt
