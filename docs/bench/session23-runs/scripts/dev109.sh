start=$(date +%s)
R=$OUT/r109; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
RACE="device extract\, assign\, subassign\, kronecker and diagonals: one small call each"
for tool in racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $T "$RACE" > $R/$tool-small.log 2>&1
  echo "$tool (one small call each) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test cases|All tests' $R/$tool-small.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
done
g++ -std=c++17 -O2 -shared -fPIC -I/usr/local/cuda/include scripts/kernel_log.cpp -o /tmp/shim.so -ldl || echo "shim build failed"
left=$(( 580 - ($(date +%s) - start) ))
K=/tmp/kern; timeout $left bash scripts/kernel-launches.sh $T /tmp/shim.so $K .data/count-cases.txt > $R/kernel-launches.log 2>&1
echo "kernel-launches rc=$? t=$(( $(date +%s) - start ))"; tail -2 $R/kernel-launches.log
python3 scripts/kernel-coverage.py $K > $R/kernel-coverage.txt 2>&1; head -14 $R/kernel-coverage.txt
cp $K/cases.tsv $R/ 2>/dev/null; cp $K/cover.txt $R/ 2>/dev/null
awk -F'\t' '$3 !~ /^rc=0,ran=1/' $K/cases.tsv | head -20
echo "cases: $(wc -l < $K/cases.tsv) ok: $(grep -c 'rc=0,ran=1' $K/cases.tsv)"
