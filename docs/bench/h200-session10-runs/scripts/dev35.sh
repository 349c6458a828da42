start=$(date +%s)
R=$OUT/r35; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n /tmp/rb && tar -xJf .data/bins.tar.xz -C /tmp/n && tar -xJf .data/rb.tar.xz -C /tmp/rb || exit 1
timeout 330 /tmp/n/tgb_tests_cuda --durations yes > $R/tests.log 2>&1; echo "whole CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
for m in uniform uniform16 uniform4 rmat .data/cond-mat-2003.mtx .data/ca-GrQc.mtx .data/hep-th.mtx .data/luxembourg.mtx .data/soc-Slashdot0902.txt.gz .data/4elt.mtx; do
  for v in v0 new v0 new; do
    echo -n "$v "; timeout 60 /tmp/rb/rb_$v $m 20 2>&1 | tail -1 | cut -c1-160
  done
done > $R/rb.log 2>&1
cat $R/rb.log | cut -c1-110
NCU=/usr/local/cuda/bin/ncu
for m in uniform .data/soc-Slashdot0902.txt.gz rmat .data/cond-mat-2003.mtx; do
  timeout 60 $NCU --csv --metrics gpu__time_duration.sum /tmp/rb/rb_new $m 1 > $R/ncu.csv 2>/dev/null
  echo "== $m"; grep gpu__time_duration $R/ncu.csv | awk -F'","' '{gsub(/[",]/,"",$NF); print substr($5,1,45), $NF}' | awk '{t=$NF; $NF=""; s[$0]+=t} END {for (k in s) if (s[k] > 9000) printf "%9.1f us  %s\n", s[k]/3000, k}' | sort -rn
done > $R/ncu-summary.txt 2>&1
cat $R/ncu-summary.txt
echo "t=$(( $(date +%s) - start ))"
echo "== SASS shared atomics in rb_new (k_numeric_small<128,16,double>)"
/usr/local/cuda/bin/cuobjdump -sass -fun '_ZN3tgb6detail4cuda4rows15k_numeric_smallILi128ELi16EdddNS_11plus_monoidENS_5timesEEEvPKllNS2_7csr_refEPKT1_S7_PKT2_iS5_PiPT0_T3_T4_' /tmp/rb/rb_new 2>&1 | grep -oE "ATOMS\.[A-Z0-9.]+|ATOM\.[A-Z0-9.]+|RED\.[A-Z0-9.]+" | sort | uniq -c
/usr/local/cuda/bin/cuobjdump -sass /tmp/rb/rb_new 2>&1 | grep -oE "ATOMS\.[A-Z0-9.]+" | sort | uniq -c
