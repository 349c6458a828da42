start=$(date +%s)
R=$OUT/r48; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
T=/tmp/n/tgb_tests_cuda
timeout 290 $T --durations yes > $R/tests.log 2>&1; echo "whole CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 $T "[vector]" > $R/san.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 100 compute-sanitizer --tool initcheck --error-exitcode 99 $T "[vector]" >> $R/san.log 2>&1; echo "initcheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
grep -B2 -A12 "Invalid\|Race\|Uninitialized" $R/san.log | head -30 | cut -c1-250
timeout 60 /tmp/n/tgb-bench --spmv --no-host --reps 20 --data .data --json $R/spmv.jsonl > $R/spmv.log 2>&1; echo "spmv rc=$? t=$(( $(date +%s) - start ))"
cut -c1-175 $R/spmv.log | grep -v "^$" | tail -21
timeout 110 /tmp/n/tgb-bench --algorithms --no-mcl --reps 5 --host-reps 3 --json $R/alg.jsonl .data/soc-Slashdot0902.txt.gz .data/cond-mat-2003.mtx .data/luxembourg.mtx .data/4elt.mtx > $R/alg.log 2>&1; echo "algorithms rc=$? t=$(( $(date +%s) - start ))"
grep -A8 "gpu_ms" $R/alg.log | cut -c1-170 | head -40; grep "CHECK FAILED" $R/alg.log | head
timeout 80 compute-sanitizer --tool racecheck --error-exitcode 99 $T "device mxv/vxm on real graphs*","algorithms on the GPU*","device vector element-wise*","device mxv/vxm with operands*","device vector: residence*" >> $R/san.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
echo "t=$(( $(date +%s) - start ))"
