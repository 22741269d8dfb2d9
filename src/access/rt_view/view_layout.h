#pragma once
// The encoding of an RT view (the budget check): which filter attributes become Z
// digits (mixed-radix "bijection" code, most significant first) and which are checked
// by the hit program from code arrays; which aggregate inputs are bit-packed into the
// X word and which live in side arrays; how many ray lanes spread the rows of a group.
// Float exactness of the resulting coordinates: rt/mapping/view_grid.h.
#include <cstdint>
#include <string>
#include <vector>

#include "access/rt_view/view_rows.h"

namespace raydb::rtview {

enum class ZMode {
  kEncode,  // as many filter attributes as fit in Z (product of domains < 2^23)
  kSplit,   // only the first filter attribute in Z, the rest checked per hit (RTCUDB fig. 15-16)
};

// One primitive per distinct (group, filter codes) tuple (view_primitives.h) or per row.
enum class MergeMode {
  // merged when that removes at least a quarter of the primitives (and sums fit in 64
  // bits): a triangle costs about 100 bytes of compacted BVH, a merged one 8 + 24 per
  // input of arrays against 0-8 per input per row unmerged, so at 3/4 the merged view
  // is no larger and traces fewer hits
  kAuto,
  kAlways,  // merged unless a sum does not fit (tests: every tuple, however few rows share it)
  kNever,   // one primitive per row (RTCUDB; tests)
};

struct LayoutOptions {
  ZMode z_mode = ZMode::kEncode;
  uint32_t z_limit = 1u << 23;  // Z codes below this (<= mapping::kViewZLimit; tests lower it)
  uint32_t x_bits = 16;         // packed aggregate bits (<= mapping::kViewXBitsMax)
  uint32_t target_rays = 1u << 16;  // lanes * groups per Z segment to aim for (parallelism)
  MergeMode merge = MergeMode::kAuto;
};

struct InputPlacement {
  bool in_x = false;   // bit-packed into the X word
  uint32_t shift = 0;  // in_x: bit offset
  uint32_t bits = 0;   // in_x: width (0: constant input)
  bool u32 = false;    // side array of value - base as uint32 (else int64 values)
  int64_t base = 0;    // the input's minimum
};

struct ViewLayout {
  std::vector<uint32_t> z_attrs;   // filter attributes in Z, most significant first
  std::vector<uint32_t> z_div;     // digit multiplier of each (code = (z / div) % radix)
  uint32_t z_size = 1;             // product of their domains
  std::vector<uint32_t> residual;  // filter attributes kept as per-row code arrays
  std::vector<InputPlacement> inputs;
  uint32_t x_bits = 0;      // bits of the packed word: lane width D = 2^x_bits
  uint32_t lanes = 1;       // L
  bool merged = false;      // primitives are merged tuples (view_primitives.h), inputs in per-primitive arrays
  uint64_t primitives = 0;  // triangles: distinct tuples when merged, else rows
  std::string describe() const;
};

ViewLayout plan_layout(const ViewRows& v, const LayoutOptions& o);

// The digit order RTCUDB's heuristic suggests for a workload: attributes whose
// predicates are narrowest (smallest expected allowed fraction of their domain) first,
// those usually left open or wide last, so a query's intervals stay few. Returns a
// permutation of the filter attributes (apply it to ViewDefinition::filters).
std::vector<uint32_t> choose_digit_order(const std::vector<double>& expected_allowed_fraction);

}  // namespace raydb::rtview
