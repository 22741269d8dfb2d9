#pragma once
// The GPU radix select (most significant digit first) behind kRadix with per-group
// histograms: up to 11-bit digits, slots of a group with equal prefixes sharing one
// histogram, leading bits skipped when the input promises a key range, and the rows
// still in play copied out once they fit a buffer so later passes read only them.
// Passes, choices and the switch to the copied rows are queued on one stream with no
// host round trip; the host waits once, for the answers.
#include <cstdint>
#include <vector>

#include "exec/core/order_statistics/column_input.h"

namespace raydb::exec::cuda::ops {

struct RadixStats {
  int passes = 0;        // histogram passes launched
  int full_passes = -1;  // of them, over every row (-1: not measured)
  int plain_passes = 0;  // of them, on the plain (16-byte-load) pass kernel
};

// ranks: groups * m entries (kNoRank for none), every one below its group's count.
// Returns the key at each rank (0 for kNoRank). Device-resident input. The plain pass
// kernel serves integer keys with or without a WHERE mask, NULLs and up to 64 groups
// when its histograms fit shared memory; plain_allowed = false keeps every pass on
// the general kernel (tests and benchmarks compare the two).
std::vector<uint64_t> gpu_radix_select(const orderstat::ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m,
                                       RadixStats* stats = nullptr, bool plain_allowed = true);

}  // namespace raydb::exec::cuda::ops
