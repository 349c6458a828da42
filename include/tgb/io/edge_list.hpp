// tgb: plain edge lists for graphs: one edge per line, "src dst [weight]",
// separated by whitespace or commas, 0-based ids, '#' and '%' comment lines,
// optionally gzip-compressed (".gz"). The matrix is n x n with n the largest
// id plus one; an edge without a weight has weight 1.
#pragma once

#include <string>

#include "tgb/io/matrix_market.hpp"

namespace tgb::io {

template <class T>
Matrix<T> read_edge_list(const std::string& path, duplicates dup = duplicates::error) {
  const std::string text = detail::read_file(path);
  return detail::build<T>(detail::parse_edge_list(text, path), path, dup);
}

template <class T>
Matrix<T> parse_edge_list(const std::string& text, const std::string& name = "<memory>",
                          duplicates dup = duplicates::error) {
  return detail::build<T>(detail::parse_edge_list(text, name), name, dup);
}

// Reads a graph: Matrix Market when the file says so, an edge list otherwise.
template <class T>
Matrix<T> read_graph(const std::string& path, duplicates dup = duplicates::error) {
  const std::string text = detail::read_file(path);
  if (text.rfind("%%MatrixMarket", 0) == 0) return detail::build<T>(detail::parse_matrix_market(text, path), path, dup);
  return detail::build<T>(detail::parse_edge_list(text, path), path, dup);
}

}  // namespace tgb::io
