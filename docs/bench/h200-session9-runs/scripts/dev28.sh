start=$(date +%s)
R=$OUT/r28; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/b /tmp/n && tar -xJf .data/bins-base.tar.xz -C /tmp/b && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
T=/tmp/n/tgb_tests_cuda
timeout 200 $T "[mxm]~[large]~[rowsaxpy]~[dot]","[tile]","[convert]","[ops]" --durations yes > $R/tests.log 2>&1; echo "tests rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 99 $T "*small cases for the sanitizers","*numeric kernels equal host" > $R/san.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 99 $T "*small cases for the sanitizers","*numeric kernels equal host" >> $R/san.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 60 compute-sanitizer --tool synccheck --error-exitcode 99 $T "*small cases for the sanitizers" >> $R/san.log 2>&1; echo "synccheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
OPS=plus_times_f64,min_plus_f64,lor_land_bool,tri_masked
ONLY=lap2d,stencil27,blocks6,bcsstk33,cond-mat,uniform,4elt
run() { tag=$1; bin=$2; shift 2
  timeout 80 /tmp/$bin/tgb-bench --no-host --reps 10 --data .data --only $ONLY --ops $OPS --json $R/bench.jsonl "$@" > $R/b.log 2>&1; echo "bench $tag rc=$? t=$(( $(date +%s) - start ))"
  grep -E "tgb-cuda|geomean" $R/b.log | cut -c1-130 | sed "s/^/$tag /" | tee -a $R/bench-all.log; }
run base b
run new n
echo "t=$(( $(date +%s) - start ))"
