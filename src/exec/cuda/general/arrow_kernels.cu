#include "exec/cuda/general/arrow_kernels.h"
#include "gpu/launch.cuh"

namespace raydb::exec::cuda::general {

namespace {

__global__ void arrow_values_kernel(const __int128* v, uint64_t n, int mode, void* out) {
  GRID_LOOP(i, n) {
    const __int128 x = v[i];
    switch (ArrowValueMode(mode)) {
      case ArrowValueMode::kLow32: static_cast<int32_t*>(out)[i] = int32_t(int64_t(x)); break;
      case ArrowValueMode::kLow64: static_cast<int64_t*>(out)[i] = int64_t(x); break;
      case ArrowValueMode::kSext64: static_cast<__int128*>(out)[i] = __int128(int64_t(x)); break;
      case ArrowValueMode::kFull128: static_cast<__int128*>(out)[i] = x; break;
      case ArrowValueMode::kBits: break;
    }
  }
}

// One thread per output byte (8 rows), so no two threads write the same byte.
__global__ void pack_bits_kernel(const __int128* v, const uint8_t* nulls, uint64_t n, uint8_t* out) {
  GRID_LOOP(b, (n + 7) / 8) {
    uint8_t byte = 0;
    for (uint64_t k = 0; k < 8; k++) {
      const uint64_t i = b * 8 + k;
      if (i >= n) break;
      const bool set = v ? int64_t(v[i]) != 0 : nulls[i] == 0;  // the low word, as the host reads it
      byte |= uint8_t(set ? 1u << k : 0u);
    }
    out[b] = byte;
  }
}

}  // namespace

void launch_arrow_values(const __int128* v, uint64_t n, ArrowValueMode mode, void* out, cudaStream_t s) {
  if (!n) return;
  if (mode == ArrowValueMode::kBits)
    pack_bits_kernel<<<gpu::grid_blocks((n + 7) / 8), gpu::kThreads, 0, s>>>(v, nullptr, n, static_cast<uint8_t*>(out));
  else
    arrow_values_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(v, n, int(mode), out);
}

void launch_validity_bits(const uint8_t* nulls, uint64_t n, uint8_t* out, cudaStream_t s) {
  if (n) pack_bits_kernel<<<gpu::grid_blocks((n + 7) / 8), gpu::kThreads, 0, s>>>(nullptr, nulls, n, out);
}

}  // namespace raydb::exec::cuda::general
