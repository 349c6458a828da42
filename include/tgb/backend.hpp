// tgb: which backends this build and this machine offer.
#pragma once

#include <string>

#include "tgb/config.hpp"

namespace tgb {

// True when the library was built with its CUDA backend compiled in.
bool cuda_compiled() noexcept;
// Number of usable CUDA devices (0 when none, or when not compiled).
int cuda_device_count() noexcept;
// A one-line description of device 0, or why there is none.
std::string cuda_device_description();
// The backend an application should prefer: cuda where a device exists and
// the CUDA backend implements the operation, host otherwise.
backend preferred_backend() noexcept;
const char* backend_name(backend b) noexcept;

}  // namespace tgb
