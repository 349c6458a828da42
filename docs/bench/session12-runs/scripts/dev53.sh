start=$(date +%s)
R=$OUT/r53; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
mkdir -p /work/dev && ln -sfn $PWD/tests /work/dev/tests
T=/tmp/n/tgb_tests_cuda
timeout 120 $T "[vector]" --durations yes > $R/vector.log 2>&1; echo "[vector] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A8 $R/vector.log | head -40 | cut -c1-300; grep -E "passed|failed" $R/vector.log | tail -1
timeout 60 /tmp/n/tgb-bench --spmv --no-host --reps 20 --data .data --json $R/spmv.jsonl > $R/spmv.log 2>&1; echo "spmv rc=$? t=$(( $(date +%s) - start ))"
cut -c1-175 $R/spmv.log | grep -v "^$" | tail -20
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $T "[vector]" > $R/san.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/san.log | tail -1) t=$(( $(date +%s) - start ))"
timeout 150 compute-sanitizer --tool initcheck --error-exitcode 99 $T "[vector]" >> $R/san.log 2>&1; echo "initcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/san.log | tail -1) t=$(( $(date +%s) - start ))"
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 99 $T "device mxv on a large matrix*","connected components on the GPU*","device index lists*" >> $R/san.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/san.log | tail -1) t=$(( $(date +%s) - start ))"
grep -B2 -A12 "Invalid\|Race\|Uninitialized\|Barrier" $R/san.log | head -30 | cut -c1-250
timeout 150 /tmp/n/tgb-bench --algorithms --no-mcl --reps 5 --host-reps 2 --json $R/alg.jsonl .data/soc-Slashdot0902.txt.gz .data/cond-mat-2003.mtx .data/luxembourg.mtx > $R/alg.log 2>&1; echo "algorithms rc=$? t=$(( $(date +%s) - start ))"
grep -A10 "gpu_ms" $R/alg.log | cut -c1-170 | head -40; grep "CHECK FAILED" $R/alg.log | head
echo "t=$(( $(date +%s) - start ))"
