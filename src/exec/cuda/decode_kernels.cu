// Whole-column decodes through the star kernels' block loads (block/load.cuh), for
// checking the device unpack against the CPU codec (tests/gpu): each tile loaded the
// way a fact kernel loads it, every item written back to its row.
#include "exec/cuda/block/load.cuh"
#include "exec/cuda/kernels.h"

namespace raydb::exec::cuda {

using namespace block;

namespace {

template <Layout L>
__global__ void __launch_bounds__(kBlock) decode_tiles_kernel(const DevColumn c, uint64_t rows, unsigned long long* out) {
  const uint64_t base = uint64_t(blockIdx.x) * kTile;
  uint32_t sel = 0;
  for (int i = 0; i < kItems; i++)
    if (item_row<L>(base, i) < rows) sel |= 1u << i;
  uint64_t v[kItems];
  with_width<uint64_t, L>(c, base, sel, v);
  for (int i = 0; i < kItems; i++)
    if ((sel >> i) & 1u) out[item_row<L>(base, i)] = v[i];
}

}  // namespace

void launch_decode_tiles(const DevColumn& c, uint64_t rows, bool blocked, unsigned long long* out, cudaStream_t stream) {
  if (rows == 0) return;
  const unsigned tiles = unsigned((rows + kTile - 1) / kTile);
  if (blocked)
    decode_tiles_kernel<Layout::kBlocked><<<tiles, kBlock, 0, stream>>>(c, rows, out);
  else
    decode_tiles_kernel<Layout::kStriped><<<tiles, kBlock, 0, stream>>>(c, rows, out);
}

}  // namespace raydb::exec::cuda
