start=$(date +%s)
R=$OUT/r32; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/rb && tar -xJf .data/rb.tar.xz -C /tmp/rb || exit 1
for m in uniform uniform16 uniform4 rmat .data/cond-mat-2003.mtx .data/ca-GrQc.mtx .data/hep-th.mtx .data/luxembourg.mtx .data/soc-Slashdot0902.txt.gz .data/4elt.mtx; do
  for v in v0 v1 v2 v3; do
    echo -n "$v "; timeout 60 /tmp/rb/rb_$v $m 10 2>&1 | tail -1
  done
done > $R/rb.log 2>&1
cat $R/rb.log
echo "t=$(( $(date +%s) - start ))"
NCU=/usr/local/cuda/bin/ncu
M=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
for v in v0 v1; do
  timeout 60 $NCU --csv --metrics $M /tmp/rb/rb_$v uniform 1 > $R/ncu-$v.csv 2>/dev/null; echo "ncu $v rc=$?"
  grep -E "k_numeric|k_symbolic" $R/ncu-$v.csv | awk -F'","' '{print $5, $(NF-2), $NF}' | cut -c1-200 | sort | uniq -c | head -20
done
echo "t=$(( $(date +%s) - start ))"
