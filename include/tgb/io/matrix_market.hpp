// tgb: Matrix Market files (coordinate and array; real, integer, pattern;
// general, symmetric, skew-symmetric). Complex and Hermitian files are
// rejected. Errors name the file, the line and the problem.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <memory_resource>
#include <new>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "tgb/error.hpp"
#include "tgb/matrix.hpp"

namespace tgb::io {

// What a reader does with two entries at the same position.
enum class duplicates { error, keep_first, keep_last, sum };

// Policies and limits of the readers.
struct read_options {
  duplicates dup = duplicates::error;
  // The most host memory reading one file may take, in bytes: the entries
  // parsed plus an estimate of building the matrix from them. A file that
  // needs more is refused with out_of_memory, at the line where that becomes
  // known (the size line of a Matrix Market file), before it is allocated.
  // 0: host_allocation_limit() (physical memory unless set); no bound if
  // that is 0 too.
  std::size_t max_memory = 0;
};

namespace detail {

enum class value_kind { real, integer, pattern };
// The type a file is read as, so that values are checked at their line.
enum class value_target { boolean, int32, int64, fp32, fp64, other };
enum class file_format { matrix_market, edge_list, detect };

template <class T>
constexpr value_target target_of() {
  if constexpr (std::is_same_v<T, bool>) return value_target::boolean;
  else if constexpr (std::is_same_v<T, std::int32_t>) return value_target::int32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return value_target::int64;
  else if constexpr (std::is_same_v<T, float>) return value_target::fp32;
  else if constexpr (std::is_same_v<T, double>) return value_target::fp64;
  else return value_target::other;
}

// Entries as read, 0-based, symmetric halves already mirrored (each mirror
// right after its entry). Held through host_memory_resource(), so that a
// budget installed there counts them.
struct raw_entries {
  index_t nrows = 0;
  index_t ncols = 0;
  value_kind kind = value_kind::pattern;
  bool matrix_market = false;
  bool mirrored = false;  // symmetric or skew-symmetric
  std::pmr::vector<index_t> rows{host_memory_resource()}, cols{host_memory_resource()};
  std::pmr::vector<double> real{host_memory_resource()};          // kind == real
  std::pmr::vector<std::int64_t> integer{host_memory_resource()}; // kind == integer
};

// Where text comes from: the file at *path, or size bytes at data.
struct text_ref {
  const std::string* path = nullptr;
  const char* data = nullptr;
  std::size_t size = 0;
};

// Parses a file or text, checking values against `target` and the memory
// needed against the budget (max_memory, see read_options) as it goes.
raw_entries read_entries(const text_ref& src, const std::string& name, file_format format, value_target target,
                         std::size_t value_bytes, std::size_t max_memory);
// Inflates gzip data held in memory (concatenated members too).
std::string gunzip(const std::string& data, const std::string& name);
raw_entries parse_matrix_market(const std::string& text, const std::string& name);
raw_entries parse_edge_list(const std::string& text, const std::string& name);
// Turns an invalid_value from building (a duplicate under duplicates::error)
// into an io_error naming the file, the line and the first entry's line.
[[noreturn]] void throw_build_error(const raw_entries& raw, const text_ref& src, const std::string& name,
                                    const std::string& what);
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
// point types, bool takes 0 and 1. The readers check this per value, with the
// line, for the five predefined types; this is the check for other types.
template <class T>
std::pmr::vector<T> convert_values(const raw_entries& raw, const std::string& name) {
  const std::size_t n = raw.rows.size();
  std::pmr::vector<T> v(n, host_memory_resource());
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
Matrix<T> build(const raw_entries& raw, const text_ref& src, const std::string& name, duplicates dup) {
  const std::string what = name + ": building the " + std::to_string(raw.nrows) + " x " + std::to_string(raw.ncols) +
                           " matrix from " + std::to_string(raw.rows.size()) + " entries: ";
  try {
    const std::pmr::vector<T> v = convert_values<T>(raw, name);
    switch (dup) {
      case duplicates::keep_first: return Matrix<T>::from_coo(raw.nrows, raw.ncols, raw.rows, raw.cols, v, first{});
      case duplicates::keep_last: return Matrix<T>::from_coo(raw.nrows, raw.ncols, raw.rows, raw.cols, v, second{});
      case duplicates::sum: return Matrix<T>::from_coo(raw.nrows, raw.ncols, raw.rows, raw.cols, v, plus{});
      default: return Matrix<T>::from_coo(raw.nrows, raw.ncols, raw.rows, raw.cols, v, no_duplicates);
    }
  } catch (const out_of_memory& e) {
    throw out_of_memory(what + e.what());
  } catch (const std::bad_alloc&) {
    throw out_of_memory(what + "out of memory");
  } catch (const domain_mismatch&) {
    throw;
  } catch (const invalid_value& e) {
    throw_build_error(raw, src, name, e.what());
  }
}

template <class T>
Matrix<T> read_as(const text_ref& src, const std::string& name, file_format format, const read_options& opt) {
  try {
    const raw_entries raw = read_entries(src, name, format, target_of<T>(), sizeof(T), opt.max_memory);
    return build<T>(raw, src, name, opt.dup);
  } catch (const std::bad_alloc&) {  // what the steps above could not name (their own messages, say)
    throw out_of_memory(name + ": out of memory while reading");
  }
}

// A file written under a temporary name in the same folder and renamed over
// the target only when complete: readers see the old file or the new one,
// never a part. Devices and pipes (/dev/stdout) are written in place.
class atomic_output {
 public:
  explicit atomic_output(const std::string& path);
  ~atomic_output();  // removes the temporary file unless committed
  atomic_output(const atomic_output&) = delete;
  atomic_output& operator=(const atomic_output&) = delete;
  std::ostream& stream();
  // Flushes, syncs, closes and renames; io_error (with errno's text) if any
  // step fails, and the target is then unchanged.
  void commit();

 private:
  struct impl;
  std::unique_ptr<impl> d_;
};

void write_header(std::ostream& out, bool integer_field, index_t nrows, index_t ncols, offset_t nvals);
void write_value(std::ostream& out, double v);
void write_value(std::ostream& out, long long v);

}  // namespace detail

// Reads a Matrix Market file (".gz" too, where built with zlib) as Matrix<T>.
template <class T>
Matrix<T> read_matrix_market(const std::string& path, const read_options& opt) {
  return detail::read_as<T>(detail::text_ref{&path}, path, detail::file_format::matrix_market, opt);
}
template <class T>
Matrix<T> read_matrix_market(const std::string& path, duplicates dup = duplicates::error) {
  return read_matrix_market<T>(path, read_options{dup});
}

// Parses Matrix Market text already in memory; `name` is used in messages.
template <class T>
Matrix<T> parse_matrix_market(const std::string& text, const std::string& name, const read_options& opt) {
  return detail::read_as<T>(detail::text_ref{nullptr, text.data(), text.size()}, name,
                            detail::file_format::matrix_market, opt);
}
template <class T>
Matrix<T> parse_matrix_market(const std::string& text, const std::string& name = "<memory>",
                              duplicates dup = duplicates::error) {
  return parse_matrix_market<T>(text, name, read_options{dup});
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

// Writes to a file atomically (see detail::atomic_output): a writer that
// fails or is killed leaves the previous file, if any, as it was. io_error
// if it cannot be written.
template <class T>
void write_matrix_market(const std::string& path, const Matrix<T>& A) {
  detail::atomic_output out(path);
  write_matrix_market(out.stream(), A);
  out.commit();
}

}  // namespace tgb::io
