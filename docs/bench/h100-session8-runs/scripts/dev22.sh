R=$OUT/r23; mkdir -p $R
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/b && tar -xJf .data/bins.tar.xz -C /tmp/b || exit 1
T=/tmp/b/tgb_tests_cuda
t0=$(date +%s)
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 99 $T "row saxpy: every bin*","row saxpy: transposes*" > $R/san-racecheck.log 2>&1
echo "racecheck rc=$? in $(( $(date +%s) - t0 )) s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|test cases' $R/san-racecheck.log | tail -2 | tr '\n' ' ')"
t0=$(date +%s)
timeout 100 compute-sanitizer --tool synccheck --error-exitcode 99 $T "row saxpy: every bin*","row saxpy: transposes*" > $R/san-synccheck.log 2>&1
echo "synccheck rc=$? in $(( $(date +%s) - t0 )) s: $(grep -E 'ERROR SUMMARY|test cases' $R/san-synccheck.log | tail -2 | tr '\n' ' ')"
