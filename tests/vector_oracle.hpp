// The vector oracle of the host tests: vectors as ordered maps, masks as
// predicates, and the write-back w<m, replace> = accum(w, t) written from the
// GraphBLAS C API's definition.
#pragma once

#include <map>
#include <random>
#include <string>

#include "oracle.hpp"

namespace vector_oracle {

using tgb::index_t;
using tgb::Vector;

template <class T>
using vmap = std::map<index_t, T>;

template <class T>
vmap<T> to_vmap(const Vector<T>& v) {
  vmap<T> out;
  const auto [idx, val] = v.extract_tuples();
  for (std::size_t k = 0; k < idx.size(); ++k) out[idx[k]] = val[k];
  return out;
}
template <class T>
Vector<T> from_vmap(index_t n, const vmap<T>& m) {
  std::vector<index_t> idx;
  std::vector<T> val;
  for (const auto& [i, x] : m) idx.push_back(i), val.push_back(x);
  return Vector<T>::from_coo(n, idx, val);
}

template <class T>
std::string show(const vmap<T>& m) {
  std::string s = "{";
  for (const auto& [i, x] : m) s += " " + std::to_string(i) + ":" + std::to_string(+x);
  return s + " }";
}

// A vector mask as the oracle sees it.
struct vmask_spec {
  bool active = false, structural = false, complement = false;
  std::map<index_t, bool> stored;  // index -> value nonzero
  bool allows(index_t i) const {
    if (!active) return true;
    auto it = stored.find(i);
    const bool m = it != stored.end() && (structural || it->second);
    return m != complement;
  }
};
// f(M in mode `mode`): 0 none, 1 value, 2 structure, 3 complement, 4 the
// complement of the structure; M wherever it lives.
template <class U, class F>
void in_mask_mode(int mode, const Vector<U>& M, F&& f) {
  switch (mode) {
    case 0: f(tgb::no_mask); break;
    case 1: f(M); break;
    case 2: f(tgb::structure(M)); break;
    case 3: f(tgb::complement(M)); break;
    default: f(tgb::complement(tgb::structure(M))); break;
  }
}
// The same, with the oracle's reading of the mask (M on the host).
template <class U, class F>
vmask_spec with_mask_mode(int mode, const Vector<U>& M, F&& f) {
  vmask_spec s;
  s.active = mode != 0;
  s.structural = mode == 2 || mode == 4;
  s.complement = mode >= 3;
  for (const auto& [i, x] : to_vmap(M)) s.stored[i] = x != U(0);
  in_mask_mode(mode, M, f);
  return s;
}
inline const char* mask_name(int mode) {
  static const char* names[] = {"none", "value", "structure", "complement", "complement structure"};
  return names[mode];
}

// w<m, replace> = accum(w, t), from the C API's definition.
template <class T, class Accum>
vmap<T> oracle_writeback(const vmap<T>& w, const vmap<T>& t, const vmask_spec& m, const Accum* accum, bool replace) {
  vmap<T> z = accum ? w : t;
  if (accum)
    for (const auto& [i, x] : t) {
      auto it = z.find(i);
      if (it == z.end()) z[i] = x;
      else it->second = static_cast<T>((*accum)(it->second, x));
    }
  vmap<T> out;
  for (const auto& [i, x] : z)
    if (m.allows(i)) out[i] = x;
  if (!replace)
    for (const auto& [i, x] : w)
      if (!m.allows(i)) out[i] = x;
  return out;
}


// The form random vectors are made in (and, where forced, every result
// written into copies of them takes): the randomized tests run once per form,
// so each operation meets sparse and bitmap operands and outputs.
inline tgb::vector_form& random_vector_form() {
  static tgb::vector_form f = tgb::vector_form::automatic;
  return f;
}
inline const char* form_name(tgb::vector_form f) {
  return f == tgb::vector_form::sparse ? "sparse" : f == tgb::vector_form::bitmap ? "bitmap" : "automatic";
}
// Runs f once with random vectors in each form.
template <class F>
void for_each_vector_form(F&& f) {
  for (tgb::vector_form form : {tgb::vector_form::automatic, tgb::vector_form::sparse, tgb::vector_form::bitmap}) {
    random_vector_form() = form;
    f(form);
  }
  random_vector_form() = tgb::vector_form::automatic;
}

template <class T>
Vector<T> random_vector(std::mt19937_64& rng, index_t n, double density) {
  Vector<T> v(n);
  if (n > 0 && density <= 0) {  // exactly one entry
    v.set(std::uniform_int_distribution<index_t>(0, n - 1)(rng), oracle::random_value<T>(rng, false));
  } else if (n > 0) {
    std::bernoulli_distribution keep(density);
    for (index_t i = 0; i < n; ++i)
      if (keep(rng)) v.set(i, oracle::random_value<T>(rng));
  }
  v.set_form(random_vector_form());
  return v;
}

}  // namespace vector_oracle
