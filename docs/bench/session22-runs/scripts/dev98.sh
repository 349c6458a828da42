start=$(date +%s)
R=$OUT/r98; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench
for m in lap2d_1024; do
  timeout 120 ncu --csv --metrics gpu__time_duration.sum $B --no-host --reps 1 --ops plus_times_f64 --only $m --data .data > $R/ncu-$m.csv 2>&1
  echo "ncu $m rc=$? t=$(( $(date +%s) - start ))"
  python3 - $R/ncu-$m.csv <<'PY' > $R/ncu-$m.txt
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
if not rows: sys.exit(0)
h=rows[0]; ki=h.index("Kernel Name"); vi=h.index("Metric Value")
agg=collections.OrderedDict(); seq=[]
for r in rows[1:]:
    try: v=float(r[vi].replace(",",""))
    except: continue
    k=r[ki].split("(")[0].split("<")[0][-40:]
    seq.append((k,v))
    agg.setdefault(k,[0,0]); agg[k][0]+=v; agg[k][1]+=1
tot=sum(v[0] for v in agg.values())
for k,v in sorted(agg.items(), key=lambda x:-x[1][0])[:30]: print(f"  {k:40s} n={v[1]:3d} {v[0]/1e3:9.1f} us")
print(f"  total {tot/1e3:.1f} us (warm-up + 1 rep: halve)")
print("last rep sequence:")
half=len(seq)//2
for k,v in seq[half:]: print(f"  {k:40s} {v/1e3:8.1f}")
PY
  cat $R/ncu-$m.txt | head -70; rm -f $R/ncu-$m.csv
done
g++ -std=c++17 -O2 -shared -fPIC -I/usr/local/cuda/include scripts/kernel_log.cpp -o /tmp/shim.so -ldl || echo "shim build failed"
K=/tmp/kern; timeout 420 bash scripts/kernel-launches.sh $T /tmp/shim.so $K > $R/kernel-launches.log 2>&1
echo "kernel-launches rc=$? t=$(( $(date +%s) - start ))"; tail -2 $R/kernel-launches.log
python3 scripts/kernel-coverage.py $K > $R/kernel-coverage.txt 2>&1; head -12 $R/kernel-coverage.txt
cp $K/cases.tsv $K/all.txt $R/ 2>/dev/null
awk -F'\t' '$3 !~ /^rc=0,ran=1/' $K/cases.tsv | head -20
echo "cases: $(wc -l < $K/cases.tsv) ok: $(grep -c 'rc=0,ran=1' $K/cases.tsv)"
for f in $K/case-*.log; do grep -l "FAILED" $f; done 2>/dev/null | head -5 | while read f; do grep -B3 -A8 FAILED $f | head -30; done
