start=$(date +%s)
R=$OUT/r101; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n /tmp/b && tar -xJf .data/bins.tar.xz -C /tmp/n && tar -xJf .data/bins-base.tar.xz -C /tmp/b || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 250 $T "[mxm]" > $R/tests-mxm.log 2>&1; echo "CUDA [mxm] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-mxm.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-mxm.log | tail -2
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 $T "*small cases for the sanitizers" > $R/memcheck.log 2>&1
echo "memcheck small cases rc=$? $(grep -E 'ERROR SUMMARY|test cases|All tests' $R/memcheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 99 $T "*small cases for the sanitizers" > $R/racecheck.log 2>&1
echo "racecheck small cases rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/racecheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
M=lap2d_1024,stencil27_64,blocks6_120k,bcsstk33,cond-mat-2003,4elt
for v in b n b n; do
  timeout 100 /tmp/$v/tgb-bench --no-host --reps 10 --ops plus_times_f64,min_plus_f64 --only $M --data .data > $R/aa-$v.log 2>&1
  echo "A*A $v rc=$? t=$(( $(date +%s) - start ))"; grep -E "tgb-cuda" $R/aa-$v.log | awk '{printf "%s %s %s | ", $1, $2, $5} END {print ""}'
done
