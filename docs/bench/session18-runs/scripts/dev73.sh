start=$(date +%s)
R=$OUT/r73; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
TGB_BENCH_BIN=/tmp/n/tgb-bench TGB_PEERS=.data/peers TGB_DATA=.data TGB_COMMIT=a66e15a TGB_BENCH_BUDGET=540 timeout 580 bash scripts/gpu-bench.sh $R > $R/run.log 2>&1
echo "gpu-bench rc=$? t=$(( $(date +%s) - start ))"; tail -5 $R/summary.txt; cat $R/report.md 2>/dev/null | head -80
