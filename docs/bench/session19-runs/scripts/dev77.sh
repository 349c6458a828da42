start=$(date +%s)
R=$OUT/r77; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench
timeout 200 $T "[dot],[index_list],[vector],[convert]" > $R/tests-dot.log 2>&1; echo "CUDA [dot],[index_list],[vector],[convert] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-dot.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-dot.log | tail -2
timeout 120 $B --no-host --reps 10 --ops tri_masked --data .data > $R/tri.log 2>&1
echo "tri bench rc=$? t=$(( $(date +%s) - start ))"; grep -E "tri_masked|geomean" $R/tri.log | cut -c1-150
TGB_TRACE=1 timeout 60 $B --no-host --reps 3 --ops tri_masked --only lap2d_1024,email-Eu-core,bcsstk33 --data .data > $R/trace-tri.log 2>&1
grep "tgb trace" $R/trace-tri.log | tail -18
NCU=/usr/local/cuda/bin/ncu
timeout 100 $NCU --csv --metrics gpu__time_duration.sum $B --no-host --reps 1 --ops tri_masked --only lap2d_1024,email-Eu-core,bcsstk33 --data .data > $R/ncu-tri.csv 2>$R/ncu-tri.err
echo "ncu rc=$? t=$(( $(date +%s) - start ))"
python3 - $R/ncu-tri.csv > $R/ncu-tri.txt <<'PY'
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
hdr=rows[0]; ik=hdr.index("Kernel Name"); iv=hdr.index("Metric Value"); iid=hdr.index("ID")
for r in rows[1:]:
  print(r[iid], r[ik][:100], r[iv])
PY
grep -E "tgb::|dot::|csr::|DeviceScan|DeviceSelect|Radix" $R/ncu-tri.txt | grep -v "cusparse\|CUB_2001" | cut -c1-130 | head -120
g++ -std=c++17 -O2 -shared -fPIC -I/usr/local/cuda/include scripts/kernel_log.cpp -o /tmp/n/libklog.so -ldl && timeout 330 bash scripts/kernel-launches.sh $T /tmp/n/libklog.so $R/kernels > $R/kernel-launches.log 2>&1
echo "kernel launches rc=$? t=$(( $(date +%s) - start ))"; tail -2 $R/kernel-launches.log
python3 scripts/kernel-coverage.py $R/kernels > $R/kernel-coverage.txt 2>&1; echo "coverage rc=$?"; head -30 $R/kernel-coverage.txt | cut -c1-200
cp $R/kernels/cover.txt $R/cover.txt 2>/dev/null; awk -F'\t' '$3 !~ /rc=0,ran=1/' $R/kernels/cases.tsv | head
