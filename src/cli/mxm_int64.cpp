// tgb command line: `tgb mxm --type int64` (one value type per file, so they compile in parallel).
#include "mxm_impl.hpp"

int tgb::cli::run_mxm_int64(const mxm_options& o) { return run_mxm<std::int64_t>(o); }
