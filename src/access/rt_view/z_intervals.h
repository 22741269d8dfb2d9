#pragma once
// A request's filters -> the Z intervals of the view's mixed-radix code, plus the
// digits whose restriction the intervals leave to the hit program (when the product of
// the allowed values of low digits would give more intervals than the cap).
#include <cstdint>
#include <vector>

#include "access/rt_view/view_layout.h"
#include "access/rt_view/view_request.h"

namespace raydb::rtview {

struct ZPlan {
  bool empty = false;                        // some filter allows nothing: no rows qualify
  std::vector<CodeInterval> intervals;       // sorted, disjoint, not adjacent
  std::vector<uint32_t> checked_digits;      // indices into layout.z_attrs checked per hit
  std::vector<std::vector<CodeInterval>> allowed;  // normalized allowed codes per filter attribute
};

// Sorted, merged (adjacent intervals joined), clamped to [0, size).
std::vector<CodeInterval> normalize_intervals(std::vector<CodeInterval> v, uint32_t size);

ZPlan plan_z(const ViewRows& v, const ViewLayout& L, const ViewRequest& r);

// Cuts intervals into ray segments of at most max_len codes (view_grid.h: t < 2^21).
std::vector<CodeInterval> cut_segments(const std::vector<CodeInterval>& iv, uint32_t max_len);

}  // namespace raydb::rtview
