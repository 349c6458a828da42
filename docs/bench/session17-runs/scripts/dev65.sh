start=$(date +%s)
R=$OUT/r65; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
B=/tmp/n/tgb-bench
SEL=lap2d_1024,stencil27_64,blocks6_120k,bcsstk33,cond-mat-2003,4elt,luxembourg,uniform
for m in auto rows tile auto rows; do
  timeout 120 $B --no-host --reps 10 --ops plus_times_f64,tri_masked --gpu-method $m --only $SEL --data .data > $R/method-$m.log 2>&1
  echo "== method $m rc=$? t=$(( $(date +%s) - start ))"; grep -E "^\S+ +(plus_times_f64|tri_masked)" $R/method-$m.log | head -20 | cut -c1-200
done
grep -m3 -E "^matrix|^#.*columns" $R/method-auto.log
NCU=/usr/local/cuda/bin/ncu
timeout 150 $NCU --csv --metrics gpu__time_duration.sum,dram__bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active $B --spmv --no-host --reps 3 --only lap2d_1024,stencil27_64,cond-mat-2003,uniform,rmat --data .data > $R/ncu-spmv.csv 2>$R/ncu-spmv.err
echo "ncu rc=$? t=$(( $(date +%s) - start ))"
python3 - $R/ncu-spmv.csv > $R/ncu-summary.txt <<'PY'
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
hdr=rows[0]; ik=hdr.index("Kernel Name"); im=hdr.index("Metric Name"); iv=hdr.index("Metric Value"); iid=hdr.index("ID")
d=collections.OrderedDict()
for r in rows[1:]:
  d.setdefault(r[iid],{"k":r[ik][:70]})[r[im]]=r[iv]
for i,v in d.items():
  print(i, v["k"], v.get("gpu__time_duration.sum"), v.get("dram__bytes.sum"), v.get("sm__warps_active.avg.pct_of_peak_sustained_active"))
PY
echo "t=$(( $(date +%s) - start ))"
grep -iE "pull|spmv|csrmv|merge|fixup|fill" $R/ncu-summary.txt | head -60
