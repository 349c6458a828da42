start=$(date +%s)
R=$OUT/r88; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n /tmp/o && tar -xJf .data/bins.tar.xz -C /tmp/n && tar -xJf .data/bins-base.tar.xz -C /tmp/o || exit 1
B=/tmp/n/tgb-bench O=/tmp/o/tgb-bench
for b in O B O B; do
  eval bin=\$$b
  timeout 40 $bin --no-host --reps 10 --ops tri_masked --only lap2d_1024,stencil27_64,blocks6_120k,bcsstk33 --data .data > $R/t.log 2>&1; cat $R/t.log >> $R/tri.log
  echo "tri $b rc=$? t=$(( $(date +%s) - start ))"; grep -E "tri_masked" $R/t.log | awk '{printf "%s %s %s | ", $1, $3, $5} END {print ""}'
done
rm -f $R/t.log
