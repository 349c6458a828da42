// tgb: exceptions. Every error derives from tgb::error and carries a code that
// equals the GraphBLAS C API's GrB_Info value for the same condition.
#pragma once

#include <stdexcept>
#include <string>

namespace tgb {

enum class info : int {
  success = 0,
  no_value = 1,
  uninitialized_object = -1,
  null_pointer = -2,
  invalid_value = -3,
  invalid_index = -4,
  domain_mismatch = -5,
  dimension_mismatch = -6,
  output_not_empty = -7,
  not_implemented = -8,
  panic = -101,
  out_of_memory = -102,
  insufficient_space = -103,
  invalid_object = -104,
  index_out_of_bounds = -105,
  empty_object = -106,
};

class error : public std::runtime_error {
 public:
  error(tgb::info code, const std::string& what) : std::runtime_error(what), code_(code) {}
  // The GrB_Info value (docs/errors.md); code() is the same.
  tgb::info info() const noexcept { return code_; }
  tgb::info code() const noexcept { return code_; }
  // The GrB_Info value as a plain int, e.g. -6 for a dimension mismatch.
  int info_code() const noexcept { return static_cast<int>(code_); }

 private:
  tgb::info code_;
};

#define TGB_DEFINE_ERROR(name, code)                                        \
  class name : public error {                                               \
   public:                                                                  \
    explicit name(const std::string& what) : error(tgb::info::code, what) {}   \
  }

// A value the caller passed is not acceptable (bad option, duplicate entry
// under the "error" policy, malformed input in memory).
TGB_DEFINE_ERROR(invalid_value, invalid_value);
// A single-element access outside the matrix.
TGB_DEFINE_ERROR(invalid_index, invalid_index);
// An index in a bulk build outside the matrix.
TGB_DEFINE_ERROR(index_out_of_bounds, index_out_of_bounds);
// Types that cannot be combined (for example a real-valued file read as int).
TGB_DEFINE_ERROR(domain_mismatch, domain_mismatch);
// Operand shapes that do not conform.
TGB_DEFINE_ERROR(dimension_mismatch, dimension_mismatch);
// A build into an object that already holds entries (GrB_Vector_build).
TGB_DEFINE_ERROR(output_not_empty, output_not_empty);
// The requested backend or feature is not available in this build or machine.
TGB_DEFINE_ERROR(not_implemented, not_implemented);
// An allocation failed; the operation's output is unchanged.
TGB_DEFINE_ERROR(out_of_memory, out_of_memory);
// Unexpected internal failure (a CUDA runtime error, for instance).
TGB_DEFINE_ERROR(panic, panic);
// A value asked of an object that holds none: Scalar::get() on an empty
// scalar. GraphBLAS reports this as the status GrB_NO_VALUE (1, not an
// error code); tgb's get() has no status to return, so it throws it.
TGB_DEFINE_ERROR(no_value, no_value);
// An operation needs a value that an empty Scalar does not hold: one bound
// to apply's operator, or select's thunk (GrB_EMPTY_OBJECT).
TGB_DEFINE_ERROR(empty_object, empty_object);

// A file could not be opened or parsed. GraphBLAS has no I/O code; like
// LAGraph's readers this reports GrB_INVALID_VALUE.
class io_error : public invalid_value {
 public:
  explicit io_error(const std::string& what) : invalid_value(what) {}
};

#undef TGB_DEFINE_ERROR

}  // namespace tgb
