// tgb: the tile layout resident on a CUDA device. Host-compilable: the
// buffers hold device pointers and call into the library to allocate, free
// and copy, so host-only code can own and move device matrices.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tgb/detail/row_storage.hpp"
#include "tgb/detail/tile_storage.hpp"
#include "tgb/device.hpp"

namespace tgb::detail {

// Allocates from the current device memory resource, which *from receives:
// the memory goes back to that resource even if another is current by then.
void* device_allocate(std::size_t bytes, stream_t s, device_memory_resource** from);  // throws out_of_memory
void device_free(void* p, std::size_t bytes, stream_t s, device_memory_resource* from) noexcept;
// Counts memory tgb did not allocate into (delta > 0: adopted) or out of
// (delta < 0: handed over) the bytes it holds (device_bytes_in_use).
void device_held_change(std::ptrdiff_t delta) noexcept;
void copy_host_to_device(void* dst, const void* src, std::size_t bytes, stream_t s);
void copy_device_to_host(void* dst, const void* src, std::size_t bytes, stream_t s);  // waits for it
void copy_device_to_device(void* dst, const void* src, std::size_t bytes, stream_t s);

template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t n, stream_t s = current_stream()) : stream_(s) {
    if (n) {
      data_ = static_cast<T*>(device_allocate(n * sizeof(T), s, &from_));
      size_ = n;
    }
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept { swap(o); }
  device_buffer& operator=(device_buffer&& o) noexcept {
    device_buffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  ~device_buffer() {
    if (data_) device_free(data_, size_ * sizeof(T), stream_, from_);
  }
  void swap(device_buffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(stream_, o.stream_);
    std::swap(from_, o.from_);
  }
  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  stream_t stream() const noexcept { return stream_; }  // the stream it is freed on
  // The resource that frees the elements (null when empty).
  device_memory_resource* resource() const noexcept { return from_; }

  // Takes over n elements of device memory at p that `owner` frees (its
  // deallocate(p, n * sizeof(T), s) once, on release); nothing is copied.
  static device_buffer adopt(T* p, std::size_t n, device_memory_resource* owner, stream_t s) noexcept {
    device_buffer b;
    if (p && n) {
      b.data_ = p;
      b.size_ = n;
      b.stream_ = s;
      b.from_ = owner;
      device_held_change(static_cast<std::ptrdiff_t>(n * sizeof(T)));
    }
    return b;
  }
  // Lets go of the elements without freeing them: whoever takes the pointer
  // frees it as resource() would (read resource() first). Empty after.
  T* release() noexcept {
    T* p = data_;
    if (p) device_held_change(-static_cast<std::ptrdiff_t>(size_ * sizeof(T)));
    data_ = nullptr;
    size_ = 0;
    from_ = nullptr;
    return p;
  }

  static device_buffer from_host(const T* src, std::size_t n, stream_t s) {
    device_buffer b(n, s);
    if (n) copy_host_to_device(b.data_, src, n * sizeof(T), s);
    return b;
  }
  buffer<T> to_host() const {
    buffer<T> out(size_);
    if (size_) copy_device_to_host(out.data(), data_, size_ * sizeof(T), stream_);
    return out;
  }
  device_buffer clone(stream_t s) const {
    device_buffer b(size_, s);
    if (size_) copy_device_to_device(b.data_, data_, size_ * sizeof(T), s);
    return b;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  stream_t stream_ = nullptr;
  device_memory_resource* from_ = nullptr;
};

struct device_pattern {
  index_t nrows = 0;
  index_t ncols = 0;
  offset_t ntiles = 0;
  offset_t nnz = 0;
  device_buffer<offset_t> tile_ptr;      // tile_rows + 1
  device_buffer<tile_index_t> tile_col;  // ntiles
  device_buffer<offset_t> tile_offset;   // ntiles + 1
  device_buffer<std::uint8_t> row_ptr;   // 16 ntiles
  device_buffer<row_bits> row_mask;      // 16 ntiles
  device_buffer<std::uint8_t> col_idx;   // nnz

  index_t tile_rows() const { return tiles_for(nrows); }
  index_t tile_cols() const { return tiles_for(ncols); }
};

template <class T>
struct device_tile_matrix {
  device_pattern pat;
  device_buffer<T> values;
};

// A matrix in row form on the device (docs/tile-format.md, "Two forms"):
// CSR with each row's columns increasing, 32-bit column indices (the form
// is used only where ncols fits them: rows_fit).
// A count computed on first use and kept with the object it describes:
// copies keep it, and readers racing to compute it store the same value.
struct lazy_count {
  std::atomic<offset_t> value{-1};
  lazy_count() = default;
  lazy_count(const lazy_count& o) noexcept : value(o.value.load()) {}
  lazy_count& operator=(const lazy_count& o) noexcept {
    value = o.value.load();
    return *this;
  }
};

template <class T>
struct device_row_matrix {
  index_t nrows = 0, ncols = 0;
  offset_t nnz = 0;
  device_buffer<offset_t> row_ptr;     // nrows + 1
  device_buffer<std::int32_t> col;     // nnz
  device_buffer<T> values;             // nnz
  // The longest row's entry count, found by the first pull over rows that
  // needs it (-1 until then; the row pointers never change after
  // construction, so the count stays true).
  mutable lazy_count longest;
};

template <class T>
device_row_matrix<T> clone(const device_row_matrix<T>& d, stream_t s) {
  device_row_matrix<T> c;
  c.nrows = d.nrows;
  c.ncols = d.ncols;
  c.nnz = d.nnz;
  c.row_ptr = d.row_ptr.clone(s);
  c.col = d.col.clone(s);
  c.values = d.values.clone(s);
  return c;
}

// The host's row form of a device one (waits for the copies).
template <class T>
csr_matrix<T> rows_to_host(const device_row_matrix<T>& d) {
  csr_matrix<T> h;
  h.p.nrows = d.nrows;
  h.p.ncols = d.ncols;
  h.p.rowptr = d.row_ptr.to_host();
  static_assert(std::is_same_v<row_col_t, std::int32_t>, "host and device rows share their column type");
  h.p.colidx = d.col.to_host();
  h.values = d.values.to_host();
  return h;
}

// A host row form on the device (the same 32-bit columns).
template <class T>
device_row_matrix<T> rows_to_device(const csr_matrix<T>& h, stream_t s) {
  device_row_matrix<T> d;
  d.nrows = h.p.nrows;
  d.ncols = h.p.ncols;
  d.nnz = h.p.nnz();
  d.row_ptr = device_buffer<offset_t>::from_host(h.p.rowptr.data(), h.p.rowptr.size(), s);
  d.col = device_buffer<std::int32_t>::from_host(h.p.colidx.data(), std::size_t(d.nnz), s);
  d.values = device_buffer<T>::from_host(h.values.data(), std::size_t(d.nnz), s);
  return d;
}

inline device_pattern pattern_to_device(const tile_pattern& p, stream_t s) {
  device_pattern d;
  d.nrows = p.nrows;
  d.ncols = p.ncols;
  d.ntiles = p.ntiles();
  d.nnz = p.nnz();
  d.tile_ptr = device_buffer<offset_t>::from_host(p.tile_ptr.data(), p.tile_ptr.size(), s);
  d.tile_col = device_buffer<tile_index_t>::from_host(p.tile_col.data(), p.tile_col.size(), s);
  d.tile_offset = device_buffer<offset_t>::from_host(p.tile_offset.data(), p.tile_offset.size(), s);
  d.row_ptr = device_buffer<std::uint8_t>::from_host(p.row_ptr.data(), p.row_ptr.size(), s);
  d.row_mask = device_buffer<row_bits>::from_host(p.row_mask.data(), p.row_mask.size(), s);
  d.col_idx = device_buffer<std::uint8_t>::from_host(p.col_idx.data(), p.col_idx.size(), s);
  return d;
}

inline tile_pattern pattern_to_host(const device_pattern& d) {
  tile_pattern p;
  p.nrows = d.nrows;
  p.ncols = d.ncols;
  p.tile_ptr = d.tile_ptr.to_host();
  p.tile_col = d.tile_col.to_host();
  p.tile_offset = d.tile_offset.to_host();
  p.row_ptr = d.row_ptr.to_host();
  p.row_mask = d.row_mask.to_host();
  p.col_idx = d.col_idx.to_host();
  return p;
}

inline device_pattern clone_pattern(const device_pattern& d, stream_t s) {
  device_pattern c;
  c.nrows = d.nrows;
  c.ncols = d.ncols;
  c.ntiles = d.ntiles;
  c.nnz = d.nnz;
  c.tile_ptr = d.tile_ptr.clone(s);
  c.tile_col = d.tile_col.clone(s);
  c.tile_offset = d.tile_offset.clone(s);
  c.row_ptr = d.row_ptr.clone(s);
  c.row_mask = d.row_mask.clone(s);
  c.col_idx = d.col_idx.clone(s);
  return c;
}

template <class T>
device_tile_matrix<T> to_device(const tile_matrix<T>& m, stream_t s) {
  device_tile_matrix<T> d;
  d.pat = pattern_to_device(m.pat, s);
  d.values = device_buffer<T>::from_host(m.values.data(), m.values.size(), s);
  return d;
}

template <class T>
tile_matrix<T> to_host(const device_tile_matrix<T>& d) {
  tile_matrix<T> m;
  m.pat = pattern_to_host(d.pat);
  m.values = d.values.to_host();
  return m;
}

template <class T>
device_tile_matrix<T> clone(const device_tile_matrix<T>& d, stream_t s) {
  device_tile_matrix<T> c;
  c.pat = clone_pattern(d.pat, s);
  c.values = d.values.clone(s);
  return c;
}

// An empty device pattern (tile_ptr all zero).
device_pattern empty_device_pattern(index_t nrows, index_t ncols, stream_t s);

// Device memory helpers without a kernel of their own in the caller: bytes
// set to zero, and how many of n bytes are nonzero (waits for the count).
void device_zero(void* p, std::size_t bytes, stream_t s);
index_t device_count_nonzero(const std::uint8_t* p, index_t n, stream_t s);

// A vector resident on the device, in the host's bitmap layout (vector.hpp):
// values[i] means something only where present[i] is 1. The count of stored
// entries is known (nvals >= 0) or left for the first reader to make
// (nvals == -1: the device's results are counted only when asked, so an
// operation does not wait for the GPU).
template <class T>
struct device_vector {
  index_t n = 0;
  // Atomic: the first reader of a const vector stores it while others may
  // read it (an operation reading the vector as its input).
  std::atomic<index_t> nvals{-1};
  device_buffer<T> values;
  device_buffer<std::uint8_t> present;

  device_vector() = default;
  device_vector(device_vector&& o) noexcept
      : n(o.n), nvals(o.nvals.load()), values(std::move(o.values)), present(std::move(o.present)) {}
  device_vector& operator=(device_vector&& o) noexcept {
    n = o.n;
    nvals = o.nvals.load();
    values = std::move(o.values);
    present = std::move(o.present);
    return *this;
  }
  // n elements, none stored (values zero, so that a copy reads nothing unset).
  device_vector(index_t size, stream_t s)
      : n(size), nvals(0), values(static_cast<std::size_t>(size), s), present(static_cast<std::size_t>(size), s) {
    if (size) {
      device_zero(present.data(), present.size(), s);
      device_zero(values.data(), values.size() * sizeof(T), s);
    }
  }
};

template <class T>
device_vector<T> clone(const device_vector<T>& d, stream_t s) {
  device_vector<T> c;
  c.n = d.n;
  c.nvals = d.nvals.load();
  c.values = d.values.clone(s);
  c.present = d.present.clone(s);
  return c;
}

}  // namespace tgb::detail
