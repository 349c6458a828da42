start=$(date +%s)
R=$OUT/r44; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
TGB_BENCH_BIN=/tmp/n/tgb-bench TGB_POOL_AB=0 TGB_BENCH_BUDGET=480 TGB_COMMIT="$(cat .data/commit.txt)" scripts/gpu-bench.sh $R/bench > /tmp/gpu-bench.out 2>&1
echo "gpu-bench rc=$?"; cut -c1-220 $R/bench/summary.txt | tail -12
echo "t=$(( $(date +%s) - start ))"
