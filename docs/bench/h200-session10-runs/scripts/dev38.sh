R=$OUT/r38; mkdir -p $R
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/rb && tar -xJf .data/rb.tar.xz -C /tmp/rb || exit 1
for m in .data/soc-Slashdot0902.txt.gz rmat .data/cond-mat-2003.mtx uniform16 .data/ca-GrQc.mtx; do
  for v in shfl radix shfl radix; do echo -n "$v "; timeout 60 /tmp/rb/rb_$v $m 20 2>&1 | tail -1 | cut -c30-200; done
done
NCU=/usr/local/cuda/bin/ncu
run() { timeout 80 $NCU --csv --metrics gpu__time_duration.sum /tmp/rb/rb_$1 $2 1 > $R/ncu.csv 2>/dev/null
  echo "== $2 $1"; grep gpu__time_duration $R/ncu.csv | awk -F'","' '{gsub(/[",]/,"",$NF); print substr($5,1,45), $NF}' | awk '{t=$NF; $NF=""; s[$0]+=t} END {for (k in s) if (s[k] > 300000) printf "%9.1f us  %s\n", s[k]/3000, k}' | sort -rn; }
for v in radix; do run $v .data/soc-Slashdot0902.txt.gz; run $v rmat; done
