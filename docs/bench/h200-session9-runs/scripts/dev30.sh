start=$(date +%s)
R=$OUT/r30; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
B=/tmp/n/tgb-bench
TGB_TRACE=1 timeout 60 $B --no-host --reps 2 --data .data --only uniform,lap2d,stencil27 --ops plus_times_f64 > $R/trace.log 2>&1; echo "trace rc=$?"
NCU=/usr/local/cuda/bin/ncu
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
for m in uniform lap2d stencil27; do
  timeout 80 $NCU --csv --metrics $M $B --no-host --reps 1 --data .data --only $m --ops plus_times_f64 > $R/ncu-$m.csv 2> /dev/null; echo "ncu $m rc=$? t=$(( $(date +%s) - start ))"
done
echo "t=$(( $(date +%s) - start ))"
