// tgb: backend names and choice (shared by CUDA and host-only builds).
#include "tgb/backend.hpp"

namespace tgb {

const char* backend_name(backend b) noexcept { return b == backend::cuda ? "cuda" : "host"; }

backend preferred_backend() noexcept { return cuda_device_count() > 0 ? backend::cuda : backend::host; }

}  // namespace tgb
