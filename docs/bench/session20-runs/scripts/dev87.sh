start=$(date +%s)
R=$OUT/r87; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
mkdir -p /tmp/o && tar -xJf .data/bins-base.tar.xz -C /tmp/o || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench O=/tmp/o/tgb-bench
timeout 150 $T "[dot],[algorithms]" > $R/tests.log 2>&1; echo "CUDA [dot],[algorithms] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $T "[dot]" > $R/memcheck.log 2>&1
echo "memcheck [dot] rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/memcheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
for b in O B O B; do
  eval bin=\$$b
  timeout 100 $bin --no-host --reps 10 --ops tri_masked --data .data > $R/t.log 2>&1; cat $R/t.log >> $R/tri.log
  echo "tri $b rc=$? t=$(( $(date +%s) - start ))"; grep -E "tri_masked" $R/t.log | awk '{printf "%s %s %s | ", $1, $3, $5} END {print ""}'
done
rm -f $R/t.log
