start=$(date +%s)
R=$OUT/r76; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench
timeout 200 $T "[dot],[convert],[rowpath],[index_list]" > $R/tests-dot.log 2>&1; echo "CUDA [dot],[convert],[rowpath],[index_list] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-dot.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-dot.log | tail -2
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 $T "device CSR views and the dot over short and long tile rows" > $R/memcheck-csr.log 2>&1
echo "memcheck (short/long tile rows case) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-csr.log | tail -1) t=$(( $(date +%s) - start ))"
TGB_TRACE=1 timeout 60 $B --no-host --reps 3 --ops tri_masked --only lap2d_1024,email-Eu-core --data .data > $R/trace-tri.log 2>&1
echo "trace rc=$? t=$(( $(date +%s) - start ))"; grep -E "tri_masked" $R/trace-tri.log | cut -c1-150; grep "tgb trace" $R/trace-tri.log | head -8
TGB_BENCH_BIN=$B TGB_PEERS=.data/peers TGB_DATA=.data TGB_COMMIT=$(cut -c1-7 .data/tree.txt) TGB_BENCH_BUDGET=470 timeout 500 bash scripts/gpu-bench.sh $R/bench > $R/bench-run.log 2>&1
echo "gpu-bench rc=$? t=$(( $(date +%s) - start ))"; tail -5 $R/bench/summary.txt; sed -n 1,40p $R/bench/report.md 2>/dev/null
grep -E "tri_masked" $R/bench/report.md | cut -c1-160
