R=$OUT/r41; mkdir -p $R
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
NSYS=$(ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/nsight-systems*/bin/nsys 2>/dev/null | head -1); echo "nsys: $NSYS"
B=/tmp/n/tgb-bench
$B --help 2>&1 | grep -iE "reps|only|ops|warm" | head
if [ -n "$NSYS" ]; then
  cd /tmp && timeout 120 $NSYS profile -o /tmp/prof -f true --stats=false $B --no-host --reps 20 --data /work/main/.data --only ca-GrQc --ops plus_times_f64 > $R/nsys-run.log 2>&1; echo "nsys rc=$?"
  timeout 120 $NSYS stats -r cuda_api_sum,cuda_gpu_kern_sum -f csv /tmp/prof.nsys-rep > $R/nsys-stats.csv 2>&1; echo "stats rc=$?"
  head -60 $R/nsys-stats.csv | cut -c1-200
fi
