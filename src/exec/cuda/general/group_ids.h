#pragma once
// GROUP BY on the general CUDA path: each row's group id. Two ways, same ids:
//   hash (default): an open-addressing table in device memory (hash_group.cu); only
//     the distinct keys are sorted, to number the groups;
//   sort (setting cuda_group = sort, kept so one device run can compare both): stable LSD
//     radix passes over every row (sort_group.cpp).
// Either way groups are numbered in the order of sort_rows_by_group_keys (per key, first
// key most significant: NULL flag, then high word of 128-bit keys, then the low word as
// int64), which is injective on distinct keys, so both number the same groups alike.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "gpu/device_buffer.h"

namespace raydb::exec::cuda::general {

// One GROUP BY key: program results per row (DOUBLE keys already normalized by
// launch_normalize_doubles, so equal keys have equal words).
struct GroupKeyColumn {
  const __int128* values = nullptr;
  const uint8_t* nulls = nullptr;
  bool huge = false;      // 128-bit values (a radix pass on the high word too)
  bool nullable = false;  // may hold NULLs (a radix pass on the NULL flag)
};

struct GroupIds {
  uint64_t groups = 0;
  gpu::DeviceBuffer gid;    // per row, its group
  gpu::DeviceBuffer first;  // per group, a row holding its key
  gpu::DeviceBuffer order;  // positions -> rows, each group's rows contiguous and ascending; empty when not asked for
};

// Reorders the row ids perm[0..m) by their keys (stable LSD radix passes, the order
// described above).
void sort_rows_by_group_keys(const std::vector<GroupKeyColumn>& keys, uint32_t* perm, uint64_t m, cudaStream_t s);

// n > 0 rows, 1..kMaxKeyColumns keys. The sort path always yields `order`; the hash
// path only when need_order (a CUB radix sort of (gid, row) over the gid bits).
GroupIds sort_group_ids(const std::vector<GroupKeyColumn>& keys, uint64_t n, cudaStream_t s);
GroupIds hash_group_ids(const std::vector<GroupKeyColumn>& keys, uint64_t n, bool need_order, cudaStream_t s);

// GROUP BY queries grouped through the hash table since the process started.
uint64_t hash_grouped_count();

}  // namespace raydb::exec::cuda::general
