#pragma once
// ORDER BY <COUNT or exact integer SUM> [DESC] LIMIT k over many groups, decided on the
// device before any aggregate leaves it: the candidates exec/core/top_groups.h would
// keep (the groups not after the (offset + limit)-th, ties kept), found by a radix sort
// of one 128-bit key per group. Only the candidates' aggregates and keys then come back
// (TPC-H q10 groups 763 K customers at SF 20 and keeps 20: copying every group's sums
// back and ranking them on the host took 24 ms of its 34).
//
// Exact as the host pruning: same rule (no HAVING here), the key is the aggregate's
// exact value (128-bit SUM words, counts), NULL groups (SUM over no value) placed as the
// item's NULLS FIRST|LAST says. A SUM the CPU's finalize would reject (it leaves int128,
// or int64 for a BIGINT result) sends the query to the host path, which raises as the
// CPU does.
#include <cstdint>
#include <optional>
#include <vector>

#include "exec/cuda/general/general_query.h"
#include "exec/cuda/general/group_aggregate.h"
#include "exec/cuda/general/tuples.h"
#include "gpu/device_buffer.h"

namespace raydb::exec::cuda::general {

struct GroupPick {
  gpu::DeviceBuffer ids;           // candidate group ids, ascending
  std::vector<uint32_t> host_ids;  // the same on the host
  GroupSubset subset() const { return GroupSubset{ids.get<uint32_t>(), host_ids.data(), host_ids.size()}; }
};

// Whether the query's pruning can be decided so: prunable (top_groups.h), no HAVING, the
// first ORDER BY item a bare COUNT or a SUM over an exact 64-bit argument with an exact
// result, and no order statistic among the aggregates (those rank all groups at once).
bool device_pick_applies(const GeneralQuery& g);

// The candidates over `layout`'s groups; nullopt when pruning would keep half the groups
// or more, or a SUM needs the host's error (see above).
std::optional<GroupPick> device_top_groups(GeneralQuery& g, const Tuples& cur, const GroupLayout& layout);

}  // namespace raydb::exec::cuda::general
