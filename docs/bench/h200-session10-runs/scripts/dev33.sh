start=$(date +%s)
R=$OUT/r33; mkdir -p $R
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/rb && tar -xJf .data/rb.tar.xz -C /tmp/rb || exit 1
for m in uniform uniform16 uniform4 rmat .data/cond-mat-2003.mtx .data/ca-GrQc.mtx .data/soc-Slashdot0902.txt.gz; do
  for v in v0 w1 w2 w3; do
    echo -n "$v "; timeout 60 /tmp/rb/rb_$v $m 30 2>&1 | tail -1 | cut -c1-110
  done
done > $R/rb.log 2>&1
cat $R/rb.log
echo "t=$(( $(date +%s) - start ))"
NCU=/usr/local/cuda/bin/ncu
M=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
for m in uniform uniform16 .data/cond-mat-2003.mtx; do for v in v0 w1 w2 w3; do
  timeout 60 $NCU --csv --metrics $M -k regex:k_numeric /tmp/rb/rb_$v $m 1 > $R/ncu.csv 2>/dev/null
  echo "== $m $v"; grep gpu__time_duration $R/ncu.csv | awk -F'","' '{print $5}' | cut -c1-60 | sort | uniq -c
  grep gpu__time_duration $R/ncu.csv | awk -F'","' '{gsub(/[",]/,"",$NF); s+=$NF} END {print "numeric total us", s/3000}'
done; done
echo "t=$(( $(date +%s) - start ))"
