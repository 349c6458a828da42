start=$(date +%s)
R=$OUT/r85; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
mkdir -p /tmp/o && tar -xJf .data/bins-base.tar.xz -C /tmp/o || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench O=/tmp/o/tgb-bench
timeout 280 $T > $R/tests.log 2>&1; echo "CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 $T "[dot],[tile]" > $R/memcheck.log 2>&1
echo "memcheck [dot],[tile] rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/memcheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
M=lap2d_1024,stencil27_64,blocks6_120k,bcsstk33,cond-mat-2003,4elt
for b in O B O B; do
  eval bin=\$$b
  timeout 120 $bin --no-host --reps 10 --ops plus_times_f64,min_plus_f64,lor_land_bool --only $M --data .data > $R/t.log 2>&1; cat $R/t.log >> $R/aa.log
  echo "A*A $b rc=$? t=$(( $(date +%s) - start ))"; grep -E "tgb-cuda" $R/t.log | awk '{printf "  %s %s %s\n", $1, $2, $5}'
done
timeout 120 /usr/local/cuda/bin/ncu --csv --metrics gpu__time_duration.sum $B --no-host --reps 1 --ops tri_masked --only lap2d_1024 --data .data > $R/ncu-tri.csv 2>&1
timeout 120 /usr/local/cuda/bin/ncu --csv --metrics gpu__time_duration.sum $B --no-host --reps 1 --ops plus_times_f64 --only lap2d_1024,stencil27_64 --data .data > $R/ncu-aa.csv 2>&1
echo "ncu rc=$? t=$(( $(date +%s) - start ))"
rm -f $R/t.log
