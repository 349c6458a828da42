// tgb: Matrix Market and edge-list parsing. Text is read line by line (files
// in chunks, gzip inflated as it goes); sizes a file declares are checked
// against what the file can hold and against the memory budget before
// anything is allocated; every value is checked against the type it is read
// as, at its line.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <ostream>
#include <string>
#include <vector>

#include "text_source.hpp"
#include "tgb/io/matrix_market.hpp"

namespace tgb::io::detail {

namespace {

bool is_sep(char c, bool commas) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || (commas && c == ','); }

// Splits [b, e) into at most `cap` tokens; returns how many (cap + 1 if more).
int tokenize(const char* b, const char* e, bool commas, const char** tb, const char** te, int cap) {
  int n = 0;
  while (b < e) {
    while (b < e && is_sep(*b, commas)) ++b;
    if (b >= e) break;
    const char* s = b;
    while (b < e && !is_sep(*b, commas)) ++b;
    if (n == cap) return cap + 1;
    tb[n] = s;
    te[n] = b;
    ++n;
  }
  return n;
}

bool blank(const char* b, const char* e) {
  for (; b < e; ++b)
    if (!std::isspace(static_cast<unsigned char>(*b))) return false;
  return true;
}

std::string token_str(const char* b, const char* e) {
  std::string s(b, e);
  if (s.size() > 40) s = s.substr(0, 40) + "...";
  return s;
}

bool parse_int(const char* b, const char* e, std::int64_t& out) {
  if (b < e && *b == '+') ++b;
  auto r = std::from_chars(b, e, out);
  return r.ec == std::errc() && r.ptr == e;
}

enum class real_status { bad, ok, overflow };

// Literal inf and nan are values; a finite literal beyond double's range is
// an overflow (reported, never turned into inf); one below it rounds to 0 or
// a subnormal, as strtod does.
real_status parse_real(const char* b, const char* e, double& out) {
  if (b < e && *b == '+') ++b;
  auto r = std::from_chars(b, e, out);
  if (r.ec == std::errc::result_out_of_range && r.ptr == e) {
    const std::string s(b, e);
    out = std::strtod(s.c_str(), nullptr);
    return std::isinf(out) ? real_status::overflow : real_status::ok;
  }
  return r.ec == std::errc() && r.ptr == e ? real_status::ok : real_status::bad;
}

std::string lower(const char* b, const char* e) {
  std::string s(b, e);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

index_t parse_dim(const line_reader& lr, const char* b, const char* e, const char* what) {
  std::int64_t v = 0;
  if (!parse_int(b, e, v)) lr.fail(std::string("the ") + what + " '" + token_str(b, e) + "' is not an integer");
  if (v < 0) lr.fail(std::string("the ") + what + " is negative (" + std::to_string(v) + ")");
  return v;
}

enum class symmetry { general, symmetric, skew };

const char* target_label(value_target t) {
  switch (t) {
    case value_target::boolean: return "bool";
    case value_target::int32: return "int32";
    case value_target::int64: return "int64";
    case value_target::fp32: return "fp32";
    case value_target::fp64: return "fp64";
    default: return "user type";
  }
}

bool integral(value_target t) {
  return t == value_target::boolean || t == value_target::int32 || t == value_target::int64;
}

// What a read may take and what it reads into.
struct settings {
  value_target target;
  std::size_t value_bytes;
  std::uint64_t budget;  // bytes; max() when unbounded
};

std::uint64_t budget_of(std::size_t max_memory) {
  if (max_memory) return max_memory;
  const std::size_t limit = host_allocation_limit();
  return limit ? limit : std::numeric_limits<std::uint64_t>::max();
}

// Bytes that `entries` entries of a matrix with `nrows` rows take, held by
// the reader and then built into a matrix: rows, columns and values as read;
// the converted values; from_coo's copies of the indices, its sorted columns,
// permutation and values, and the tile pattern; a row pointer per row, unless
// the entries are so few that from_coo lists only the rows that have some
// (detail::hyper_rows). An estimate (within a small factor), so that a file
// that cannot fit is refused before it is read.
std::uint64_t needed_bytes(std::uint64_t entries, index_t nrows, value_kind kind, std::size_t value_bytes) {
  const unsigned __int128 held = 16 + (kind == value_kind::pattern ? 0 : 8);
  const unsigned __int128 build = 40 + 3 * static_cast<unsigned __int128>(value_bytes);
  const bool hyper = tgb::detail::hyper_rows(nrows, static_cast<index_t>(std::min<std::uint64_t>(entries, std::uint64_t(nrows))));
  const unsigned __int128 per_row = hyper ? 0 : 9 * (static_cast<unsigned __int128>(nrows) + 1);
  const unsigned __int128 total = static_cast<unsigned __int128>(entries) * (held + value_bytes + build) + per_row;
  return total > std::numeric_limits<std::uint64_t>::max() ? std::numeric_limits<std::uint64_t>::max()
                                                            : static_cast<std::uint64_t>(total);
}

std::string bytes_text(std::uint64_t n) {
  char buf[64];
  if (n >= (std::uint64_t(1) << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", double(n) / double(1 << 30));
  else if (n >= (std::uint64_t(1) << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", double(n) / double(1 << 20));
  else std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(n));
  return buf;
}

[[noreturn]] void over_budget(const line_reader& lr, const std::string& what, std::uint64_t need,
                              std::uint64_t budget) {
  throw out_of_memory(lr.where() + what + " needs about " + bytes_text(need) + ", more than the memory limit of " +
                      bytes_text(budget) + " (read_options::max_memory; tgb --max-memory)");
}

// The next line: `pending` first if the caller already read it.
struct pending_line {
  bool has = false;
  const char* b = nullptr;
  const char* e = nullptr;
};

bool get_line(line_reader& lr, pending_line& pl, const char*& b, const char*& e) {
  if (pl.has) {
    pl.has = false;
    b = pl.b;
    e = pl.e;
    return true;
  }
  return lr.next(b, e);
}

const char* skip_space(const char* b, const char* e) {
  while (b < e && std::isspace(static_cast<unsigned char>(*b))) ++b;
  return b;
}

// A real value read as `t`, at the current line: integer types take none
// (the file is real), fp32 and fp64 take it if it fits.
void check_real(const line_reader& lr, value_target t, real_status rs, double v, const char* b, const char* e,
                const char* what) {
  if (integral(t))
    throw domain_mismatch(lr.where() + "the file holds real values (" + what + " '" + token_str(b, e) +
                          "'); read it as fp32 or fp64, not " + target_label(t));
  if (rs == real_status::overflow)
    throw domain_mismatch(lr.where() + "the " + what + " '" + token_str(b, e) +
                          "' overflows fp64 (largest magnitude 1.7976931348623157e308)");
  if (t == value_target::fp32 && std::isfinite(v) && std::isinf(static_cast<float>(v)))
    throw domain_mismatch(lr.where() + "the " + what + " '" + token_str(b, e) +
                          "' overflows fp32 (largest magnitude 3.40282347e38)");
}

// An integer value read as `t`; `at` names the entry for the message.
void check_integer(const line_reader& lr, value_target t, std::int64_t x, const std::string& at) {
  if (t == value_target::boolean && x != 0 && x != 1)
    throw domain_mismatch(lr.where() + at + " has value " + std::to_string(x) +
                          ", which is not 0 or 1 as bool requires");
  if (t == value_target::int32 &&
      (x < std::numeric_limits<std::int32_t>::min() || x > std::numeric_limits<std::int32_t>::max()))
    throw domain_mismatch(lr.where() + at + " has value " + std::to_string(x) + ", which does not fit int32");
}

raw_entries parse_mm(line_reader& lr, pending_line pl, const settings& st) {
  raw_entries raw;
  raw.matrix_market = true;
  const char *b, *e;
  // The banner may follow blank lines and be indented; nothing else may
  // come before it.
  for (;;) {
    if (!get_line(lr, pl, b, e))
      lr.fail(lr.line == 0 ? "no data: the file is empty; a Matrix Market file starts with a %%MatrixMarket line"
                           : "no data: the file holds only blank lines; a Matrix Market file starts with a "
                             "%%MatrixMarket line");
    if (!blank(b, e)) break;
  }
  const char* tb[6];
  const char* te[6];
  int nt = tokenize(b, e, false, tb, te, 5);
  // Keywords are case-insensitive, the banner's too, as most readers take them.
  if (nt < 1 || lower(tb[0], te[0]) != "%%matrixmarket")
    lr.fail("the first line must be the banner '%%MatrixMarket matrix FORMAT FIELD SYMMETRY', not '" +
            token_str(b, e) + "' (a file that starts with '%' is read as Matrix Market; read_edge_list takes an "
            "edge list with a '%' comment first)");
  if (nt != 5) lr.fail("the header must read '%%MatrixMarket matrix FORMAT FIELD SYMMETRY'");
  const std::string object = lower(tb[1], te[1]), format = lower(tb[2], te[2]), field = lower(tb[3], te[3]),
                    sym = lower(tb[4], te[4]);
  if (object != "matrix") lr.fail("object '" + object + "' is not supported (only 'matrix')");
  if (format != "coordinate" && format != "array") lr.fail("format '" + format + "' must be coordinate or array");
  if (field == "real" || field == "double") raw.kind = value_kind::real;
  else if (field == "integer") raw.kind = value_kind::integer;
  else if (field == "pattern") raw.kind = value_kind::pattern;
  else if (field == "complex") lr.fail("complex matrices are not supported");
  else lr.fail("field '" + field + "' must be real, integer or pattern");
  symmetry s;
  if (sym == "general") s = symmetry::general;
  else if (sym == "symmetric") s = symmetry::symmetric;
  else if (sym == "skew-symmetric") s = symmetry::skew;
  else if (sym == "hermitian") lr.fail("hermitian matrices are not supported (they are complex)");
  else lr.fail("symmetry '" + sym + "' must be general, symmetric or skew-symmetric");
  raw.mirrored = s != symmetry::general;
  const bool array = format == "array";
  if (array && raw.kind == value_kind::pattern) lr.fail("an array file cannot have the pattern field");
  if (s == symmetry::skew && raw.kind == value_kind::pattern) lr.fail("a pattern matrix cannot be skew-symmetric");

  // Comments, then the size line. LAGraph's "%%GraphBLAS type double" (or
  // float) comment says the values are floating point even when the field
  // says integer (so they may be inf or nan).
  for (;;) {
    if (!lr.next(b, e)) lr.fail("the file ends before the size line");
    if (blank(b, e)) continue;
    const char* q = skip_space(b, e);
    if (*q == '%') {
      const char* ctb[4];
      const char* cte[4];
      if (tokenize(q, e, false, ctb, cte, 3) == 3 && lower(ctb[0], cte[0]) == "%%graphblas" &&
          lower(ctb[1], cte[1]) == "type") {
        const std::string t = lower(ctb[2], cte[2]);
        if ((t == "double" || t == "float") && raw.kind == value_kind::integer) raw.kind = value_kind::real;
      }
      continue;
    }
    break;
  }
  nt = tokenize(b, e, false, tb, te, 3);
  if (nt != (array ? 2 : 3))
    lr.fail(array ? "the size line of an array file must hold 'rows columns'"
                  : "the size line of a coordinate file must hold 'rows columns entries'");
  raw.nrows = parse_dim(lr, tb[0], te[0], "row count");
  raw.ncols = parse_dim(lr, tb[1], te[1], "column count");
  if (raw.nrows > max_dimension || raw.ncols > max_dimension)
    lr.fail("the size " + std::to_string(raw.nrows) + " x " + std::to_string(raw.ncols) +
            " exceeds tgb's maximum dimension of 2^36");
  if (s != symmetry::general && raw.nrows != raw.ncols)
    lr.fail("a " + sym + " matrix must be square, not " + std::to_string(raw.nrows) + " x " +
            std::to_string(raw.ncols));
  const unsigned __int128 cells = static_cast<unsigned __int128>(raw.nrows) * static_cast<unsigned __int128>(raw.ncols);
  const std::uint64_t left = lr.remaining();
  std::int64_t declared = 0;
  if (array) {
    const unsigned __int128 n = static_cast<unsigned __int128>(raw.nrows);
    unsigned __int128 count = cells;
    if (s == symmetry::symmetric) count = n * (n + 1) / 2;
    if (s == symmetry::skew) count = n == 0 ? 0 : n * (n - 1) / 2;
    // Every value needs at least two bytes ("1\n").
    if (count > left / 2 + 1)
      lr.fail("the array declares " + std::to_string(static_cast<unsigned long long>(std::min<unsigned __int128>(
                                          count, std::numeric_limits<unsigned long long>::max()))) +
              " values but the rest of the file can hold at most " + std::to_string(left / 2 + 1));
    declared = static_cast<std::int64_t>(count);
  } else {
    declared = parse_dim(lr, tb[2], te[2], "entry count");
    // Every entry line needs at least "1 1\n" (pattern) or "1 1 1\n".
    const std::size_t min_line = raw.kind == value_kind::pattern ? 4 : 6;
    if (static_cast<std::uint64_t>(declared) > left / min_line + 1)
      lr.fail("declares " + std::to_string(declared) + " entries but the rest of the file can hold at most " +
              std::to_string(left / min_line + 1));
  }
  const std::uint64_t cap = static_cast<std::uint64_t>(declared) * (s == symmetry::general ? 1 : 2);
  const std::uint64_t need = needed_bytes(cap, raw.nrows, raw.kind, st.value_bytes);
  if (need > st.budget)
    over_budget(lr, "the " + std::to_string(raw.nrows) + " x " + std::to_string(raw.ncols) + " matrix with " +
                        std::to_string(declared) + (array ? " values" : " entries"),
                need, st.budget);
  try {
    raw.rows.reserve(cap);
    raw.cols.reserve(cap);
    if (raw.kind == value_kind::real) raw.real.reserve(cap);
    if (raw.kind == value_kind::integer) raw.integer.reserve(cap);
  } catch (const std::bad_alloc&) {
    throw out_of_memory(lr.where() + "out of memory reserving room for " + std::to_string(cap) + " entries");
  }

  auto push = [&](index_t i, index_t j, const char* vb, const char* ve) {
    double rv = 0;
    std::int64_t iv = 0;
    auto at = [&](index_t r, index_t c) { return "entry (" + std::to_string(r + 1) + ", " + std::to_string(c + 1) + ")"; };
    if (raw.kind == value_kind::real) {
      const real_status rs = parse_real(vb, ve, rv);
      if (rs == real_status::bad) lr.fail("the value '" + token_str(vb, ve) + "' is not a real number");
      check_real(lr, st.target, rs, rv, vb, ve, "value");
    } else if (raw.kind == value_kind::integer) {
      if (!parse_int(vb, ve, iv)) lr.fail("the value '" + token_str(vb, ve) + "' is not a 64-bit integer");
      check_integer(lr, st.target, iv, at(i, j));
    }
    auto add = [&](index_t r, index_t c, bool negate) {
      raw.rows.push_back(r);
      raw.cols.push_back(c);
      if (raw.kind == value_kind::real) raw.real.push_back(negate ? -rv : rv);
      if (raw.kind == value_kind::integer) {
        if (negate && iv == std::numeric_limits<std::int64_t>::min())
          lr.fail("the value " + std::to_string(iv) + " cannot be negated for the skew-symmetric half");
        if (negate) check_integer(lr, st.target, -iv, at(r, c));
        raw.integer.push_back(negate ? -iv : iv);
      }
    };
    add(i, j, false);
    if (s != symmetry::general && i != j) add(j, i, s == symmetry::skew);
  };

  std::int64_t got = 0;
  if (array) {
    // Column-major; symmetric files hold the lower triangle, skew the strict one.
    index_t i = s == symmetry::skew ? 1 : 0, j = 0;
    while (got < declared) {
      if (!lr.next(b, e))
        lr.fail("the file ends after " + std::to_string(got) + " of " + std::to_string(declared) + " values");
      if (blank(b, e)) continue;
      nt = tokenize(b, e, false, tb, te, 1);
      if (nt != 1) lr.fail("an array file holds one value per line");
      if (*tb[0] == '%') continue;
      push(i, j, tb[0], te[0]);
      ++got;
      if (++i >= raw.nrows) {
        ++j;
        i = s == symmetry::general ? 0 : (s == symmetry::symmetric ? j : j + 1);
      }
    }
  } else {
    const int want = raw.kind == value_kind::pattern ? 2 : 3;
    while (got < declared) {
      if (!lr.next(b, e))
        lr.fail("the file ends after " + std::to_string(got) + " of " + std::to_string(declared) + " entries");
      if (blank(b, e)) continue;
      nt = tokenize(b, e, false, tb, te, 3);
      if (nt >= 1 && *tb[0] == '%') continue;
      if (nt != want)
        lr.fail(std::string("an entry must hold ") + (want == 2 ? "'row column'" : "'row column value'"));
      std::int64_t i = 0, j = 0;
      if (!parse_int(tb[0], te[0], i)) lr.fail("the row index '" + token_str(tb[0], te[0]) + "' is not an integer");
      if (!parse_int(tb[1], te[1], j))
        lr.fail("the column index '" + token_str(tb[1], te[1]) + "' is not an integer");
      if (i < 1 || i > raw.nrows)
        lr.fail("row index " + std::to_string(i) + " is outside 1.." + std::to_string(raw.nrows));
      if (j < 1 || j > raw.ncols)
        lr.fail("column index " + std::to_string(j) + " is outside 1.." + std::to_string(raw.ncols));
      if (s != symmetry::general && i < j)
        lr.fail("entry (" + std::to_string(i) + ", " + std::to_string(j) + ") lies above the diagonal of a " + sym +
                " matrix, which stores only the lower triangle");
      if (s == symmetry::skew && i == j)
        lr.fail("entry (" + std::to_string(i) + ", " + std::to_string(j) +
                ") lies on the diagonal of a skew-symmetric matrix");
      push(i - 1, j - 1, want == 3 ? tb[2] : nullptr, want == 3 ? te[2] : nullptr);
      ++got;
    }
  }
  while (lr.next(b, e)) {
    if (blank(b, e)) continue;
    if (*skip_space(b, e) == '%') continue;
    lr.fail("more data than the " + std::to_string(declared) + (array ? " values" : " entries") + " declared");
  }
  return raw;
}

raw_entries parse_el(line_reader& lr, pending_line pl, const settings& st) {
  raw_entries raw;
  const char *b, *e;
  const char* tb[4];
  const char* te[4];
  int weights = -1;  // unknown, 0: none, 1: present
  // Weights are kept as the type needs them: reals for fp32 and fp64,
  // integers for the integer types; for other types integers until the
  // first real one.
  const bool want_real = st.target == value_target::fp32 || st.target == value_target::fp64;
  bool any_real = want_real;
  index_t n = 0;
  std::uint64_t checked_n = 0;  // the vertex count the budget was last checked for
  bool checked_few = false;    // whether that check left out the per-row arrays
  while (get_line(lr, pl, b, e)) {
    const char* q = skip_space(b, e);
    if (q == e || *q == '#' || *q == '%') continue;
    const int nt = tokenize(q, e, true, tb, te, 3);
    if (nt != 2 && nt != 3) lr.fail("an edge must read 'source target' or 'source target weight'");
    const int has_w = nt == 3 ? 1 : 0;
    if (weights >= 0 && has_w != weights)
      lr.fail(has_w ? "this edge has a weight but earlier edges have none" : "this edge has no weight but earlier edges do");
    weights = has_w;
    std::int64_t ids[2];
    for (int k = 0; k < 2; ++k) {
      if (!parse_int(tb[k], te[k], ids[k]))
        lr.fail("the vertex id '" + token_str(tb[k], te[k]) + "' is not an integer");
      if (ids[k] < 0) lr.fail("vertex ids are 0-based and cannot be negative (" + std::to_string(ids[k]) + ")");
      if (ids[k] >= max_dimension) lr.fail("vertex id " + std::to_string(ids[k]) + " exceeds tgb's maximum of 2^36");
      n = std::max<index_t>(n, ids[k] + 1);
    }
    const std::size_t count = raw.rows.size() + 1;
    // The estimate leaves out per-row arrays while the edges are few
    // (hyper_rows): checked again when they stop being few.
    const bool few = tgb::detail::hyper_rows(n, static_cast<index_t>(std::min<std::uint64_t>(count, std::uint64_t(n))));
    if (static_cast<std::uint64_t>(n) != checked_n || count > raw.rows.capacity() || few != checked_few) {
      checked_few = few;
      // Checked when the vertex count grows and before the arrays do.
      const std::uint64_t need =
          needed_bytes(count, n, has_w ? value_kind::real : value_kind::pattern, st.value_bytes);
      if (need > st.budget)
        over_budget(lr, std::to_string(count) + " edges on vertex ids up to " + std::to_string(n - 1), need, st.budget);
      checked_n = static_cast<std::uint64_t>(n);
    }
    raw.rows.push_back(ids[0]);
    raw.cols.push_back(ids[1]);
    if (has_w) {
      std::int64_t iv;
      double rv;
      const std::string at = "edge (" + std::to_string(ids[0]) + ", " + std::to_string(ids[1]) + ")";
      if (parse_int(tb[2], te[2], iv)) {
        check_integer(lr, st.target, iv, at);
        if (any_real) raw.real.push_back(static_cast<double>(iv));
        else raw.integer.push_back(iv);
      } else {
        const real_status rs = parse_real(tb[2], te[2], rv);
        if (rs == real_status::bad) lr.fail("the weight '" + token_str(tb[2], te[2]) + "' is not a number");
        check_real(lr, st.target, rs, rv, tb[2], te[2], "weight");
        if (!any_real) {
          // The first real weight: the integers so far become reals.
          raw.real.reserve(raw.integer.capacity());
          for (const std::int64_t x : raw.integer) raw.real.push_back(static_cast<double>(x));
          raw.integer = std::pmr::vector<std::int64_t>(host_memory_resource());
          any_real = true;
        }
        raw.real.push_back(rv);
      }
    }
  }
  if (raw.rows.empty())
    throw io_error(lr.name + ": no data: " +
                   (lr.line == 0 ? std::string("the file is empty") : "the file holds no edges, only blank or comment lines") +
                   "; an edge list holds one 'source target [weight]' per line");
  raw.nrows = raw.ncols = n;
  if (weights == 1) raw.kind = any_real ? value_kind::real : value_kind::integer;
  else raw.kind = value_kind::pattern;
  return raw;
}

raw_entries parse(line_reader& lr, file_format format, const settings& st) {
  pending_line pl;
  if (format == file_format::detect) {
    // The first non-blank line decides: '%' starts a Matrix Market banner or
    // comment, never an edge list's.
    const char *b, *e;
    while (lr.next(b, e)) {
      if (blank(b, e)) continue;
      pl = pending_line{true, b, e};
      format = *skip_space(b, e) == '%' ? file_format::matrix_market : file_format::edge_list;
      break;
    }
    if (!pl.has) format = file_format::edge_list;  // reports "no data"
  }
  try {
    return format == file_format::matrix_market ? parse_mm(lr, pl, st) : parse_el(lr, pl, st);
  } catch (const std::bad_alloc&) {
    throw out_of_memory(lr.where() + "out of memory while reading");
  }
}

std::unique_ptr<line_reader> open_text(const text_ref& src, const std::string& name) {
  if (src.path) return std::make_unique<line_reader>(open_file(*src.path), name);
  return std::make_unique<line_reader>(src.data, src.size, name);
}

}  // namespace

raw_entries read_entries(const text_ref& src, const std::string& name, file_format format, value_target target,
                         std::size_t value_bytes, std::size_t max_memory) {
  const std::unique_ptr<line_reader> lr = open_text(src, name);
  return parse(*lr, format, settings{target, value_bytes, budget_of(max_memory)});
}

raw_entries parse_matrix_market(const std::string& text, const std::string& name) {
  line_reader lr(text.data(), text.size(), name);
  return parse(lr, file_format::matrix_market, settings{value_target::other, sizeof(double), budget_of(0)});
}

raw_entries parse_edge_list(const std::string& text, const std::string& name) {
  line_reader lr(text.data(), text.size(), name);
  return parse(lr, file_format::edge_list, settings{value_target::other, sizeof(double), budget_of(0)});
}

// The line numbers of the entries with the given ordinals (0-based, in file
// order), found by reading the text again; 0 where it cannot be found.
static void lines_of_entries(const text_ref& src, const std::string& name, bool matrix_market, std::uint64_t a,
                             std::uint64_t b, std::uint64_t& line_a, std::uint64_t& line_b) {
  line_a = line_b = 0;
  try {
    const std::unique_ptr<line_reader> lr = open_text(src, name);
    const char *lb, *le;
    if (matrix_market) {
      // The banner, comments, then the size line.
      bool banner = false;
      for (;;) {
        if (!lr->next(lb, le)) return;
        if (blank(lb, le)) continue;
        if (!banner) {
          banner = true;
          continue;
        }
        if (*skip_space(lb, le) != '%') break;
      }
    }
    std::uint64_t k = 0;
    while (lr->next(lb, le)) {
      const char* q = skip_space(lb, le);
      if (q == le || *q == '%' || (!matrix_market && *q == '#')) continue;
      if (k == a) line_a = lr->line;
      if (k == b) {
        line_b = lr->line;
        return;
      }
      ++k;
    }
  } catch (const tgb::error&) {
  }
}

void throw_build_error(const raw_entries& raw, const text_ref& src, const std::string& name, const std::string& what) {
  // from_coo found a duplicate; find the first one in file order (the pair
  // whose later entry comes first) to report it with its lines.
  const std::size_t n = raw.rows.size();
  std::size_t first = n, second = n;
  try {
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), std::size_t(0));
    std::sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) {
      if (raw.rows[x] != raw.rows[y]) return raw.rows[x] < raw.rows[y];
      if (raw.cols[x] != raw.cols[y]) return raw.cols[x] < raw.cols[y];
      return x < y;
    });
    for (std::size_t k = 1; k < n; ++k) {
      const std::size_t x = idx[k - 1], y = idx[k];
      if (raw.rows[x] == raw.rows[y] && raw.cols[x] == raw.cols[y] && (k < 2 || raw.rows[idx[k - 2]] != raw.rows[x] ||
                                                                      raw.cols[idx[k - 2]] != raw.cols[x])) {
        if (second == n || y < second) first = x, second = y;
      }
    }
  } catch (const std::bad_alloc&) {
  }
  if (second == n) throw io_error(name + ": " + what);
  // Entry ordinals in the file: a mirrored half has its entry's.
  std::uint64_t ord_first = first, ord_second = second;
  std::size_t orig_first = first, orig_second = second;
  if (raw.mirrored) {
    std::uint64_t ord = 0;
    for (std::size_t k = 0; k < n; ++k, ++ord) {
      const bool has_mirror = raw.rows[k] != raw.cols[k] && k + 1 < n;
      const std::size_t hi = has_mirror ? k + 1 : k;
      if (first >= k && first <= hi) ord_first = ord, orig_first = k;
      if (second >= k && second <= hi) {
        ord_second = ord, orig_second = k;
        break;
      }
      k = hi;
    }
  }
  (void)orig_first;
  std::uint64_t line_first = 0, line_second = 0;
  lines_of_entries(src, name, raw.matrix_market, ord_first, ord_second, line_first, line_second);
  const index_t base = raw.matrix_market ? 1 : 0;  // as the file writes them
  const std::string pos = "(" + std::to_string(raw.rows[orig_second] + base) + ", " +
                          std::to_string(raw.cols[orig_second] + base) + ")";
  const std::string kind = raw.matrix_market ? "entry " : "edge ";
  throw io_error(name + ":" + (line_second ? std::to_string(line_second) + ":" : std::string()) + " duplicate " +
                 kind + pos + (line_first ? ", the same position as line " + std::to_string(line_first) : std::string()) +
                 "; duplicates are an error unless read_options::dup says keep_first, keep_last or sum");
}

void write_header(std::ostream& out, bool integer_field, index_t nrows, index_t ncols, offset_t nvals) {
  out << "%%MatrixMarket matrix coordinate " << (integer_field ? "integer" : "real") << " general\n";
  out << nrows << ' ' << ncols << ' ' << nvals << '\n';
}

void write_value(std::ostream& out, double v) {
  if (std::isnan(v)) {
    out << "nan";
  } else if (std::isinf(v)) {
    out << (v < 0 ? "-inf" : "inf");
  } else {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    out << buf;
  }
}

void write_value(std::ostream& out, long long v) { out << v; }

}  // namespace tgb::io::detail
