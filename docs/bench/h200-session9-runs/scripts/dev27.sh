start=$(date +%s)
R=$OUT/r27; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/b /tmp/n && tar -xJf .data/bins-base.tar.xz -C /tmp/b && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
T=/tmp/n/tgb_tests_cuda
timeout 170 $T "[mxm]~[large]~[rowsaxpy]","[tile]" --durations yes > $R/tests.log 2>&1; echo "tests rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
OPS=plus_times_f64,min_plus_f64,lor_land_bool
ONLY=lap2d,stencil27,blocks6,bcsstk33,cond-mat
run() { tag=$1; bin=$2; shift 2
  timeout 60 /tmp/$bin/tgb-bench --no-host --reps 10 --data .data --only $ONLY --ops $OPS --json $R/bench.jsonl "$@" > $R/b.log 2>&1; echo "bench $tag rc=$? t=$(( $(date +%s) - start ))"
  grep -E "tgb-cuda" $R/b.log | cut -c1-100 | sed "s/^/$tag /" | tee -a $R/bench-all.log; }
run base b
run w96 n
run w0 n --gpu-warp-tile 0
run wnever n --gpu-warp-tile 1000
run w64 n --gpu-warp-tile 64
run w128 n --gpu-warp-tile 128
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 99 $T "device mxm, small cases for the sanitizers" > $R/san.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 $T "device mxm, small cases for the sanitizers" >> $R/san.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
echo "t=$(( $(date +%s) - start ))"
