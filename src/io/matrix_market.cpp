// tgb: Matrix Market and edge-list parsing. Sizes a file declares are
// checked against what the file can hold before anything is allocated.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "tgb/io/matrix_market.hpp"

namespace tgb::io::detail {

namespace {

struct line_reader {
  const char* p;
  const char* end;
  const std::string& name;
  std::size_t line = 0;  // number of the line last returned

  bool next(const char*& b, const char*& e) {
    if (p >= end) return false;
    b = p;
    while (p < end && *p != '\n') ++p;
    e = p;
    if (p < end) ++p;
    if (e > b && e[-1] == '\r') --e;
    ++line;
    return true;
  }
  [[noreturn]] void fail(const std::string& msg) const {
    throw io_error(name + ":" + std::to_string(line == 0 ? 1 : line) + ": " + msg);
  }
  std::size_t remaining() const { return static_cast<std::size_t>(end - p); }
};

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

bool parse_real(const char* b, const char* e, double& out) {
  if (b < e && *b == '+') ++b;
  auto r = std::from_chars(b, e, out);
  if (r.ec == std::errc::result_out_of_range) {
    // Under- or overflow: fall back to strtod, which rounds to 0 or inf.
    std::string s(b, e);
    out = std::strtod(s.c_str(), nullptr);
    return true;
  }
  return r.ec == std::errc() && r.ptr == e;
}

std::string lower(const char* b, const char* e) {
  std::string s(b, e);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

index_t parse_dim(line_reader& lr, const char* b, const char* e, const char* what) {
  std::int64_t v = 0;
  if (!parse_int(b, e, v)) lr.fail(std::string("the ") + what + " '" + token_str(b, e) + "' is not an integer");
  if (v < 0) lr.fail(std::string("the ") + what + " is negative (" + std::to_string(v) + ")");
  return v;
}

enum class symmetry { general, symmetric, skew };

}  // namespace

raw_entries parse_matrix_market(const std::string& text, const std::string& name) {
  line_reader lr{text.data(), text.data() + text.size(), name};
  const char *b, *e;
  if (!lr.next(b, e)) lr.fail("the file is empty; a Matrix Market file starts with a %%MatrixMarket line");
  const char* tb[6];
  const char* te[6];
  int nt = tokenize(b, e, false, tb, te, 5);
  if (nt < 1 || std::string(tb[0], te[0]) != "%%MatrixMarket")
    lr.fail("the first line must start with %%MatrixMarket");
  if (nt != 5) lr.fail("the header must read '%%MatrixMarket matrix FORMAT FIELD SYMMETRY'");
  const std::string object = lower(tb[1], te[1]), format = lower(tb[2], te[2]), field = lower(tb[3], te[3]),
                    sym = lower(tb[4], te[4]);
  if (object != "matrix") lr.fail("object '" + object + "' is not supported (only 'matrix')");
  if (format != "coordinate" && format != "array") lr.fail("format '" + format + "' must be coordinate or array");
  raw_entries raw;
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
  const bool array = format == "array";
  if (array && raw.kind == value_kind::pattern) lr.fail("an array file cannot have the pattern field");
  if (s == symmetry::skew && raw.kind == value_kind::pattern) lr.fail("a pattern matrix cannot be skew-symmetric");

  // Comments, then the size line. LAGraph's "%%GraphBLAS type double" (or
  // float) comment says the values are floating point even when the field
  // says integer (so they may be inf or nan).
  for (;;) {
    if (!lr.next(b, e)) lr.fail("the file ends before the size line");
    if (blank(b, e)) continue;
    const char* q = b;
    while (q < e && std::isspace(static_cast<unsigned char>(*q))) ++q;
    if (*q == '%') {
      const char* ctb[4];
      const char* cte[4];
      if (tokenize(q, e, false, ctb, cte, 3) == 3 && std::string(ctb[0], cte[0]) == "%%GraphBLAS" &&
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
  std::int64_t declared = 0;
  if (array) {
    const unsigned __int128 n = static_cast<unsigned __int128>(raw.nrows);
    unsigned __int128 count = cells;
    if (s == symmetry::symmetric) count = n * (n + 1) / 2;
    if (s == symmetry::skew) count = n == 0 ? 0 : n * (n - 1) / 2;
    // Every value needs at least two bytes ("1\n").
    if (count > lr.remaining() / 2 + 1)
      lr.fail("the array declares " + std::to_string(static_cast<unsigned long long>(std::min<unsigned __int128>(
                                          count, std::numeric_limits<unsigned long long>::max()))) +
              " values but the rest of the file can hold at most " + std::to_string(lr.remaining() / 2 + 1));
    declared = static_cast<std::int64_t>(count);
  } else {
    declared = parse_dim(lr, tb[2], te[2], "entry count");
    // Every entry line needs at least "1 1\n" (pattern) or "1 1 1\n".
    const std::size_t min_line = raw.kind == value_kind::pattern ? 4 : 6;
    if (static_cast<std::uint64_t>(declared) > lr.remaining() / min_line + 1)
      lr.fail("declares " + std::to_string(declared) + " entries but the rest of the file can hold at most " +
              std::to_string(lr.remaining() / min_line + 1));
  }
  const std::size_t cap = static_cast<std::size_t>(declared) * (s == symmetry::general ? 1 : 2);
  raw.rows.reserve(cap);
  raw.cols.reserve(cap);
  if (raw.kind == value_kind::real) raw.real.reserve(cap);
  if (raw.kind == value_kind::integer) raw.integer.reserve(cap);

  auto push = [&](index_t i, index_t j, const char* vb, const char* ve) {
    double rv = 0;
    std::int64_t iv = 0;
    if (raw.kind == value_kind::real) {
      if (!parse_real(vb, ve, rv)) lr.fail("the value '" + token_str(vb, ve) + "' is not a real number");
    } else if (raw.kind == value_kind::integer) {
      if (!parse_int(vb, ve, iv)) lr.fail("the value '" + token_str(vb, ve) + "' is not a 64-bit integer");
    }
    auto add = [&](index_t r, index_t c, bool negate) {
      raw.rows.push_back(r);
      raw.cols.push_back(c);
      if (raw.kind == value_kind::real) raw.real.push_back(negate ? -rv : rv);
      if (raw.kind == value_kind::integer) {
        if (negate && iv == std::numeric_limits<std::int64_t>::min())
          lr.fail("the value " + std::to_string(iv) + " cannot be negated for the skew-symmetric half");
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
    const char* q = b;
    while (q < e && std::isspace(static_cast<unsigned char>(*q))) ++q;
    if (*q == '%') continue;
    lr.fail("more data than the " + std::to_string(declared) + (array ? " values" : " entries") + " declared");
  }
  return raw;
}

raw_entries parse_edge_list(const std::string& text, const std::string& name) {
  line_reader lr{text.data(), text.data() + text.size(), name};
  raw_entries raw;
  const char *b, *e;
  const char* tb[4];
  const char* te[4];
  int weights = -1;  // unknown, 0: none, 1: present
  bool any_real = false;
  std::vector<double> reals;
  std::vector<std::int64_t> ints;
  index_t n = 0;
  while (lr.next(b, e)) {
    const char* q = b;
    while (q < e && std::isspace(static_cast<unsigned char>(*q))) ++q;
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
    raw.rows.push_back(ids[0]);
    raw.cols.push_back(ids[1]);
    if (has_w) {
      std::int64_t iv;
      double rv;
      if (parse_int(tb[2], te[2], iv)) {
        ints.push_back(iv);
        reals.push_back(static_cast<double>(iv));
      } else if (parse_real(tb[2], te[2], rv)) {
        any_real = true;
        ints.push_back(0);
        reals.push_back(rv);
      } else {
        lr.fail("the weight '" + token_str(tb[2], te[2]) + "' is not a number");
      }
    }
  }
  raw.nrows = raw.ncols = n;
  if (weights == 1) {
    raw.kind = any_real ? value_kind::real : value_kind::integer;
    if (any_real) raw.real = std::move(reals);
    else raw.integer = std::move(ints);
  } else {
    raw.kind = value_kind::pattern;
  }
  return raw;
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
