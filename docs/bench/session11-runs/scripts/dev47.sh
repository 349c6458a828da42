start=$(date +%s)
R=$OUT/r47; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
T=/tmp/n/tgb_tests_cuda
timeout 240 $T "[vector]" --durations yes > $R/vector.log 2>&1; echo "vector cases rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion|REQUIRE" -A6 $R/vector.log | head -40 | cut -c1-300; grep -E "passed|failed|s: " $R/vector.log | tail -12
timeout 150 /tmp/n/tgb-bench --spmv --no-host --reps 20 --data .data --json $R/spmv.jsonl > $R/spmv.log 2>&1; echo "spmv rc=$? t=$(( $(date +%s) - start ))"
cut -c1-175 $R/spmv.log | grep -v "^$" | tail -24
for tool in memcheck racecheck synccheck initcheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 99 $T "[vector]" > $R/san-$tool.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test cases' $R/san-$tool.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
  grep -B2 -A14 "Invalid\|Race\|Uninitialized\|Barrier" $R/san-$tool.log | head -24 | cut -c1-250
done
tar -cJf $OUT/r47-san.tar.xz -C $R san-memcheck.log san-racecheck.log san-synccheck.log san-initcheck.log 2>/dev/null; rm -f $R/san-*.log
echo "t=$(( $(date +%s) - start ))"
