#pragma once
// Synthetic star results (exec/cuda/star_groups.h) shaped like the CUDA backend's
// blocks: present group ids out of a direct group range (a root key's stored values,
// optionally times a dimension's dense codes), a count per group and the aggregates'
// accumulator words. For raydb bench decode and the decode's equality tests; no device.
#include <cstdint>
#include <vector>

#include "exec/cuda/star_groups.h"

namespace raydb::bench {

enum class SynthAgg { kCountStar, kCount, kSumInt, kSumWide, kSumDecimal, kAvg, kMin, kMax };

struct SynthShape {
  uint64_t groups = 1000;      // present groups (at most the range)
  uint64_t root_range = 1000;  // the root key's stored range; 0: no root key
  uint64_t dim_codes = 0;      // a dimension key's dense codes; 0: no dimension key
  uint64_t dim_local = 0;      // its local code range (>= dim_codes)
  bool dim_first = true;       // the dimension key is GROUP BY key 0 (the ids' digit order)
  bool dictionary_root = false;  // the root key in dictionary form (sorted distinct values)
  bool shuffled = true;        // ids in a random order, else ascending
  // Shuffled within windows of this many ids, the windows in order (a compaction by
  // atomics: blocks finish roughly in order); 0: one window.
  uint64_t window = 0;
  bool having = false;         // HAVING count(*) > 2
  bool having_more = false;    // with having: AND aggregate 1 > 0 (when there is one)
  bool having_pair = false;    // with having: AND aggregate 1 <> aggregate 2 (two of one type)
  std::vector<SynthAgg> aggs = {SynthAgg::kCountStar};
  uint64_t seed = 1;
};

// Owns what a StarGroups view points to.
struct SynthStarResult {
  plan::LogicalQuery q;
  exec::cuda::StarPlan sp;
  std::vector<int32_t> inv;      // the dimension's dense -> local codes
  std::vector<int64_t> decode;   // the root key's dictionary form
  exec::cuda::GroupIds present;
  exec::cuda::GroupFields fields;
  uint64_t R = 1;
  // A view over `present` and `fields` (copies of this result's, which decoding changes).
  exec::cuda::StarGroups view(exec::cuda::GroupIds* present, exec::cuda::GroupFields* fields) const;
};

SynthStarResult make_synth_star_result(const SynthShape& shape);

}  // namespace raydb::bench
