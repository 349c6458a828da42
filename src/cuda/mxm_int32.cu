// tgb CUDA backend: mxm for every predefined semiring on int32.
#include "mxm_instances.cuh"

TGB_CUDA_MXM_ALL(std::int32_t)
