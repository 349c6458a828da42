start=$(date +%s)
R=$OUT/r17; mkdir -p $R
echo "tree: HEAD 6ed51ff-equivalent library (binaries prebuilt at 5f052e7, sm_90)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/b && tar -xJf .data/bins.tar.xz -C /tmp/b || exit 1
TGB_BENCH_BIN=/tmp/b/tgb-bench TGB_POOL_AB=0 TGB_BENCH_BUDGET=420 TGB_COMMIT="6ed51ff (library as 5f052e7, prebuilt)" scripts/gpu-bench.sh $R/bench > $R/gpu-bench.out 2>&1
echo "gpu-bench rc=$?"; cat $R/bench/summary.txt | cut -c1-200
echo "t=$(( $(date +%s) - start ))"
TGB_TRACE=1 timeout 40 /tmp/b/tgb-bench --no-host --reps 2 --data .data --only ca-GrQc,hep-th,email,4elt,lap2d,luxembourg --ops plus_times_f64,tri_masked > $R/trace.log 2>&1; echo "trace rc=$?"
NS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
echo "nsys: $NS"
if [ -n "$NS" ]; then
  timeout 90 $NS profile -o $R/hepth --force-overwrite true --stats=false /tmp/b/tgb-bench --no-host --reps 3 --data .data --only hep-th,ca-GrQc --ops plus_times_f64 > $R/nsys.log 2>&1; echo "nsys rc=$?"
  timeout 60 $NS stats --report cuda_gpu_trace,cuda_api_sum --format csv -o $R/hepth $R/hepth.nsys-rep >> $R/nsys.log 2>&1; echo "stats rc=$?"
  rm -f $R/hepth.sqlite; ls -la $R
fi
echo "t=$(( $(date +%s) - start ))"
