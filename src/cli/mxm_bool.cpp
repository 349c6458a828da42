// tgb command line: `tgb mxm --type bool` (one value type per file, so they compile in parallel).
#include "mxm_impl.hpp"

int tgb::cli::run_mxm_bool(const mxm_options& o) { return run_mxm<bool>(o); }
