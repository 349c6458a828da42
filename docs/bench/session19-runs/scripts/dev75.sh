start=$(date +%s)
R=$OUT/r75; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench
timeout 200 $T "[index_list]" > $R/tests-index.log 2>&1; echo "CUDA [index_list] cases rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-index.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-index.log | tail -2
timeout 200 $T "connected components on the GPU against the host and a union-find" "algorithms on the GPU against the host*" > $R/tests-cc.log 2>&1; echo "CUDA cc + algorithms cases rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-cc.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-cc.log | tail -2
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $T "device build from vectors*" > $R/memcheck-build.log 2>&1
echo "memcheck (build case) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-build.log | tail -1) t=$(( $(date +%s) - start ))"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 $T "connected components on the GPU against the host and a union-find" > $R/memcheck-cc.log 2>&1
echo "memcheck (cc case) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-cc.log | tail -1) t=$(( $(date +%s) - start ))"
timeout 150 $B --algorithms --vector-only --reps 5 --host-reps 3 .data/ca-GrQc.mtx .data/email-Eu-core.csv .data/luxembourg.mtx .data/hep-th.mtx .data/cond-mat-2003.mtx .data/4elt.mtx .data/bcsstk33.mtx .data/soc-Slashdot0902.txt.gz > $R/alg.log 2>&1
echo "algorithms rc=$? t=$(( $(date +%s) - start ))"; grep -E " cc |FAIL|MISMATCH" $R/alg.log | head -30 | cut -c1-180
TGB_TRACE=1 timeout 60 $B --no-host --reps 3 --ops tri_masked --only lap2d_1024,email-Eu-core --data .data > $R/trace-tri.log 2>&1
echo "trace rc=$? t=$(( $(date +%s) - start ))"; grep -E "tri_masked" $R/trace-tri.log | cut -c1-150; grep "tgb trace" $R/trace-tri.log | tail -24
NCU=/usr/local/cuda/bin/ncu
timeout 100 $NCU --csv --metrics gpu__time_duration.sum $B --no-host --reps 2 --ops tri_masked --only lap2d_1024,email-Eu-core --data .data > $R/ncu-tri.csv 2>$R/ncu-tri.err
echo "ncu rc=$? t=$(( $(date +%s) - start ))"
python3 - $R/ncu-tri.csv > $R/ncu-tri.txt <<'PY'
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
hdr=rows[0]; ik=hdr.index("Kernel Name"); iv=hdr.index("Metric Value"); iid=hdr.index("ID")
for r in rows[1:]:
  print(r[iid], r[ik][:110], r[iv])
PY
wc -l $R/ncu-tri.txt; head -80 $R/ncu-tri.txt
timeout 330 $T --durations yes > $R/tests.log 2>&1; echo "whole CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
