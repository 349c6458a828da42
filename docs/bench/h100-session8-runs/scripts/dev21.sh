R=$OUT/r22; mkdir -p $R
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/b && tar -xJf .data/bins.tar.xz -C /tmp/b || exit 1
TGB_BENCH_BIN=/tmp/b/tgb-bench TGB_POOL_AB=0 TGB_BENCH_BUDGET=400 TGB_BENCH_OPS=plus_times_f64,tri_masked TGB_COMMIT="$(cat .data/tree.txt)" scripts/gpu-bench.sh $R/bench > $R/gpu-bench.out 2>&1
echo "gpu-bench rc=$?"; grep -v "^\[gpu-bench" $R/bench/summary.txt | head -3; grep -E "tgb-bench:|peers:|cupy-check:|vs " $R/bench/summary.txt | cut -c1-200
rm -f $R/bench/report.md
