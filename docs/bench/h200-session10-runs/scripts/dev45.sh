start=$(date +%s)
R=$OUT/r45; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
T=/tmp/n/tgb_tests_cuda
timeout 300 $T --durations yes > $R/tests.log 2>&1; echo "whole CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 99 $T "row saxpy: every bin*","row saxpy: transposes*" > $R/san.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 60 compute-sanitizer --tool synccheck --error-exitcode 99 $T "row saxpy: every bin*","row saxpy: transposes*" >> $R/san.log 2>&1; echo "synccheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 $T "[rowsaxpy]" >> $R/san.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 100 /tmp/n/tgb-bench --no-host --reps 10 --data .data --only uniform,rmat,Slashdot,cond-mat,ca-GrQc,hep-th,4elt --ops plus_times_f64 > $R/bench.log 2>&1; echo "bench rc=$? t=$(( $(date +%s) - start ))"
grep -E "tgb-cuda|cusparse|geomean" $R/bench.log | cut -c1-130
echo "t=$(( $(date +%s) - start ))"
