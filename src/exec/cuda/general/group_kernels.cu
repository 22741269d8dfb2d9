// Kernels of group_kernels.h. Grid-stride loops with 64-bit indices.
#include <cub/device/device_radix_sort.cuh>

#include "gpu/device_buffer.h"
#include "exec/cuda/general/general_kernels.h"
#include "gpu/launch.cuh"
#include "exec/cuda/general/group_kernels.h"
#include "exec/core/exact_double_sum.h"

namespace raydb::exec::cuda::general {

namespace {

constexpr uint32_t kNone = 0xffffffffu;

__device__ __forceinline__ __int128 norm_double(__int128 v) {
  return __int128((long long)same_value_bits((unsigned long long)v));
}

__global__ void normalize_doubles_kernel(__int128* values, const uint8_t* nulls, uint64_t n) {
  GRID_LOOP(i, n) values[i] = nulls[i] ? __int128(0) : norm_double(values[i]);
}

__global__ void gather_key_hi_kernel(const __int128* values, const uint8_t* nulls, const uint32_t* perm, uint64_t n,
                                     long long* key_out) {
  GRID_LOOP(i, n) {
    const uint32_t r = perm[i];
    key_out[i] = nulls[r] ? 0 : (long long)(values[r] >> 64);
  }
}

__global__ void double_order_keys_kernel(const __int128* values, uint64_t n, __int128* out) {
  GRID_LOOP(i, n) {
    const unsigned long long k = double_order_key((unsigned long long)values[i]);
    out[i] = __int128((long long)(k ^ kDoubleSign));
  }
}

__global__ void extreme_hi_kernel(bool is_min, const uint32_t* gid, const __int128* values, const uint8_t* nulls,
                                  uint64_t n, long long* hi) {
  GRID_LOOP(i, n) {
    if (nulls[i]) continue;
    const uint32_t g = gid ? gid[i] : 0;
    const long long h = (long long)(values[i] >> 64);
    if (is_min)
      atomicMin(hi + g, h);
    else
      atomicMax(hi + g, h);
  }
}

__global__ void extreme_lo_kernel(bool is_min, const uint32_t* gid, const __int128* values, const uint8_t* nulls,
                                  uint64_t n, const long long* hi, unsigned long long* lo) {
  GRID_LOOP(i, n) {
    if (nulls[i]) continue;
    const uint32_t g = gid ? gid[i] : 0;
    if ((long long)(values[i] >> 64) != hi[g]) continue;
    const unsigned long long l = (unsigned long long)values[i];
    if (is_min)
      atomicMin(lo + g, l);
    else
      atomicMax(lo + g, l);
  }
}

__global__ void fill_u64_kernel(unsigned long long* p, uint64_t n, unsigned long long v) {
  GRID_LOOP(i, n) p[i] = v;
}
__global__ void fill_u32_kernel(uint32_t* p, uint64_t n, uint32_t v) {
  GRID_LOOP(i, n) p[i] = v;
}

// Group g occupies positions [start[g], end[g]) of the visiting order (kNone: none).
__global__ void group_bounds_kernel(const uint32_t* gid, const uint32_t* order, uint64_t n, uint32_t* start,
                                    uint32_t* end) {
  GRID_LOOP(i, n) {
    auto g_at = [&](uint64_t p) { return gid ? gid[order ? order[p] : p] : 0u; };
    const uint32_t g = g_at(i);
    if (i == 0 || g_at(i - 1) != g) start[g] = uint32_t(i);
    if (i + 1 == n || g_at(i + 1) != g) end[g] = uint32_t(i + 1);
  }
}

__device__ void flush_partial(ExactDoubleSum& acc, ExactDoubleSum* spill, uint64_t slot) {
  acc.normalize();
  ExactDoubleSum& d = spill[slot];
  for (int j = acc.first; j <= acc.last; j++)
    if (acc.limb[j]) atomicAdd(reinterpret_cast<unsigned long long*>(&d.limb[j]), (unsigned long long)acc.limb[j]);
  if (acc.flags) atomicOr(&d.flags, acc.flags);
}

__global__ void exact_sum_chunks_kernel(const uint32_t* gid, const uint32_t* order, const __int128* values,
                                        const uint8_t* nulls, uint64_t n, uint64_t chunk, uint64_t chunks,
                                        const uint32_t* start, const uint32_t* end, ExactDoubleSum* spill,
                                        unsigned long long* out) {
  ExactDoubleSum acc;
  acc.init();
  GRID_LOOP(c, chunks) {
    const uint64_t b = c * chunk, e = b + chunk < n ? b + chunk : n;
    // A group inside this chunk is rounded here; one crossing its edges goes to the
    // spill slot of the chunk where it starts.
    auto finish = [&](uint32_t g) {
      if (start[g] >= b && end[g] <= e)
        out[g] = acc.round_bits();
      else
        flush_partial(acc, spill, start[g] / chunk);
      acc.reset();
    };
    uint32_t cur = kNone;
    for (uint64_t p = b; p < e; p++) {
      const uint32_t r = order ? order[p] : uint32_t(p);
      const uint32_t g = gid ? gid[r] : 0;
      if (g != cur) {
        if (cur != kNone) finish(cur);
        cur = g;
      }
      if (!nulls[r]) acc.add_bits((unsigned long long)values[r]);
    }
    if (cur != kNone) finish(cur);
  }
}

__global__ void exact_sum_spills_kernel(uint64_t groups, uint64_t chunk, const uint32_t* start, const uint32_t* end,
                                        ExactDoubleSum* spill, unsigned long long* out) {
  GRID_LOOP(g, groups) {
    if (start[g] == kNone) continue;
    const uint64_t c = start[g] / chunk;
    if (c == (end[g] - 1) / chunk) continue;
    ExactDoubleSum& s = spill[c];
    s.pending = 0;
    s.first = 0;
    s.last = ExactDoubleSum::kLimbs - 1;
    out[g] = s.round_bits();
  }
}

// DISTINCT pairs: per row its group key (kNone when the value is NULL: sorts last and
// is dropped), and the two words of its normalized value.
__device__ __forceinline__ __int128 distinct_value(bool is_double, const __int128* values, uint32_t r) {
  return is_double ? norm_double(values[r]) : values[r];
}

__global__ void distinct_word_kernel(bool is_double, bool high, const __int128* values, const uint32_t* idx, uint64_t n,
                                     long long* out) {
  GRID_LOOP(i, n) {
    const __int128 v = distinct_value(is_double, values, idx[i]);
    out[i] = high ? (long long)(v >> 64) : (long long)v;
  }
}

__global__ void distinct_gkey_kernel(const uint32_t* gid, const uint8_t* nulls, const uint32_t* idx, uint64_t n,
                                     uint32_t* out) {
  GRID_LOOP(i, n) {
    const uint32_t r = idx[i];
    out[i] = nulls[r] ? kNone : (gid ? gid[r] : 0);
  }
}

__global__ void distinct_flags_kernel(bool is_double, const uint32_t* gkey_sorted, const __int128* values,
                                      const uint32_t* idx, uint64_t n, uint8_t* flags) {
  GRID_LOOP(i, n) {
    const uint32_t g = gkey_sorted[i];
    flags[i] = g != kNone && (i == 0 || gkey_sorted[i - 1] != g ||
                              distinct_value(is_double, values, idx[i - 1]) != distinct_value(is_double, values, idx[i]));
  }
}

__global__ void distinct_gather_kernel(bool is_double, const uint32_t* gkey_sorted, const __int128* values,
                                       const uint32_t* idx, const uint32_t* pos, uint64_t m, uint32_t* out_gid,
                                       __int128* out_values) {
  GRID_LOOP(j, m) {
    const uint32_t p = pos[j];
    out_gid[j] = gkey_sorted[p];
    out_values[j] = distinct_value(is_double, values, idx[p]);
  }
}

void sort_pairs_u32_u32(const uint32_t* keys_in, uint32_t* keys_out, const uint32_t* vals_in, uint32_t* vals_out,
                        uint64_t n, cudaStream_t s) {
  if (n == 0) return;
  size_t bytes = 0;
  gpu::check_cuda(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, vals_in, vals_out, int(n), 0, 32, s),
             "cub (size query)");
  gpu::DeviceBuffer temp(std::max<size_t>(bytes, 16), "sort scratch");
  gpu::check_cuda(cub::DeviceRadixSort::SortPairs(temp.get(), bytes, keys_in, keys_out, vals_in, vals_out, int(n), 0, 32, s),
             "cub");
}

}  // namespace

void launch_normalize_doubles(__int128* values, const uint8_t* nulls, uint64_t n, cudaStream_t s) {
  if (n) normalize_doubles_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(values, nulls, n);
}

void launch_gather_key_hi(const __int128* values, const uint8_t* nulls, const uint32_t* perm, uint64_t n,
                          long long* key_out, cudaStream_t s) {
  if (n) gather_key_hi_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(values, nulls, perm, n, key_out);
}

__global__ void low_words_kernel(const __int128* values, uint64_t n, unsigned long long* out) {
  GRID_LOOP(i, n) out[i] = (unsigned long long)values[i];
}

void launch_low_words(const __int128* values, uint64_t n, unsigned long long* out, cudaStream_t s) {
  if (n) low_words_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(values, n, out);
}

void launch_double_order_keys(const __int128* values, uint64_t n, __int128* out, cudaStream_t s) {
  if (n) double_order_keys_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(values, n, out);
}

double order_key_to_double(long long key) {
  return bits_double(double_from_order_key(uint64_t(key) ^ kDoubleSign));
}

void launch_extreme_i128(bool is_min, const uint32_t* gid, const __int128* values, const uint8_t* nulls, uint64_t n,
                         long long* hi, unsigned long long* lo, cudaStream_t s) {
  if (!n) return;
  extreme_hi_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(is_min, gid, values, nulls, n, hi);
  extreme_lo_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(is_min, gid, values, nulls, n, hi, lo);
}

void launch_fill_u64(unsigned long long* p, uint64_t n, unsigned long long v, cudaStream_t s) {
  if (n) fill_u64_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(p, n, v);
}

void launch_exact_double_sum(const uint32_t* gid, const uint32_t* order, const __int128* values, const uint8_t* nulls,
                             uint64_t n, uint64_t groups, unsigned long long* out_bits, cudaStream_t s) {
  if (!n || !groups) return;
  // 128 positions per thread, more when needed to keep the spill area at 2^20
  // accumulators (about 560 MiB) at most.
  const uint64_t chunk = std::max<uint64_t>(128, (n + (uint64_t(1) << 20) - 1) >> 20);
  const uint64_t chunks = (n + chunk - 1) / chunk;
  gpu::DeviceBuffer start(groups * 4, "exact sums"), end(groups * 4, "exact sums");
  gpu::DeviceBuffer spill(chunks * sizeof(ExactDoubleSum), "exact sums");
  fill_u32_kernel<<<gpu::grid_blocks(groups), gpu::kThreads, 0, s>>>(start.get<uint32_t>(), groups, kNone);
  gpu::check_cuda(cudaMemsetAsync(spill.get(), 0, chunks * sizeof(ExactDoubleSum), s), "cudaMemset");
  group_bounds_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(gid, order, n, start.get<uint32_t>(), end.get<uint32_t>());
  exact_sum_chunks_kernel<<<gpu::grid_blocks(chunks), gpu::kThreads, 0, s>>>(gid, order, values, nulls, n, chunk, chunks,
                                                                  start.get<uint32_t>(), end.get<uint32_t>(),
                                                                  spill.get<ExactDoubleSum>(), out_bits);
  exact_sum_spills_kernel<<<gpu::grid_blocks(groups), gpu::kThreads, 0, s>>>(groups, chunk, start.get<uint32_t>(),
                                                                  end.get<uint32_t>(), spill.get<ExactDoubleSum>(),
                                                                  out_bits);
  gpu::check_cuda(cudaStreamSynchronize(s), "exact sums");  // the buffers above are released on return
}

uint64_t distinct_pairs(bool is_double, const uint32_t* gid, const __int128* values, const uint8_t* nulls, uint64_t n,
                        uint32_t* out_gid, __int128* out_values, cudaStream_t s) {
  if (!n) return 0;
  // Stable LSD passes over row indices: low word, high word, group (NULLs last).
  gpu::DeviceBuffer idx(n * 4, "distinct pairs"), idx2(n * 4, "distinct pairs");
  gpu::DeviceBuffer w(n * 8, "distinct pairs"), w2(n * 8, "distinct pairs");
  gpu::DeviceBuffer gk(n * 4, "distinct pairs"), gk2(n * 4, "distinct pairs");
  launch_iota(idx.get<uint32_t>(), n, 0, s);
  for (bool high : {false, true}) {
    distinct_word_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(is_double, high, values, idx.get<uint32_t>(), n,
                                                            w.get<long long>());
    sort_pairs_i64(w.get<long long>(), w2.get<long long>(), idx.get<uint32_t>(), idx2.get<uint32_t>(), n, s);
    std::swap(idx, idx2);
  }
  distinct_gkey_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(gid, nulls, idx.get<uint32_t>(), n, gk.get<uint32_t>());
  sort_pairs_u32_u32(gk.get<uint32_t>(), gk2.get<uint32_t>(), idx.get<uint32_t>(), idx2.get<uint32_t>(), n, s);
  gpu::DeviceBuffer flags(n, "distinct pairs"), pos(n * 4, "distinct pairs");
  distinct_flags_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(is_double, gk2.get<uint32_t>(), values,
                                                           idx2.get<uint32_t>(), n, flags.get<uint8_t>());
  const uint64_t m = select_flagged(flags.get<uint8_t>(), n, pos.get<uint32_t>(), s);
  if (m)
    distinct_gather_kernel<<<gpu::grid_blocks(m), gpu::kThreads, 0, s>>>(is_double, gk2.get<uint32_t>(), values,
                                                              idx2.get<uint32_t>(), pos.get<uint32_t>(), m, out_gid,
                                                              out_values);
  gpu::check_cuda(cudaStreamSynchronize(s), "distinct pairs");
  return m;
}

}  // namespace raydb::exec::cuda::general
