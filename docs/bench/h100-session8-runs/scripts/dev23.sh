R=$OUT/r24; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/b && tar -xJf .data/bins.tar.xz -C /tmp/b || exit 1
T=/tmp/b/tgb_tests_cuda; B=/tmp/b/tgb-bench
timeout 80 $T "[rowsaxpy]" > $R/rowsaxpy.log 2>&1; echo "rowsaxpy rc=$?"; grep -E "FAILED|with expansion" -A6 $R/rowsaxpy.log | head -20 | cut -c1-300; grep -E "passed|failed" $R/rowsaxpy.log | tail -2
timeout 70 $B --no-host --reps 10 --data .data --ops plus_times_f64 --only ca-GrQc,email,hep-th,4elt,luxembourg,cond-mat,uniform,Slashdot,rmat --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$?"
grep -E "tgb-cuda|cusparse" $R/bench.log | cut -c1-100; grep geomean $R/bench.log | sort -u
timeout 40 $B --no-host --reps 10 --data .data --ops plus_times_f64 --gpu-fused-max 0 --only ca-GrQc,email,hep-th,4elt,luxembourg,cond-mat --json $R/bench-nofuse.jsonl > $R/bench-nofuse.log 2>&1; echo "nofuse rc=$?"
grep -E "tgb-cuda" $R/bench-nofuse.log | cut -c1-100
