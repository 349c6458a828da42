// tgb CUDA backend: the value-type instantiations (masks, transposes).
#include "tgb/detail/cuda/mxm.cuh"

namespace tgb::detail::cuda {

template device_buffer<row_bits> value_mask_bits(const device_tile_matrix<bool>&, stream_t);
template device_buffer<row_bits> value_mask_bits(const device_tile_matrix<std::int32_t>&, stream_t);
template device_buffer<row_bits> value_mask_bits(const device_tile_matrix<std::int64_t>&, stream_t);
template device_buffer<row_bits> value_mask_bits(const device_tile_matrix<float>&, stream_t);
template device_buffer<row_bits> value_mask_bits(const device_tile_matrix<double>&, stream_t);
template device_tile_matrix<bool> transpose(const device_tile_matrix<bool>&, stream_t);
template device_tile_matrix<std::int32_t> transpose(const device_tile_matrix<std::int32_t>&, stream_t);
template device_tile_matrix<std::int64_t> transpose(const device_tile_matrix<std::int64_t>&, stream_t);
template device_tile_matrix<float> transpose(const device_tile_matrix<float>&, stream_t);
template device_tile_matrix<double> transpose(const device_tile_matrix<double>&, stream_t);

}  // namespace tgb::detail::cuda
