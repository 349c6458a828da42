// tgb: descriptors carry the operation modifiers of the GraphBLAS C API that
// are not part of the mask (mask modifiers are views: see mask.hpp).
#pragma once

namespace tgb {

struct descriptor {
  bool replace = false;      // clear C outside the mask before writing (GrB_REPLACE)
  bool transpose_a = false;  // use A' (GrB_INP0 = GrB_TRAN)
  bool transpose_b = false;  // use B' (GrB_INP1 = GrB_TRAN)

  constexpr descriptor with_replace(bool v = true) const { descriptor d = *this; d.replace = v; return d; }
  constexpr descriptor with_transpose_a(bool v = true) const { descriptor d = *this; d.transpose_a = v; return d; }
  constexpr descriptor with_transpose_b(bool v = true) const { descriptor d = *this; d.transpose_b = v; return d; }
};

inline constexpr descriptor default_descriptor{};

}  // namespace tgb
