R=$OUT/r42; mkdir -p $R
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
B=/tmp/n/tgb-bench
TGB_TRACE=1 timeout 60 $B --no-host --reps 3 --data .data --only ca-GrQc --ops plus_times_f64 2>&1 | tail -30
timeout 100 /usr/local/cuda/bin/ncu --csv --metrics gpu__time_duration.sum $B --no-host --reps 1 --data .data --only ca-GrQc --ops plus_times_f64 > $R/ncu.csv 2>/dev/null; echo "ncu rc=$?"
grep gpu__time_duration $R/ncu.csv | awk -F'","' '{gsub(/[",]/,"",$NF); print $1, substr($5,1,60), $NF}' | tail -45
