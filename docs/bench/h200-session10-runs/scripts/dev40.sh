start=$(date +%s)
R=$OUT/r40; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
T=/tmp/n/tgb_tests_cuda
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 99 $T "[rowsaxpy]" > /tmp/san.log 2>&1; echo "memcheck rc=$? $(grep -E "ERROR SUMMARY|test cases" /tmp/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
TGB_BENCH_BIN=/tmp/n/tgb-bench TGB_POOL_AB=0 TGB_BENCH_BUDGET=420 TGB_COMMIT="$(cat .data/commit.txt)" scripts/gpu-bench.sh $R/bench > /tmp/gpu-bench.out 2>&1
echo "gpu-bench rc=$?"; cut -c1-220 $R/bench/summary.txt
echo "t=$(( $(date +%s) - start ))"
