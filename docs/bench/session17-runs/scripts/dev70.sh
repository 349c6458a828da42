start=$(date +%s)
R=$OUT/r70; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 150 /tmp/n/tgb-bench --spmv --reps 20 --data .data > $R/spmv.log 2>&1; echo "spmv rc=$? t=$(( $(date +%s) - start ))"
grep -vE "^\s*$" $R/spmv.log | grep -vE "^# (pool|tgb-bench)" | cut -c1-190 | tail -21
timeout 330 $T --durations yes > $R/tests.log 2>&1; echo "whole CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
for tool in memcheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $T "device mxv*" > $R/$tool-mxv.log 2>&1
  echo "$tool (device mxv cases) rc=$? $(grep -E 'ERROR SUMMARY' $R/$tool-mxv.log | tail -1) $(grep -E 'All tests passed|test cases' $R/$tool-mxv.log | tail -1) t=$(( $(date +%s) - start ))"
done
