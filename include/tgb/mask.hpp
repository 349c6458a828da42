// tgb: masks. Pass a Matrix (or Vector) to use its values as the mask (an
// entry lets a write through if it is stored and nonzero), structure(M) to
// use only its pattern, complement(M) to invert it, or no_mask.
#pragma once

#include <type_traits>

#include "tgb/matrix.hpp"
#include "tgb/vector.hpp"

namespace tgb {

struct no_mask_t {};
inline constexpr no_mask_t no_mask{};

template <class M>
struct mask_view {
  const M* object;
  bool structural = false;
  bool complemented = false;
};

namespace detail {
template <class M>
struct is_maskable : std::false_type {};
template <class T>
struct is_maskable<Matrix<T>> : std::true_type {};
template <class T>
struct is_maskable<Vector<T>> : std::true_type {};
}  // namespace detail

template <class M, class = std::enable_if_t<detail::is_maskable<M>::value>>
mask_view<M> structure(const M& m) {
  return mask_view<M>{&m, true, false};
}
template <class M>
mask_view<M> structure(mask_view<M> v) {
  v.structural = true;
  return v;
}
template <class M, class = std::enable_if_t<detail::is_maskable<M>::value>>
mask_view<M> complement(const M& m) {
  return mask_view<M>{&m, false, true};
}
template <class M>
mask_view<M> complement(mask_view<M> v) {
  v.complemented = !v.complemented;
  return v;
}

namespace detail {
// Every accepted mask argument as a view (or no_mask).
inline no_mask_t as_mask_view(no_mask_t) { return {}; }
template <class M, class = std::enable_if_t<is_maskable<M>::value>>
mask_view<M> as_mask_view(const M& m) {
  return mask_view<M>{&m, false, false};
}
template <class M>
mask_view<M> as_mask_view(mask_view<M> v) {
  return v;
}
}  // namespace detail

}  // namespace tgb
