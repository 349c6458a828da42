// tgb: plain edge lists for graphs: one edge per line, "src dst [weight]",
// separated by whitespace or commas, 0-based ids, '#' and '%' comment lines,
// optionally gzip-compressed (".gz"). The matrix is n x n with n the largest
// id plus one; an edge without a weight has weight 1. A file with no edges is
// an error ("no data"): it cannot say how many vertices the graph has.
#pragma once

#include <string>

#include "tgb/io/matrix_market.hpp"

namespace tgb::io {

template <class T>
Matrix<T> read_edge_list(const std::string& path, const read_options& opt) {
  return detail::read_as<T>(detail::text_ref{&path}, path, detail::file_format::edge_list, opt);
}
template <class T>
Matrix<T> read_edge_list(const std::string& path, duplicates dup = duplicates::error) {
  return read_edge_list<T>(path, read_options{dup});
}

template <class T>
Matrix<T> parse_edge_list(const std::string& text, const std::string& name, const read_options& opt) {
  return detail::read_as<T>(detail::text_ref{nullptr, text.data(), text.size()}, name,
                            detail::file_format::edge_list, opt);
}
template <class T>
Matrix<T> parse_edge_list(const std::string& text, const std::string& name = "<memory>",
                          duplicates dup = duplicates::error) {
  return parse_edge_list<T>(text, name, read_options{dup});
}

// Reads a graph: a file whose first non-blank line starts with '%' is Matrix
// Market (or an error, never an edge list); anything else is an edge list.
template <class T>
Matrix<T> read_graph(const std::string& path, const read_options& opt) {
  return detail::read_as<T>(detail::text_ref{&path}, path, detail::file_format::detect, opt);
}
template <class T>
Matrix<T> read_graph(const std::string& path, duplicates dup = duplicates::error) {
  return read_graph<T>(path, read_options{dup});
}

}  // namespace tgb::io
