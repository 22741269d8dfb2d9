// GROUP BY ids through an open-addressing hash table in device memory (group_ids.h).
// Each row inserts its key tuple: a slot holds the row id of the group's
// representative (the row whose atomicCAS claimed it); a row meeting an occupied slot
// compares every key column with the representative's and moves on (linear probing)
// when they differ. Capacity is a power of two of at least 2n slots, so the load stays
// at 1/2 or below whatever the number of groups and an empty slot always ends a probe.
// Then only the G representatives are sorted (sort_rows_by_group_keys), the rank of
// each is written into its slot, and every row reads its group id from its slot.
#include <cub/device/device_radix_sort.cuh>

#include <atomic>

#include "common/hash_mix.h"
#include "gpu/device_buffer.h"
#include "exec/cuda/general/general_kernels.h"
#include "gpu/launch.cuh"
#include "exec/cuda/general/group_ids.h"

namespace raydb::exec::cuda::general {

namespace {

constexpr uint32_t kEmpty = 0xffffffffu;  // row ids stay below 2^31

std::atomic<uint64_t>& hash_grouped() {
  static std::atomic<uint64_t> n{0};
  return n;
}

// Equal keys hash alike: NULL ignores the value word (NULL slots may hold anything);
// both words of 128-bit keys count.
__device__ __forceinline__ unsigned long long row_hash(const KeyColumns& k, uint64_t i) {
  unsigned long long h = 0x9E3779B97F4A7C15ull;
  for (int c = 0; c < k.width; c++) {
    unsigned long long w = 0x6A09E667F3BCC909ull;  // NULL
    if (!k.nulls[c][i]) {
      const __int128 v = k.values[c][i];
      w = (unsigned long long)v ^ ((unsigned long long)(v >> 64) * 0xC2B2AE3D27D4EB4Full);
    }
    h = fmix64(h ^ w) + 0x9E3779B97F4A7C15ull;
  }
  return h;
}

// The CPU key encoder's equality: NULL equals NULL, values compared in all 128 bits.
__device__ __forceinline__ bool same_key(const KeyColumns& k, uint64_t a, uint64_t b) {
  for (int c = 0; c < k.width; c++) {
    const bool an = k.nulls[c][a], bn = k.nulls[c][b];
    if (an != bn || (!an && k.values[c][a] != k.values[c][b])) return false;
  }
  return true;
}

__global__ void insert_kernel(KeyColumns k, uint64_t n, uint32_t* table, uint64_t mask, uint32_t* slot_of,
                              uint8_t* rep) {
  GRID_LOOP(i, n) {
    uint64_t p = row_hash(k, i) & mask;
    uint8_t won = 0;
    for (;;) {
      // A plain read first: once a group's slot is taken (almost always) no atomic.
      uint32_t cur = *(volatile const uint32_t*)(table + p);
      if (cur == kEmpty) {
        cur = atomicCAS(table + p, kEmpty, uint32_t(i));
        if (cur == kEmpty) {
          won = 1;
          break;
        }
      }
      // The representative's keys were written before this kernel started.
      if (same_key(k, i, cur)) break;
      p = (p + 1) & mask;
    }
    slot_of[i] = uint32_t(p);
    rep[i] = won;
  }
}

// Representatives in group order: their rank into their slot.
__global__ void number_kernel(const uint32_t* reps, uint64_t groups, const uint32_t* slot_of, uint32_t* table) {
  GRID_LOOP(g, groups) table[slot_of[reps[g]]] = uint32_t(g);
}

// In place: slot -> group id.
__global__ void map_kernel(uint32_t* slot_gid, uint64_t n, const uint32_t* table) {
  GRID_LOOP(i, n) slot_gid[i] = table[slot_gid[i]];
}

}  // namespace

GroupIds hash_group_ids(const std::vector<GroupKeyColumn>& keys, uint64_t n, bool need_order, cudaStream_t s) {
  GroupIds r;
  KeyColumns kc;
  kc.width = int(keys.size());
  for (size_t k = 0; k < keys.size(); k++) kc.values[k] = keys[k].values, kc.nulls[k] = keys[k].nulls;
  uint64_t cap = 2;
  while (cap < 2 * n) cap <<= 1;
  {
    gpu::DeviceBuffer table(cap * 4, "group hash table");
    gpu::DeviceBuffer rep(n, "group representatives");
    r.gid = gpu::DeviceBuffer(n * 4, "group ids");  // slots first, then group ids
    r.first = gpu::DeviceBuffer(n * 4, "group representatives");
    gpu::check_cuda(cudaMemsetAsync(table.get(), 0xff, cap * 4, s), "cudaMemset");
    insert_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(kc, n, table.get<uint32_t>(), cap - 1, r.gid.get<uint32_t>(),
                                                      rep.get<uint8_t>());
    r.groups = select_flagged(rep.get<uint8_t>(), n, r.first.get<uint32_t>(), s);
    sort_rows_by_group_keys(keys, r.first.get<uint32_t>(), r.groups, s);
    number_kernel<<<gpu::grid_blocks(r.groups), gpu::kThreads, 0, s>>>(r.first.get<uint32_t>(), r.groups, r.gid.get<uint32_t>(),
                                                            table.get<uint32_t>());
    map_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(r.gid.get<uint32_t>(), n, table.get<uint32_t>());
    gpu::check_cuda(cudaStreamSynchronize(s), "group hash table");  // the table is released on return
  }
  if (need_order) {
    // Rows by group id only: a stable radix sort over the bits group ids use, so each
    // group's rows are contiguous and ascending (as the sort path leaves them).
    int bits = 1;
    while (bits < 32 && (uint64_t(1) << bits) < r.groups) bits++;
    gpu::DeviceBuffer rows(n * 4, "group order"), sorted_gid(n * 4, "group order");
    r.order = gpu::DeviceBuffer(n * 4, "group order");
    launch_iota(rows.get<uint32_t>(), n, 0, s);
    size_t bytes = 0;
    gpu::check_cuda(cub::DeviceRadixSort::SortPairs(nullptr, bytes, r.gid.get<uint32_t>(), sorted_gid.get<uint32_t>(),
                                               rows.get<uint32_t>(), r.order.get<uint32_t>(), int(n), 0, bits, s),
               "cub (size query)");
    gpu::DeviceBuffer temp(std::max<size_t>(bytes, 16), "sort scratch");
    gpu::check_cuda(cub::DeviceRadixSort::SortPairs(temp.get(), bytes, r.gid.get<uint32_t>(), sorted_gid.get<uint32_t>(),
                                               rows.get<uint32_t>(), r.order.get<uint32_t>(), int(n), 0, bits, s),
               "cub");
    gpu::check_cuda(cudaStreamSynchronize(s), "group order");
  }
  hash_grouped()++;
  return r;
}

uint64_t hash_grouped_count() { return hash_grouped().load(); }

}  // namespace raydb::exec::cuda::general

namespace raydb::exec::cuda {
uint64_t hash_grouped_queries() { return general::hash_grouped_count(); }
}  // namespace raydb::exec::cuda
