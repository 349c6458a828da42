// tgb: which backends this build and this machine offer.
#pragma once

#include <string>

#include "tgb/config.hpp"

namespace tgb {

// True when the library was built with its CUDA backend compiled in.
bool cuda_compiled() noexcept;
// Number of usable CUDA devices (0 when none, when not compiled, or when the
// current device has no kernel image in this build: the first call checks,
// and starts the CUDA context).
int cuda_device_count() noexcept;
// A one-line description of the current device, or why there is none (no
// GPU, or the architectures this build has code for).
std::string cuda_device_description();
// The backend an application should prefer for mxm: cuda where a device
// exists, host otherwise. (The other operations run on the host only.)
backend preferred_backend() noexcept;
// Waits for the device work issued on the current stream (no-op without CUDA).
void cuda_synchronize();
const char* backend_name(backend b) noexcept;

}  // namespace tgb
