start=$(date +%s)
R=$OUT/r50; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
T=/tmp/n/tgb_tests_cuda
timeout 120 $T "[vector]" --durations yes > $R/vector.log 2>&1; echo "[vector] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A8 $R/vector.log | head -40 | cut -c1-300; grep -E "passed|failed" $R/vector.log | tail -2
timeout 60 /tmp/n/tgb-bench --spmv --no-host --reps 20 --data .data --json $R/spmv.jsonl > $R/spmv.log 2>&1; echo "spmv rc=$? t=$(( $(date +%s) - start ))"
TGB_PULL_TILES=row TGB_PULL_ROWS=group timeout 60 /tmp/n/tgb-bench --spmv --no-host --reps 20 --data .data --json $R/spmv-old.jsonl > $R/spmv-old.log 2>&1; echo "spmv old rc=$? t=$(( $(date +%s) - start ))"
TGB_PULL_ROWS=merge timeout 60 /tmp/n/tgb-bench --spmv --no-host --reps 20 --data .data --json $R/spmv-merge.jsonl > $R/spmv-merge.log 2>&1; echo "spmv merge-all rc=$? t=$(( $(date +%s) - start ))"
for f in spmv spmv-old spmv-merge; do echo "== $f"; cut -c1-175 $R/$f.log | grep -v "^$" | tail -16; done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $T "[vector]" > $R/san.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 99 $T "device mxv on a large matrix*","device mxv/vxm against the host: fp64","device assign and extract*" >> $R/san.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 60 compute-sanitizer --tool synccheck --error-exitcode 99 $T "device mxv on a large matrix*","device mxv/vxm against the host: fp64" >> $R/san.log 2>&1; echo "synccheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
grep -B2 -A12 "Invalid\|Race\|Uninitialized\|Barrier" $R/san.log | head -30 | cut -c1-250
echo "t=$(( $(date +%s) - start ))"
