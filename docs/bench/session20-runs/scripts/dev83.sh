start=$(date +%s)
R=$OUT/r83; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench
timeout 200 $T "[dot],[algorithms]" > $R/tests-dot.log 2>&1; echo "CUDA [dot],[algorithms] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-dot.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-dot.log | tail -2
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 $T "[dot]" > $R/memcheck-dot.log 2>&1
echo "memcheck [dot] rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-dot.log | tail -1) t=$(( $(date +%s) - start ))"
for v in csr tile csr tile; do
  if [ $v = csr ]; then export TGB_CSR_DOT=1; else unset TGB_CSR_DOT; fi
  timeout 120 $B --no-host --reps 10 --ops tri_masked --data .data > $R/tri-$v.log 2>&1
  echo "tri $v rc=$? t=$(( $(date +%s) - start ))"; grep -E "tri_masked" $R/tri-$v.log | cut -c1-110
done
unset TGB_CSR_DOT
M=lap2d_1024,stencil27_64,blocks6_120k,bcsstk33
for cfg in "96 64" "0 64" "32 64" "96 0" "96 1e9"; do
  set -- $cfg
  TGB_DENSE_MIN=$1 timeout 120 $B --no-host --reps 10 --ops plus_times_f64 --only $M --gpu-warp-pair $2 --data .data > $R/aa-$1-$2.log 2>&1
  echo "A*A dense_min=$1 warp_pair=$2 rc=$? t=$(( $(date +%s) - start ))"; grep -E "plus_times" $R/aa-$1-$2.log | cut -c1-110
done
for m in lap2d_1024 stencil27_64; do
  timeout 120 /usr/local/cuda/bin/ncu --csv --metrics gpu__time_duration.sum $B --no-host --reps 1 --ops plus_times_f64 --only $m --data .data > $R/ncu-$m.csv 2>&1
  echo "ncu $m rc=$? t=$(( $(date +%s) - start ))"
  python3 - $R/ncu-$m.csv <<'PY'
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
h=rows[0]; ki=h.index("Kernel Name"); vi=h.index("Metric Value"); ii=h.index("ID")
agg=collections.OrderedDict()
for r in rows[1:]:
    try: v=float(r[vi].replace(",",""))
    except: continue
    k=r[ki].split("(")[0].split("<")[0][-40:]
    agg.setdefault(k,[0,0]); agg[k][0]+=v; agg[k][1]+=1
tot=sum(v[0] for v in agg.values())
for k,v in sorted(agg.items(), key=lambda x:-x[1][0])[:14]: print(f"  {k:40s} n={v[1]:3d} {v[0]/1e3:9.1f} us")
print(f"  total {tot/1e3:.1f} us (warm-up + 1 rep: halve)")
PY
done
TGB_TRACE=1 timeout 60 $B --no-host --reps 3 --ops tri_masked --only lap2d_1024 --data .data > $R/trace-tri.log 2>&1
grep "tgb trace" $R/trace-tri.log | tail -12 | cut -c1-150
