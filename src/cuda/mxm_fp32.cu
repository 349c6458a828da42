// tgb CUDA backend: mxm for every predefined semiring on fp32.
#include "mxm_instances.cuh"

TGB_CUDA_MXM_ALL(float)
