start=$(date +%s)
R=$OUT/r52; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
mkdir -p /work/dev && ln -sfn $PWD/tests /work/dev/tests
T=/tmp/n/tgb_tests_cuda
timeout 120 $T "[vector]" --durations yes > $R/vector.log 2>&1; echo "[vector] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A8 $R/vector.log | head -40 | cut -c1-300; grep -E "passed|failed" $R/vector.log | tail -2
for mode in default group merge; do
  TGB_PULL_ROWS=$mode timeout 60 /tmp/n/tgb-bench --spmv --no-host --reps 20 --data .data --json $R/spmv-$mode.jsonl > $R/spmv-$mode.log 2>&1; echo "spmv $mode rc=$? t=$(( $(date +%s) - start ))"
  cut -c1-175 $R/spmv-$mode.log | grep -v "^$" | tail -20
done
for g in luxembourg.mtx cond-mat-2003.mtx; do /tmp/n/tgb cc .data/$g -o $R/cc-host.txt > /dev/null && /tmp/n/tgb cc .data/$g --backend cuda -o $R/cc-gpu.txt --json > $R/cc.json && cmp $R/cc-host.txt $R/cc-gpu.txt && echo "cli cc $g: same ($(cut -c1-200 $R/cc.json))"; done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $T "[vector]" > $R/san.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 99 $T "device mxv on a large matrix*" >> $R/san.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/san.log | tail -1) t=$(( $(date +%s) - start ))"
timeout 60 compute-sanitizer --tool synccheck --error-exitcode 99 $T "device mxv on a large matrix*" >> $R/san.log 2>&1; echo "synccheck rc=$? $(grep -E 'ERROR SUMMARY' $R/san.log | tail -1) t=$(( $(date +%s) - start ))"
grep -B2 -A12 "Invalid\|Race\|Uninitialized\|Barrier" $R/san.log | head -30 | cut -c1-250
timeout 300 $T --durations yes > $R/tests.log 2>&1; echo "whole CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
echo "t=$(( $(date +%s) - start ))"
