// The general path's GPU hash join (hash_join.h): table build, key ids and CSR
// ranges, probe count and write passes.
#include <cub/device/device_radix_sort.cuh>

#include <atomic>

#include "common/hash_mix.h"
#include "exec/cuda/cuda_device.h"
#include "gpu/launch.cuh"
#include "exec/cuda/general/key_columns.cuh"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/hash_join.h"
#include "exec/cuda/general/program_interpreter.cuh"

namespace raydb::exec::cuda::general {

namespace {

constexpr unsigned long long kEmpty = ~0ull;  // representative 0xFFFFFFFF: never a position (< 2^31)
constexpr uint32_t kNoSlot = ~0u;

std::atomic<uint64_t>& builds() {
  static std::atomic<uint64_t> n{0};
  return n;
}

constexpr unsigned long long kHashSeed = 0x9E3779B97F4A7C15ull;

// Key column c's value folded into the hash.
__device__ __forceinline__ unsigned long long mix_key(unsigned long long h, __int128 v, int c) {
  const unsigned long long lo = (unsigned long long)v, hi = (unsigned long long)(v >> 64);
  return fmix64(h ^ lo ^ (hi * 0xC2B2AE3D27D4EB4Full) ^ (unsigned long long)c);
}

// False when some key column is NULL (such rows never match, as the CPU's join).
__device__ __forceinline__ bool key_hash(const KeyColumns& k, uint64_t i, unsigned long long& h) {
  h = kHashSeed;
  for (int c = 0; c < k.width; c++) {
    if (k.nulls[c][i]) return false;
    h = mix_key(h, k.values[c][i], c);
  }
  return true;
}

// One probe row's key, as the probe passes read it: a materialized tuple, or one value
// loaded from its column (hashed as a one-column tuple, so it finds the same slots).
struct TupleRow {
  const KeyColumns& k;
  uint64_t i;
  __device__ bool hash(unsigned long long& h) const { return key_hash(k, i, h); }
  __device__ bool equals(const KeyColumns& b, uint64_t j) const { return keys_equal(k, i, b, j); }
};
struct ValueRow {
  __int128 v;
  __device__ bool hash(unsigned long long& h) const {
    h = mix_key(kHashSeed, v, 0);
    return true;
  }
  __device__ bool equals(const KeyColumns& b, uint64_t j) const { return b.values[0][j] == v; }
};
__device__ __forceinline__ TupleRow probe_row(const KeyColumns& k, uint64_t i) { return TupleRow{k, i}; }
__device__ __forceinline__ ValueRow probe_row(const ColumnProbeKey& k, uint64_t i) {
  return ValueRow{column_value(k.col, k.rows[i])};
}

__device__ __forceinline__ uint32_t tag_of(unsigned long long h) { return uint32_t(h >> 32); }

// counters[0]: rows with no NULL key; counters[1]: distinct keys (the key id source).
__global__ void insert_kernel(KeyColumns k, uint64_t n, unsigned long long* slots, uint64_t mask, uint32_t* slot_kid,
                              uint32_t* row_slot, unsigned long long* counters) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  bool valid = false, won = false;
  uint64_t slot = kNoSlot;
  if (i < n) {
    unsigned long long h;
    valid = key_hash(k, i, h);
    if (valid) {
      const unsigned long long mine = (i << 32) | tag_of(h);
      slot = h & mask;
      for (;;) {
        // Slots go from empty to full once, so a stale empty read only costs a CAS
        // that returns the real content.
        unsigned long long cur = *(volatile unsigned long long*)(slots + slot);
        if (cur == kEmpty) {
          cur = atomicCAS(slots + slot, kEmpty, mine);
          if (cur == kEmpty) {
            won = true;
            break;
          }
        }
        if (uint32_t(cur) == uint32_t(mine) && keys_equal(k, i, k, cur >> 32)) break;
        slot = (slot + 1) & mask;
      }
    }
    row_slot[i] = uint32_t(slot);
  }
  // Warp-aggregated counting: one atomic per warp instead of one per row; the rows
  // that inserted a key take consecutive ids from the warp's base.
  const unsigned vmask = __ballot_sync(~0u, valid), wmask = __ballot_sync(~0u, won);
  const unsigned lane = threadIdx.x & 31u;
  unsigned long long base = 0;
  if (lane == 0) {
    if (vmask) atomicAdd(counters, (unsigned long long)__popc(vmask));
    if (wmask) base = atomicAdd(counters + 1, (unsigned long long)__popc(wmask));
  }
  base = __shfl_sync(~0u, base, 0);
  if (won) slot_kid[slot] = uint32_t(base + __popc(wmask & ((1u << lane) - 1u)));
}

// row_slot -> key id in place; rows with a NULL key get `distinct` (sorted last).
__global__ void key_id_kernel(uint32_t* row_slot, const uint32_t* slot_kid, uint64_t n, uint32_t distinct) {
  GRID_LOOP(i, n) {
    const uint32_t s = row_slot[i];
    row_slot[i] = s == kNoSlot ? distinct : slot_kid[s];
  }
}

__global__ void iota_kernel(uint32_t* out, uint64_t n) {
  GRID_LOOP(i, n) out[i] = uint32_t(i);
}

// Over key ids sorted ascending: starts[id] = first sorted index of id; starts[distinct]
// = rows (the valid rows sort first, every id has at least one row).
__global__ void starts_kernel(const uint32_t* kid, uint64_t n, uint32_t distinct, uint32_t rows, uint32_t* starts) {
  GRID_LOOP(t, n) {
    const uint32_t k = kid[t];
    if (k < distinct && (t == 0 || kid[t - 1] != k)) starts[k] = uint32_t(t);
    if (t == 0) starts[distinct] = rows;
  }
}

struct Table {
  KeyColumns keys;
  const unsigned long long* slots;
  const uint32_t* slot_kid;  // null when unique
  const uint32_t* starts;    // null when unique
  const uint32_t* order;     // null when unique
  uint64_t mask;
};

// The slot holding the probe row's key, kNoSlot when absent (or a NULL key).
template <typename Row>
__device__ __forceinline__ uint32_t find_slot(const Table& t, const Row& row) {
  unsigned long long h;
  if (!row.hash(h)) return kNoSlot;
  const uint32_t tag = tag_of(h);
  for (uint64_t s = h & t.mask;; s = (s + 1) & t.mask) {
    const unsigned long long cur = t.slots[s];
    if (cur == kEmpty) return kNoSlot;
    if (uint32_t(cur) == tag && row.equals(t.keys, cur >> 32)) return uint32_t(s);
  }
}

template <typename P>
__global__ void probe_count_kernel(P probe, uint64_t n, Table t, uint32_t* slot_out, unsigned long long* count) {
  GRID_LOOP(i, n) {
    const uint32_t found = find_slot(t, probe_row(probe, i));
    unsigned long long m = 0;
    if (found != kNoSlot) {
      if (t.starts) {
        const uint32_t kid = t.slot_kid[found];
        m = t.starts[kid + 1] - t.starts[kid];
      } else {
        m = 1;
      }
    }
    slot_out[i] = found;
    count[i] = m;
  }
}

// Unique builds: only each probe row's slot.
template <typename P>
__global__ void probe_slot_kernel(P probe, uint64_t n, Table t, uint32_t* slot_out) {
  GRID_LOOP(i, n) slot_out[i] = find_slot(t, probe_row(probe, i));
}

// The selected positions' build rows, through their slots (a slot's representative is
// its one build row).
__global__ void unique_rows_kernel(const uint32_t* src, uint64_t m, const uint32_t* slot, Table t,
                                   const uint32_t* build_rows, uint32_t* out_rows) {
  GRID_LOOP(j, m) out_rows[j] = build_rows[t.slots[slot[src[j]]] >> 32];
}

__global__ void probe_write_kernel(const uint32_t* slot, const unsigned long long* offsets, uint64_t n, Table t,
                                   const uint32_t* build_rows, uint32_t* out_src, uint32_t* out_rows) {
  GRID_LOOP(i, n) {
    const uint32_t s = slot[i];
    if (s == kNoSlot) continue;
    unsigned long long o = offsets[i];
    if (!t.starts) {
      out_src[o] = uint32_t(i);
      out_rows[o] = build_rows[t.slots[s] >> 32];
      continue;
    }
    const uint32_t kid = t.slot_kid[s];
    for (uint32_t r = t.starts[kid], e = t.starts[kid + 1]; r < e; r++, o++) {
      out_src[o] = uint32_t(i);
      out_rows[o] = build_rows[t.order[r]];
    }
  }
}

}  // namespace

HashJoinTable::HashJoinTable(const KeyColumns& keys, uint64_t n, cudaStream_t s) : keys_(keys) {
  builds().fetch_add(1);
  capacity_ = 16;
  while (capacity_ < 2 * n) capacity_ *= 2;
  slots_ = gpu::DeviceBuffer(capacity_ * 8, "hash join table");
  slot_kid_ = gpu::DeviceBuffer(capacity_ * 4, "hash join key ids");
  gpu::check_cuda(cudaMemsetAsync(slots_.get(), 0xFF, capacity_ * 8, s), "cudaMemset");
  if (n == 0) {
    slot_kid_.reset();
    return;
  }
  gpu::DeviceBuffer row_slot(n * 4, "hash join key ids"), counters(16, "hash join counts");
  gpu::check_cuda(cudaMemsetAsync(counters.get(), 0, 16, s), "cudaMemset");
  // One thread per row with no grid-stride loop: the insert kernel's warp-wide ballots
  // need every lane of a warp to reach them.
  insert_kernel<<<gpu::item_blocks(n), gpu::kThreads, 0, s>>>(keys_, n, slots_.get<unsigned long long>(), capacity_ - 1,
                                                     slot_kid_.get<uint32_t>(), row_slot.get<uint32_t>(),
                                                     counters.get<unsigned long long>());
  gpu::check_cuda(cudaGetLastError(), "hash join build");
  unsigned long long h[2] = {0, 0};
  gpu::check_cuda(cudaMemcpyAsync(h, counters.get(), 16, cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s), "hash join build");
  rows_ = h[0];
  distinct_ = h[1];
  if (distinct_ == rows_) {  // one row per key: a slot's representative is its row
    slot_kid_.reset();
    return;
  }
  // CSR ranges: rows ordered by key id, stable, so ascending position within a key.
  const uint32_t d = uint32_t(distinct_);
  key_id_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(row_slot.get<uint32_t>(), slot_kid_.get<uint32_t>(), n, d);
  gpu::DeviceBuffer pos(n * 4, "hash join positions"), kid_sorted(n * 4, "hash join key ids");
  order_ = gpu::DeviceBuffer(n * 4, "hash join positions");
  iota_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(pos.get<uint32_t>(), n);
  int bits = 1;
  while (bits < 32 && (uint64_t(1) << bits) <= distinct_) bits++;  // ids 0..distinct (NULL rows) fit
  size_t temp_bytes = 0;
  gpu::check_cuda(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, row_slot.get<uint32_t>(), kid_sorted.get<uint32_t>(),
                                             pos.get<uint32_t>(), order_.get<uint32_t>(), int(n), 0, bits, s),
             "cub (size query)");
  {
    gpu::DeviceBuffer temp(std::max<size_t>(temp_bytes, 16), "sort/scan scratch");
    gpu::check_cuda(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, row_slot.get<uint32_t>(),
                                               kid_sorted.get<uint32_t>(), pos.get<uint32_t>(), order_.get<uint32_t>(),
                                               int(n), 0, bits, s),
               "cub");
  }
  starts_ = gpu::DeviceBuffer((distinct_ + 1) * 4, "hash join ranges");
  starts_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(kid_sorted.get<uint32_t>(), n, d, uint32_t(rows_),
                                                   starts_.get<uint32_t>());
  gpu::check_cuda(cudaGetLastError(), "hash join build");
}

namespace {
Table table_view(const KeyColumns& keys, const gpu::DeviceBuffer& slots, const gpu::DeviceBuffer& slot_kid,
                 const gpu::DeviceBuffer& starts, const gpu::DeviceBuffer& order, uint64_t capacity) {
  Table t;
  t.keys = keys;
  t.slots = slots.get<const unsigned long long>();
  const bool csr = starts.bytes() != 0;
  t.slot_kid = csr ? slot_kid.get<const uint32_t>() : nullptr;
  t.starts = csr ? starts.get<const uint32_t>() : nullptr;
  t.order = csr ? order.get<const uint32_t>() : nullptr;
  t.mask = capacity - 1;
  return t;
}

template <typename P>
HashJoinProbe count_probe(const Table& t, const P& probe, uint64_t n, cudaStream_t s) {
  HashJoinProbe p;
  p.n = n;
  const uint64_t n1 = std::max<uint64_t>(n, 1);
  p.slot = gpu::DeviceBuffer(n1 * 4, "join slots");
  p.offsets = gpu::DeviceBuffer(n1 * 8, "join offsets");
  if (n == 0) return p;
  gpu::DeviceBuffer count(n1 * 8, "join counts");
  probe_count_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(probe, n, t, p.slot.get<uint32_t>(),
                                                                  count.get<unsigned long long>());
  gpu::check_cuda(cudaGetLastError(), "hash join probe");
  p.pairs = exclusive_sum_u64(count.get<unsigned long long>(), p.offsets.get<unsigned long long>(), n, s);
  return p;
}

template <typename P>
uint64_t select_unique(const Table& t, const P& probe, uint64_t n, const uint32_t* build_rows, uint32_t* out_src,
                       gpu::DeviceBuffer& out_rows, cudaStream_t s) {
  if (n == 0) {
    out_rows = gpu::DeviceBuffer(4, "row ids");
    return 0;
  }
  gpu::DeviceBuffer slot(n * 4, "join slots");
  probe_slot_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(probe, n, t, slot.get<uint32_t>());
  gpu::check_cuda(cudaGetLastError(), "hash join probe");
  const uint64_t m = select_present(slot.get<uint32_t>(), kNoSlot, n, out_src, s);
  out_rows = gpu::DeviceBuffer(std::max<uint64_t>(m, 1) * 4, "row ids");
  if (m > 0)
    unique_rows_kernel<<<gpu::grid_blocks(m), gpu::kThreads, 0, s>>>(out_src, m, slot.get<uint32_t>(), t, build_rows,
                                                                     out_rows.get<uint32_t>());
  gpu::check_cuda(cudaGetLastError(), "hash join probe");
  return m;
}

}  // namespace

uint64_t HashJoinTable::probe_unique(const KeyColumns& probe, uint64_t n, const uint32_t* build_rows, uint32_t* out_src,
                                     gpu::DeviceBuffer& out_rows, cudaStream_t s) const {
  return select_unique(table_view(keys_, slots_, slot_kid_, starts_, order_, capacity_), probe, n, build_rows, out_src,
                       out_rows, s);
}

uint64_t HashJoinTable::probe_unique(const ColumnProbeKey& probe, uint64_t n, const uint32_t* build_rows,
                                     uint32_t* out_src, gpu::DeviceBuffer& out_rows, cudaStream_t s) const {
  return select_unique(table_view(keys_, slots_, slot_kid_, starts_, order_, capacity_), probe, n, build_rows, out_src,
                       out_rows, s);
}

HashJoinProbe HashJoinTable::count(const KeyColumns& probe, uint64_t n, cudaStream_t s) const {
  return count_probe(table_view(keys_, slots_, slot_kid_, starts_, order_, capacity_), probe, n, s);
}

HashJoinProbe HashJoinTable::count(const ColumnProbeKey& probe, uint64_t n, cudaStream_t s) const {
  return count_probe(table_view(keys_, slots_, slot_kid_, starts_, order_, capacity_), probe, n, s);
}

void HashJoinTable::write(const HashJoinProbe& p, const uint32_t* build_rows, uint32_t* out_src, uint32_t* out_rows,
                          cudaStream_t s) const {
  if (p.n == 0 || p.pairs == 0) return;
  const Table t = table_view(keys_, slots_, slot_kid_, starts_, order_, capacity_);
  probe_write_kernel<<<gpu::grid_blocks(p.n), gpu::kThreads, 0, s>>>(p.slot.get<uint32_t>(), p.offsets.get<unsigned long long>(),
                                                          p.n, t, build_rows, out_src, out_rows);
  gpu::check_cuda(cudaGetLastError(), "hash join probe");
}

}  // namespace raydb::exec::cuda::general

namespace raydb::exec::cuda {
uint64_t hash_join_builds() { return general::builds().load(); }
}  // namespace raydb::exec::cuda
