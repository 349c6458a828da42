R=$OUT/r68; mkdir -p $R
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
timeout 100 .data/spmvbench .data/luxembourg.mtx .data/ca-GrQc.mtx .data/cond-mat-2003.mtx > $R/spmvbench.log 2>&1; echo "spmvbench rc=$?"
sed -E 's/ (g[0-9]+u[0-9]|defer[0-9]+|t_u[0-9]|t2_u[0-9]|ws[0-9]+) [0-9.]+//g' $R/spmvbench.log | cut -c1-220
nsys --version 2>/dev/null | head -1
