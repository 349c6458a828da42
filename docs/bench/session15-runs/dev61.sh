start=$(date +%s)
R=$OUT/r61; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n /tmp/o && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 330 $T --durations yes > $R/tests.log 2>&1; echo "whole CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
SPEC=$(grep -v "algorithms on the GPU" .data/cover.txt | paste -sd,),[hyper]
for tool in memcheck initcheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 $T "$SPEC" > $R/$tool.log 2>&1
  echo "$tool (cover less the algorithms case) rc=$? $(grep -E 'ERROR SUMMARY' $R/$tool.log | tail -1) $(grep -E 'All tests passed|test cases' $R/$tool.log | tail -1) t=$(( $(date +%s) - start ))"
  grep -B2 -A10 "Invalid\|Uninitialized" $R/$tool.log | head -16 | cut -c1-220
done
for g in luxembourg.mtx cond-mat-2003.mtx; do /tmp/n/tgb tc .data/$g > $R/tc-host.txt && /tmp/n/tgb tc .data/$g --backend cuda > $R/tc-gpu.txt; echo "tc $g: host $(grep -i triangles $R/tc-host.txt | head -1) gpu $(grep -i triangles $R/tc-gpu.txt | head -1)"; done
echo "t=$(( $(date +%s) - start ))"
