// tgb command line: `tgb mxm --type int32` (one value type per file, so they compile in parallel).
#include "mxm_impl.hpp"

int tgb::cli::run_mxm_int32(const mxm_options& o) { return run_mxm<std::int32_t>(o); }
