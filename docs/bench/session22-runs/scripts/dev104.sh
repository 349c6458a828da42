start=$(date +%s)
R=$OUT/r104; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
B=/tmp/n/tgb-bench
TGB_BENCH_BIN=$B TGB_PEERS=.data/peers TGB_DATA=.data TGB_COMMIT=$(cut -c1-7 .data/tree.txt) TGB_BENCH_BUDGET=500 timeout 540 bash scripts/gpu-bench.sh $R/bench > $R/bench-run.log 2>&1
echo "gpu-bench rc=$? t=$(( $(date +%s) - start ))"; tail -5 $R/bench/summary.txt; sed -n 1,45p $R/bench/report.md 2>/dev/null
grep -E "^\|" $R/bench/report.md | head -0; ls $R/bench | head
rm -f $R/bench/summary.txt $R/bench/logs.tar.gz $R/bench/cupy.log
