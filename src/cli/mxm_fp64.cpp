// tgb command line: `tgb mxm --type fp64` (one value type per file, so they compile in parallel).
#include "mxm_impl.hpp"

int tgb::cli::run_mxm_fp64(const mxm_options& o) { return run_mxm<double>(o); }
