#pragma once
// GROUP BY a subset of the view's group attributes: view group -> output group, the
// output groups in lexicographic order of their codes (so a prefix of the view's
// group order needs no sort, and any subset comes out sorted ascending).
#include <cstdint>
#include <vector>

#include "access/rt_view/view_request.h"
#include "access/rt_view/view_rows.h"

namespace raydb::rtview {

struct OutputGroups {
  std::vector<uint32_t> map;                  // traced position (or view group) -> output group
  std::vector<std::vector<uint32_t>> tuples;  // output group -> codes per group_by attribute
};

// The output groups of the view groups in `traced` (null: every view group); `map`
// is indexed by position in `traced` (by view group when null).
OutputGroups output_groups(const ViewRows& v, const std::vector<uint32_t>& group_by,
                           const std::vector<uint32_t>* traced = nullptr);

// Turns per-output-group accumulators into result rows (groups without rows dropped,
// except the single group of a query without GROUP BY).
struct GroupAccumulators {
  std::vector<uint64_t> count;                 // per output group
  std::vector<std::vector<__int128>> sum;      // [aggregate][group] (kSum, kAvg)
  std::vector<std::vector<int64_t>> ext;       // [aggregate][group] (kMin, kMax)
};
void finish_result(const ViewRequest& r, const OutputGroups& og, const GroupAccumulators& acc, ViewResult& out);

}  // namespace raydb::rtview
