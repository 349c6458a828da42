R=$OUT/r112; mkdir -p $R
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
[ -x /tmp/n/tgb-bench ] || { mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n; }
mkdir -p /tmp/b && tar -xJf .data/bins-base.tar.xz -C /tmp/b
for i in 1 2; do
for b in /tmp/b/tgb-bench /tmp/n/tgb-bench; do
  timeout 50 $b --only lap2d_1024,stencil27_64,blocks6_120k --no-host --reps 10 --ops plus_times_f64 > $R/ab-$i-$(basename $(dirname $b)).log 2>&1
  echo "$b run $i: $(grep tgb-cuda $R/ab-$i-$(basename $(dirname $b)).log | awk '{print $1, $5}' | tr '\n' ';')"
done; done
