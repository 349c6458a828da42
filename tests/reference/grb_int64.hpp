// Helpers the SuiteSparse:GraphBLAS reference tests share (int64 values):
// tgb's matrices and vectors into GraphBLAS objects and both back into maps,
// descriptors for the five mask modes, the mask argument for tgb in the same
// mode. Included by one test file each, inside no namespace of theirs.
#pragma once

extern "C" {
#include <GraphBLAS.h>
}

#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "../oracle.hpp"

namespace grb_ref {

using I64 = std::int64_t;
using tgb::index_t;

inline void ok(GrB_Info info, const char* what) {
  if (info != GrB_SUCCESS) throw std::runtime_error(std::string("GraphBLAS: ") + what + " failed, info " + std::to_string(info));
}

inline GrB_Matrix to_grb(const tgb::Matrix<I64>& m) {
  GrB_Matrix g = nullptr;
  ok(GrB_Matrix_new(&g, GrB_INT64, m.nrows(), m.ncols()), "Matrix_new");
  const auto c = m.to_coo();
  // One spare element: GraphBLAS rejects null arrays even for zero tuples.
  std::vector<GrB_Index> i(c.rows.begin(), c.rows.end()), j(c.cols.begin(), c.cols.end());
  std::vector<I64> x(c.values.begin(), c.values.end());
  i.push_back(0), j.push_back(0), x.push_back(0);
  ok(GrB_Matrix_build_INT64(g, i.data(), j.data(), x.data(), c.values.size(), GrB_FIRST_INT64), "Matrix_build");
  return g;
}
inline GrB_Vector to_grb(const tgb::Vector<I64>& v) {
  GrB_Vector g = nullptr;
  ok(GrB_Vector_new(&g, GrB_INT64, v.size()), "Vector_new");
  const auto [idx, val] = v.extract_tuples();
  std::vector<GrB_Index> i(idx.begin(), idx.end());
  std::vector<I64> x(val.begin(), val.end());
  i.push_back(0), x.push_back(0);
  ok(GrB_Vector_build_INT64(g, i.data(), x.data(), val.size(), GrB_FIRST_INT64), "Vector_build");
  return g;
}
inline void grb_free(GrB_Matrix* m) { GrB_Matrix_free(m); }
inline void grb_free(GrB_Vector* v) { GrB_Vector_free(v); }

inline std::map<std::pair<index_t, index_t>, I64> as_map(GrB_Matrix g) {
  GrB_Index n = 0;
  ok(GrB_Matrix_nvals(&n, g), "nvals");
  std::vector<GrB_Index> i(n + 1), j(n + 1);
  std::vector<I64> x(n + 1);
  ok(GrB_Matrix_extractTuples_INT64(i.data(), j.data(), x.data(), &n, g), "extractTuples");
  std::map<std::pair<index_t, index_t>, I64> out;
  for (GrB_Index k = 0; k < n; ++k) out[{index_t(i[k]), index_t(j[k])}] = x[k];
  return out;
}
inline std::map<index_t, I64> as_map(GrB_Vector g) {
  GrB_Index n = 0;
  ok(GrB_Vector_nvals(&n, g), "nvals");
  std::vector<GrB_Index> i(n + 1);
  std::vector<I64> x(n + 1);
  ok(GrB_Vector_extractTuples_INT64(i.data(), x.data(), &n, g), "extractTuples");
  std::map<index_t, I64> out;
  for (GrB_Index k = 0; k < n; ++k) out[index_t(i[k])] = x[k];
  return out;
}
inline auto as_map(const tgb::Matrix<I64>& m) { return oracle::to_map(m); }
inline std::map<index_t, I64> as_map(const tgb::Vector<I64>& v) {
  std::map<index_t, I64> out;
  const auto [idx, val] = v.extract_tuples();
  for (std::size_t k = 0; k < idx.size(); ++k) out[idx[k]] = val[k];
  return out;
}

inline tgb::Vector<I64> random_vector(std::mt19937_64& rng, index_t n, double density) {
  tgb::Vector<I64> v(n);
  std::bernoulli_distribution keep(density);
  for (index_t i = 0; i < n; ++i)
    if (keep(rng)) v.set(i, oracle::random_value<I64>(rng));
  return v;
}

// A GraphBLAS descriptor for mask mode 0..4 (none, value, structure,
// complement, complement of the structure), replace and transposing A.
inline GrB_Descriptor make_desc(int mode, bool replace, bool t0 = false) {
  GrB_Descriptor d = nullptr;
  ok(GrB_Descriptor_new(&d), "Descriptor_new");
  if (replace) ok(GrB_Descriptor_set(d, GrB_OUTP, GrB_REPLACE), "desc");
  if (t0) ok(GrB_Descriptor_set(d, GrB_INP0, GrB_TRAN), "desc");
  if (mode == 2 || mode == 4) ok(GrB_Descriptor_set(d, GrB_MASK, GrB_STRUCTURE), "desc");
  if (mode >= 3) ok(GrB_Descriptor_set(d, GrB_MASK, GrB_COMP), "desc");
  return d;
}
// f called with tgb's mask argument for the same mode.
template <class M, class F>
void with_mask(int mode, const M& mask, F&& f) {
  switch (mode) {
    case 0: f(tgb::no_mask); break;
    case 1: f(mask); break;
    case 2: f(tgb::structure(mask)); break;
    case 3: f(tgb::complement(mask)); break;
    default: f(tgb::complement(tgb::structure(mask))); break;
  }
}

}  // namespace grb_ref
