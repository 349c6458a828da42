start=$(date +%s)
R=$OUT/r62; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n /tmp/o && tar -xJf .data/bins.tar.xz -C /tmp/n && tar -xJf .data/bench-old.tar.xz -C /tmp/o || exit 1
timeout 60 /tmp/n/tgb_tests_cuda "[mr]" > $R/mr.log 2>&1; echo "[mr] rc=$? $(tail -2 $R/mr.log | head -1)"
k=0
for v in o n o n; do
  k=$((k+1))
  timeout 140 /tmp/$v/tgb-bench --no-host --reps 10 --ops plus_times_f64,tri_masked --data .data > $R/bench-$k-$v.log 2>&1
  echo "== $k $v rc=$? t=$(( $(date +%s) - start ))"; grep -E "geomean|DIFFERS|FAIL" $R/bench-$k-$v.log | head -8
done
