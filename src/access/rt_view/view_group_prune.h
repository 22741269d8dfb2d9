#pragma once
// Group pruning: the view groups a request must trace. A filter attribute is decided
// by the group when every row of each view group has the same code for it (a group
// attribute itself, or one it determines: c_nation -> c_region, p_brand1 ->
// p_category). A predicate on such an attribute selects whole groups, so it prunes
// the group list before the launch instead of restricting Z or being checked per hit.
//
// Why this is exact: a row of a pruned group g fails the predicate (it has g's code,
// which is not allowed), so no qualifying row is in a pruned group. A ray of a traced
// group hits only rows of that group (view_grid.h, Y), all of which have the group's
// allowed code: dropping the predicate from Z and from the per-hit checks admits no
// row that fails it. The remaining predicates still restrict Z as before, so every
// qualifying row is hit once (view_grid.h) and no other row is.
#include <cstdint>
#include <vector>

#include "access/rt_view/view_layout.h"
#include "access/rt_view/view_request.h"
#include "access/rt_view/view_rows.h"

namespace raydb::rtview {

// Fills v.group_filter_codes from group_ids and filter_codes (parallel, one pass per
// filter attribute).
void derive_group_filter_codes(ViewRows& v);

struct GroupPlan {
  std::vector<uint32_t> traced;  // view groups with rays, ascending
  std::vector<bool> decided;     // per filter attribute: enforced by the pruning alone
  uint32_t decided_filters = 0;  // request filters the pruning enforces
};

// All groups and nothing decided when r.prune_groups is off or no filter is decided.
GroupPlan plan_groups(const ViewRows& v, const ViewRequest& r);

// The filters that restrict Z: the undecided ones, plus each decided one whose
// restriction does not add Z segments. Opening a decided digit above a restricted one
// multiplies the intervals (q4.3: s_nation and p_category open over c_region = 625
// intervals, kept: 1), opening one at the bottom merges them. Keeping a decided
// filter in Z is redundant, hence exact; its per-hit check is never needed (the
// pruning enforces it), so callers skip checks of decided attributes.
ViewRequest z_request(const ViewRows& v, const ViewLayout& L, const ViewRequest& r, const GroupPlan& g);

}  // namespace raydb::rtview
