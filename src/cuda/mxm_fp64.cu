// tgb CUDA backend: mxm for every predefined semiring on fp64.
#include "mxm_instances.cuh"

TGB_CUDA_MXM_ALL(double)
