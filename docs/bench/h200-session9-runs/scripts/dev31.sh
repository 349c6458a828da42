start=$(date +%s)
R=$OUT/r31; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
T=/tmp/n/tgb_tests_cuda
timeout 330 $T --durations yes > $R/tests.log 2>&1; echo "whole CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 99 $T "*small cases for the sanitizers","*numeric kernels equal host" > $R/san.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 99 $T "*small cases for the sanitizers" >> $R/san.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 90 /tmp/n/tgb-bench --no-host --reps 10 --data .data --only lap2d,stencil27,blocks6,bcsstk33,uniform,ca-GrQc,rmat --ops plus_times_f64,tri_masked --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$? t=$(( $(date +%s) - start ))"
grep -E "tgb-cuda|geomean|stored" $R/bench.log | cut -c1-130
echo "t=$(( $(date +%s) - start ))"
