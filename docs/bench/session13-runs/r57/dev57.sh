start=$(date +%s)
R=$OUT/r57; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 330 $T --durations yes > $R/tests.log 2>&1; echo "whole CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
timeout 60 /tmp/n/tgb-bench --spmv --no-host --reps 20 --data .data --json $R/spmv.jsonl > $R/spmv.log 2>&1; echo "spmv rc=$? t=$(( $(date +%s) - start ))"
cut -c1-175 $R/spmv.log | grep -v "^$" | tail -16
timeout 110 compute-sanitizer --tool memcheck --error-exitcode 99 $T "[vector]" > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/memcheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 99 $T "device mxv on a large matrix*" > $R/racecheck.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck.log | tail -1) t=$(( $(date +%s) - start ))"
grep -B2 -A12 "Invalid\|Race\|Uninitialized\|Barrier" $R/memcheck.log $R/racecheck.log | head -30 | cut -c1-250
echo "t=$(( $(date +%s) - start ))"
