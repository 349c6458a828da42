// tgb CUDA backend: mxm for every predefined semiring on bool.
#include "mxm_instances.cuh"

TGB_CUDA_MXM_ALL(bool)
