// tgb: backend names and choice (shared by CUDA and host-only builds).
#include "tgb/backend.hpp"

namespace tgb {

const char* backend_name(backend b) noexcept { return b == backend::cuda ? "cuda" : "host"; }

backend preferred_backend() noexcept {
  // The CUDA backend's operations are not in this release yet (see
  // docs/design.md); everything runs on the host until they land.
  return backend::host;
}

}  // namespace tgb
