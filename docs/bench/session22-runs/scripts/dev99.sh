start=$(date +%s)
R=$OUT/r100; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
B=/tmp/n/tgb-bench
timeout 240 ncu --set full --print-details all -k regex:"k_numeric|k_compact" -c 2 $B --no-host --reps 1 --ops plus_times_f64 --only lap2d_1024 --data .data > $R/ncu-full.txt 2>&1
echo "ncu rc=$? t=$(( $(date +%s) - start ))"
F=$R/ncu-full.txt
for k in k_compact k_numeric; do L=$(grep -n "^  .*$k" $F | head -1 | cut -d: -f1); echo "== $k line $L"; sed -n "$L,\$p" $F | grep -E "Duration|Elapsed Cycles|Issue Active|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit (Reg|Shared)|Warp Cycles Per Issued|Stall (Long|Wait|Not Sel|Short|Math|Barrier|MIO|LG|Branch)|L1/TEX Hit|Mem Busy|Executed Instructions  |Avg. Active Threads|Shared Memory Per Block|Grid Size|DRAM Throughput|Memory Throughput" | head -26 | cut -c1-120; done
