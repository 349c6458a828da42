R=$OUT/r66; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
timeout 200 .data/spmvbench .data/ca-GrQc.mtx .data/soc-Slashdot0902.txt.gz .data/email-Eu-core.csv .data/luxembourg.mtx .data/hep-th.mtx .data/cond-mat-2003.mtx .data/4elt.mtx .data/bcsstk33.mtx > $R/spmv.log 2>&1; echo rc=$?
cat $R/spmv.log
