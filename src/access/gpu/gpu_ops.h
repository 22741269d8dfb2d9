#pragma once
// The device work of the GPU-resident indexes (gpu_ops.cu, nvcc, C++17): CUB radix
// sorts, duplicate compression, cgRX bucket boxes, probe ordering, and the lookup
// kernels of the GPU sorted array and hash table. Plain pointers only, so the C++20
// index classes (g++) call them without seeing CUDA device code. Every function runs
// on the legacy default stream and returns when its results are complete; CUDA failures
// throw raydb::Error (kOutOfMemory for allocations).
#include <cstddef>
#include <cstdint>

#include "rt/mapping/bucket_lookup.h"

namespace raydb::access::gpu {

// Largest key of n (0 for n == 0).
uint64_t max_key(const uint64_t* keys, size_t n);
// Bits a radix sort of keys <= max needs.
int key_bits(uint64_t max);

// Sorts (keys[i], i) by key (stable: ties by i): sorted keys and the permutation.
void sort_with_index(const uint64_t* keys, size_t n, uint64_t* sorted_keys, uint32_t* perm);
// dst[i] = src[idx[i]].
void gather_i64(const int64_t* src, const uint32_t* idx, int64_t* dst, size_t n);
// Distinct keys of a sorted array.
size_t count_distinct(const uint64_t* sorted, size_t n);
// Writes the distinct keys and the first position of each (plus n at the end).
void compress_units(const uint64_t* sorted, size_t n, uint64_t* unit_keys, uint32_t* unit_starts, size_t units);

// cgRX interval buckets (rt/mapping/bucket_grid.h): box count of every bucket, as an
// exclusive prefix sum in offsets[0..buckets]; returns the total.
uint32_t bucket_box_offsets(const uint64_t* unit_keys, uint32_t units, uint32_t bucket_size, uint32_t* offsets);
// Writes the boxes (6 floats each, OptixAabb / rt::Aabb layout) and their buckets.
void write_bucket_boxes(const uint64_t* unit_keys, uint32_t units, uint32_t bucket_size, const uint32_t* offsets,
                        rt::Aabb* boxes, uint32_t* prim_bucket);

// The last key of every bucket (BucketTable::bucket_last).
void bucket_lasts(const uint64_t* unit_keys, uint32_t units, uint32_t bucket_size, uint64_t* out);

// Launch order of lookups sorted by lower bound (sorted probes).
void probe_order(const uint64_t* bounds, uint32_t n, uint32_t* order);

// Exclusive prefix sum of n counts into offsets[0..n]; returns the total.
uint64_t exclusive_sum(const uint64_t* counts, size_t n, uint64_t* offsets);

// Lookup passes: p.t.unit_keys / p.t.units are the sorted units; p.t's bucket fields
// are unused. Return the kernel's milliseconds (CUDA events).
float sorted_array_lookup(const rt::mapping::BucketLookupParams& p);

// Open-addressing hash table of units (linear probing, capacity a power of two).
struct HashSlot {
  uint64_t key;
  uint32_t unit;  // kEmptySlot: free
  uint32_t pad;
};
inline constexpr uint32_t kEmptySlot = 0xFFFFFFFFu;
void hash_build(const uint64_t* unit_keys, uint32_t units, HashSlot* slots, uint64_t capacity);
// Point lookups only (a range lookup reports nothing and sets kErrorBadHit).
float hash_lookup(const HashSlot* slots, uint64_t capacity, const rt::mapping::BucketLookupParams& p);

// Throws Error with the CUDA error of the last call, if any (one line).
void check(const char* what);

}  // namespace raydb::access::gpu
