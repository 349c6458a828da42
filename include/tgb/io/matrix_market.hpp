// tgb: Matrix Market files (coordinate and array; real, integer, pattern;
// general, symmetric, skew-symmetric). Complex and Hermitian files are
// rejected. Errors name the file, the line and the problem.
#pragma once

#include <cmath>
#include <cstdint>
#include <fstream>
#include <ostream>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "tgb/error.hpp"
#include "tgb/matrix.hpp"

namespace tgb::io {

// What a reader does with two entries at the same position.
enum class duplicates { error, keep_first, keep_last, sum };

namespace detail {

enum class value_kind { real, integer, pattern };

// Entries as read, 0-based, symmetric halves already mirrored.
struct raw_entries {
  index_t nrows = 0;
  index_t ncols = 0;
  value_kind kind = value_kind::pattern;
  std::vector<index_t> rows, cols;
  std::vector<double> real;          // kind == real
  std::vector<std::int64_t> integer; // kind == integer
};

// The whole file as text; ".gz" files are inflated (zlib builds only).
std::string read_file(const std::string& path);
// Inflates gzip data held in memory (concatenated members too).
std::string gunzip(const std::string& data, const std::string& name);
raw_entries parse_matrix_market(const std::string& text, const std::string& name);
raw_entries parse_edge_list(const std::string& text, const std::string& name);
const char* type_name(int code);

template <class T>
constexpr const char* type_label() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, float>) return "fp32";
  else if constexpr (std::is_same_v<T, double>) return "fp64";
  else return "user type";
}

// Converts read values to T: integers must fit, reals go only to floating
// point types, bool takes 0 and 1.
template <class T>
std::vector<T> convert_values(const raw_entries& raw, const std::string& name) {
  const std::size_t n = raw.rows.size();
  std::vector<T> v(n);
  auto fail = [&](std::size_t k, const std::string& what) {
    throw domain_mismatch(name + ": entry (" + std::to_string(raw.rows[k] + 1) + ", " +
                          std::to_string(raw.cols[k] + 1) + ") " + what);
  };
  if (raw.kind == value_kind::pattern) {
    for (std::size_t k = 0; k < n; ++k) v[k] = T(1);
  } else if (raw.kind == value_kind::integer) {
    for (std::size_t k = 0; k < n; ++k) {
      const std::int64_t x = raw.integer[k];
      if constexpr (std::is_same_v<T, bool>) {
        if (x != 0 && x != 1) fail(k, "has value " + std::to_string(x) + ", which is not 0 or 1 as bool requires");
      } else if constexpr (std::is_integral_v<T>) {
        if (x < std::int64_t(std::numeric_limits<T>::lowest()) || x > std::int64_t(std::numeric_limits<T>::max()))
          fail(k, "has value " + std::to_string(x) + ", which does not fit " + type_label<T>());
      }
      v[k] = static_cast<T>(x);
    }
  } else {
    if constexpr (!std::is_floating_point_v<T>) {
      if (n > 0)
        throw domain_mismatch(name + ": the file holds real values; read it as fp32 or fp64, not " +
                              type_label<T>());
    } else {
      for (std::size_t k = 0; k < n; ++k) v[k] = static_cast<T>(raw.real[k]);
    }
  }
  return v;
}

template <class T>
Matrix<T> build(const raw_entries& raw, const std::string& name, duplicates dup) {
  const std::vector<T> v = convert_values<T>(raw, name);
  try {
    switch (dup) {
      case duplicates::keep_first: return Matrix<T>::from_coo(raw.nrows, raw.ncols, raw.rows, raw.cols, v, first{});
      case duplicates::keep_last: return Matrix<T>::from_coo(raw.nrows, raw.ncols, raw.rows, raw.cols, v, second{});
      case duplicates::sum: return Matrix<T>::from_coo(raw.nrows, raw.ncols, raw.rows, raw.cols, v, plus{});
      default: return Matrix<T>::from_coo(raw.nrows, raw.ncols, raw.rows, raw.cols, v, no_duplicates);
    }
  } catch (const out_of_memory&) {
    throw;
  } catch (const invalid_value& e) {
    throw io_error(name + ": " + e.what());
  }
}

void write_header(std::ostream& out, bool integer_field, index_t nrows, index_t ncols, offset_t nvals);
void write_value(std::ostream& out, double v);
void write_value(std::ostream& out, long long v);

}  // namespace detail

// Reads a Matrix Market file (".gz" too, where built with zlib) as Matrix<T>.
template <class T>
Matrix<T> read_matrix_market(const std::string& path, duplicates dup = duplicates::error) {
  const std::string text = detail::read_file(path);
  return detail::build<T>(detail::parse_matrix_market(text, path), path, dup);
}

// Parses Matrix Market text already in memory; `name` is used in messages.
template <class T>
Matrix<T> parse_matrix_market(const std::string& text, const std::string& name = "<memory>",
                              duplicates dup = duplicates::error) {
  return detail::build<T>(detail::parse_matrix_market(text, name), name, dup);
}

// Writes coordinate general, 1-based, sorted by (row, column); floating point
// with 17 significant digits (reads back exactly), integers and bool (0/1) as
// integers.
template <class T>
void write_matrix_market(std::ostream& out, const Matrix<T>& A) {
  const coo<T> c = A.to_coo();
  detail::write_header(out, !std::is_floating_point_v<T>, A.nrows(), A.ncols(), A.nvals());
  for (std::size_t k = 0; k < c.rows.size(); ++k) {
    out << (c.rows[k] + 1) << ' ' << (c.cols[k] + 1) << ' ';
    if constexpr (std::is_floating_point_v<T>) detail::write_value(out, static_cast<double>(c.values[k]));
    else detail::write_value(out, static_cast<long long>(c.values[k]));
    out << '\n';
  }
}

// Writes to a file; io_error if it cannot be written.
template <class T>
void write_matrix_market(const std::string& path, const Matrix<T>& A) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw io_error(path + ": cannot open for writing");
  write_matrix_market(out, A);
  out.flush();
  if (!out) throw io_error(path + ": write failed");
}

}  // namespace tgb::io
