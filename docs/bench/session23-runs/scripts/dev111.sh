start=$(date +%s)
R=$OUT/r111; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
[ -x /tmp/n/tgb-bench ] || { mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1; }
TGB_BENCH_BIN=/tmp/n/tgb-bench TGB_PEERS=.data/peers TGB_DATA=.data TGB_COMMIT=$(cut -c1-7 .data/tree.txt) TGB_BENCH_BUDGET=510 timeout 545 bash scripts/gpu-bench.sh $R/bench > $R/bench-run.log 2>&1
echo "gpu-bench rc=$? t=$(( $(date +%s) - start ))"; tail -6 $R/bench/summary.txt; grep -E "^\| [a-z]" $R/bench/report.md | head -13 | cut -d'|' -f2,9-16
