#pragma once
// A query against an RT view, in codes (view_rows.h AttrDomain turns values into
// codes): allowed code intervals per filter attribute (ranges, equality, IN lists and
// ORs are several intervals), the group attributes to group by, the aggregates. And
// its result: one row per group that has rows (one row always without GROUP BY),
// sorted by the group codes, i.e. by the group values ascending.
#include <cstdint>
#include <string>
#include <vector>

#include "raydb/value.h"

namespace raydb::rtview {

struct CodeInterval {
  uint32_t lo, hi;  // inclusive; lo > hi is empty
};

struct ViewFilter {
  uint32_t attr;                       // filter attribute of the view
  std::vector<CodeInterval> allowed;   // their union; empty list: nothing qualifies
};

enum class AggKind { kCount, kSum, kAvg, kMin, kMax };

struct ViewAggregate {
  AggKind kind = AggKind::kCount;
  uint32_t input = 0;  // aggregate input of the view (not used by kCount)
};

struct ViewRequest {
  std::vector<ViewFilter> filters;  // attributes not listed are unrestricted
  std::vector<uint32_t> group_by;   // group attributes of the view, in output order
  std::vector<ViewAggregate> aggregates;
  // Execution switches.
  uint32_t max_intervals = 4096;  // more Z intervals than this: low digits are checked per hit instead
  bool per_hit_atomics = false;   // RTCUDB's per-hit accumulation (for comparison); default per-ray partials
  bool check_duplicates = false;  // keep a bit per primitive and count repeated hits (tests)
  bool prune_groups = true;       // filters decided by the group prune the traced groups (view_group_prune.h)
};

// One aggregate value: SUM is exact in 128 bits; AVG is sum / count as double; MIN,
// MAX and COUNT are integers. null: SUM/AVG/MIN/MAX over no rows.
struct AggValue {
  bool null = false;
  __int128 i = 0;
  double d = 0;
};

struct ViewResultRow {
  std::vector<uint32_t> group_codes;  // per group_by attribute
  uint64_t count = 0;                 // rows of the group
  std::vector<AggValue> values;       // per requested aggregate
};

struct ViewRunStats {
  uint64_t segments = 0;     // Z ray segments
  uint64_t rays = 0;         // rays launched (segments x groups traced x lanes)
  uint32_t groups_traced = 0;    // view groups with rays (after pruning)
  uint32_t decided_filters = 0;  // filters enforced by group pruning alone
  uint64_t hits = 0;         // primitives aggregated (rows, or merged tuples: view_primitives.h)
  uint64_t flushes = 0;      // accumulator flushes (atomic adds of partials): rays with hits, or hits per-hit
  uint64_t duplicates = 0;   // check_duplicates: repeated hits of one primitive (0 by view_grid.h)
  uint32_t z_checks = 0;     // Z digits checked per hit (interval cap)
  uint32_t code_checks = 0;  // residual attributes checked per hit from code arrays
  double launch_ms = 0;
  double total_ms = 0;
  std::string plan;          // intervals, grid, checks: for EXPLAIN
};

struct ViewResult {
  std::vector<uint32_t> group_by;
  std::vector<ViewResultRow> rows;
  ViewRunStats stats;
};

}  // namespace raydb::rtview
