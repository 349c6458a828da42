// tgb: backend queries for a build without the CUDA backend.
#include "tgb/backend.hpp"

namespace tgb {

bool cuda_compiled() noexcept { return false; }
int cuda_device_count() noexcept { return 0; }
std::string cuda_device_description() { return "CUDA backend not compiled into this build"; }
void cuda_synchronize() {}

}  // namespace tgb
