#pragma once
// The host part of a star query's result (star_run.h), without device objects: the
// present group ids with their accumulator fields, and how a group id splits into GROUP
// BY keys (per dimension a digit of dense codes mapped back to local codes, then the
// root keys' stored values). Pure host code, built in every configuration, so the
// decode runs (and is tested and timed: raydb bench decode) without a GPU.
//
// decode_star_groups turns it into the CPU's result rows, identical to what the CPU's
// direct aggregation gives: groups in ascending packed-key order, keys decoded,
// aggregates finalized, then HAVING / SELECT / ORDER BY (result_finisher.h).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/default_init_allocator.h"
#include "exec/core/order_statistics/order_statistics.h"
#include "exec/core/result_table.h"
#include "exec/cuda/star_plan.h"

namespace raydb::exec::cuda {

// A result's group ids (and the decode's id and key words) and its accumulator
// fields: FillVectors, written first by the parallel copies and fills that make them
// (read_staged_groups, the decode's steps), never zeroed on one thread before.
using GroupIds = FillVector<uint64_t>;
using GroupFields = std::vector<FillVector<unsigned long long>>;

// One dimension's digit of the group id: dense = (g / stride) % codes, local code =
// inv[dense], key k's digit = (local / mult[k]) % its key range.
struct GroupDimDigit {
  std::vector<int> group_keys;  // indices into LogicalQuery::group_keys
  std::vector<uint64_t> mult;   // per group key
  uint64_t stride = 1, codes = 1;
  const std::vector<int32_t>* inv = nullptr;  // dense rank -> local code (ascending)
};

// A root GROUP BY key's digit: stored = (g / stride) % radix, value = base + stored
// (offset form) or decode[stored] (dictionary form: sorted distinct values).
struct GroupRootDigit {
  uint64_t stride = 1, radix = 1;
  int64_t base = 0;
  const std::vector<int64_t>* decode = nullptr;  // null: offset form
  int64_t value(uint64_t stored) const { return decode ? (*decode)[stored] : int64_t(uint64_t(base) + stored); }
};

struct StarGroups {
  const plan::LogicalQuery* q = nullptr;
  const StarPlan* sp = nullptr;
  std::vector<GroupDimDigit> dims;    // the group id's low digits, in this order
  std::vector<GroupRootDigit> roots;  // then sp->root_group_keys' digits
  uint64_t R = 1;                     // group ids are below R
  // Accumulator fields: 0 counts rows; per aggregate its low (and high) word or -1.
  int nfields = 1;
  std::vector<int> lo_field, hi_field;
  GroupIds* present = nullptr;     // group ids with rows (count > 0), any order
  GroupFields* fields = nullptr;   // per field, per present group
  // Per aggregate (order statistics only), selected per group id; may be null.
  const std::vector<orderstat::OrderStats>* order_stats = nullptr;
  const std::vector<orderstat::KeyType>* os_key_types = nullptr;
  // HAVING terms (compile_group_keep) the compaction already applied on the device:
  // every present group passed them, so where they are the whole HAVING the host does
  // not test them again (9 ms per 1.3 M-group block of TPC-H Q21 at SF 20).
  int device_kept_terms = 0;
  // Only the group ids came back (fields_unread): *fields are empty and the aggregates'
  // vectors are empty stand-ins nothing reads.
  bool fields_left_on_device = false;
};

// Host milliseconds per decode step, in the order they ran (raydb bench decode).
struct DecodeSteps {
  std::vector<std::pair<std::string, double>> ms;
};

// The general decode (per-group packed words, a radix sort, AggregateStates) or the
// fast one, which falls back to the general pieces where it does not apply.
enum class DecodeMode { kFast, kGeneral };

// The groups decoded and finished into `result` (columns, rows). May reorder and
// shrink *present / *fields (HAVING decided early over many groups).
void decode_star_groups(StarGroups& g, ResultTable& result, DecodeMode mode = DecodeMode::kFast,
                        DecodeSteps* steps = nullptr);

// The compacted groups as the result staging holds them (star_results.cpp): nfields
// arrays of n accumulator words, then the n group ids. Copied into `present` and, when
// `with_fields`, `fields` (else nfields empty vectors), by parallel copies into memory
// nothing wrote before (a 1.3 M-group block: 10 MB of ids, 10 MB a field).
void read_staged_groups(const unsigned long long* staged, uint64_t n, int nfields, bool with_fields,
                        GroupIds& present, GroupFields& fields);

// k per group id (max(R, 1) entries) of a k-th value whose k is an expression of the
// other aggregates (count(*) / 2), evaluated over the groups with rows as HAVING would.
std::vector<int64_t> star_groups_k_per_group(const StarGroups& g, const plan::Expr& k_expr, uint64_t R);

}  // namespace raydb::exec::cuda
