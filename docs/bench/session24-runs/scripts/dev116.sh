# r116: the initcheck report of r115 ("threads on their own streams", a scan's
# input read as never written) looked into: memcheck's stream-ordered race
# tracking over the same case, initcheck again, and initcheck with launches
# made synchronous.
start=$(date +%s)
R=$OUT/r116; mkdir -p $R
echo "tree: $(cat .dev/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
[ -x /tmp/n/tgb_tests_cuda ] || { mkdir -p /tmp/n && tar -xJf .dev/bins.tar.xz -C /tmp/n || exit 1; }
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda; C="threads on their own streams give the one-by-one results"
compute-sanitizer --version | tail -1
( timeout 200 compute-sanitizer --tool memcheck --track-stream-ordered-races all --error-exitcode 99 $T "$C" > $R/memcheck-so.log 2>&1; echo "memcheck stream-ordered rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-so.log | tail -1)" > $R/a.rc ) &
( timeout 200 compute-sanitizer --tool initcheck --error-exitcode 99 $T "$C" > $R/initcheck.log 2>&1; echo "initcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/initcheck.log | tail -1)" > $R/b.rc ) &
( CUDA_LAUNCH_BLOCKING=1 timeout 200 compute-sanitizer --tool initcheck --error-exitcode 99 $T "$C" > $R/initcheck-blocking.log 2>&1; echo "initcheck blocking rc=$? $(grep -E 'ERROR SUMMARY' $R/initcheck-blocking.log | tail -1)" > $R/c.rc ) &
( timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 $T "$C" > $R/racecheck.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck.log | tail -1)" > $R/d.rc ) &
wait; cat $R/*.rc; echo "t=$(( $(date +%s) - start ))"
for f in $R/*.log; do grep -m3 -A3 "Uninitialized\|Invalid\|race" $f | head -8; done
tar -czf $OUT/r116.tar.gz -C $OUT r116; rm -rf $R
