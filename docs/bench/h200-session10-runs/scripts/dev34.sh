R=$OUT/r34; mkdir -p $R
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/rb && tar -xJf .data/rb.tar.xz -C /tmp/rb || exit 1
for m in uniform16 rmat .data/cond-mat-2003.mtx .data/soc-Slashdot0902.txt.gz .data/hep-th.mtx; do
  for v in w2 w4 w2 w4; do
    echo -n "$v "; timeout 60 /tmp/rb/rb_$v $m 30 2>&1 | tail -1 | cut -c1-110
  done
done 2>&1 | tee $R/rb.log
NCU=/usr/local/cuda/bin/ncu
M=gpu__time_duration.sum
for m in uniform16 .data/cond-mat-2003.mtx; do for v in w2 w4; do
  timeout 60 $NCU --csv --metrics $M -k regex:k_numeric /tmp/rb/rb_$v $m 1 > $R/ncu.csv 2>/dev/null
  echo "== $m $v"; grep gpu__time_duration $R/ncu.csv | awk -F'","' '{gsub(/[",]/,"",$NF); print substr($5,1,40), $NF}' | sort | awk '{k=$1" "$2" "$3; s[k]+=$NF} END {for (k in s) print k, s[k]/3}'
done; done
