#pragma once
// `raydb advise rt-views`: a small set of RT views covering a workload. Each star
// query of the workload needs a view over its fact table and dimensions with its
// filter columns, GROUP BY columns and aggregate arguments; queries over the same
// fact table and the same dimensions share one view (the union of their roles), since
// merging different dimension sets would multiply the group tuples (and the rays).
// Only buildable views are proposed: a query joins a view of its family only while
// the view's group tuples stay below the limit (an upper bound: the product over the
// tables of the distinct tuples of their group columns, at most the fact rows) and its
// aggregate inputs fit the launch; otherwise it starts a view of its own, and a query
// whose own view would be too large is reported as not covered, with the reason.
// The Z digit order follows RTCUDB's heuristic: attributes the workload restricts
// most narrowly first (view_layout.h choose_digit_order).
#include <string>
#include <vector>

#include "access/rt_view/view_definition.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec {

struct ViewAdvice {
  rtview::ViewDefinition view;
  std::vector<std::string> queries;  // the workload's queries it covers (their labels)
  uint64_t rows = 0;                 // upper bound: the fact table's rows
  uint64_t row_bytes = 0;            // view rows in memory and on disk: rows x (4 per filter + 4 + 8 per input)
  uint64_t bvh_bytes = 0;            // estimate of the BVH (one triangle per row, ~96 bytes on Embree)
  uint64_t group_bound = 0;          // upper bound of its group tuples (checked against the limit)
};

struct AdviseLimits {
  uint64_t group_limit = 0;     // group tuples a view takes (0: rt::mapping::kViewGroupLimit)
  uint64_t max_view_bytes = 0;  // rows + BVH estimate per view (0: no limit)
};

struct AdviseResult {
  std::vector<ViewAdvice> views;
  std::vector<std::string> not_covered;  // "label: reason" of queries no buildable view serves
};

class ViewAdvisor {
 public:
  explicit ViewAdvisor(AdviseLimits limits = {});
  ~ViewAdvisor();
  // Adds one query; returns "" when its shape suits a view, else why not (one line).
  std::string add(const std::string& label, const plan::LogicalQuery& q);
  // The proposed views, named `<prefix>1`, `<prefix>2`, ... in order of first use, and
  // the added queries that no view within the limits serves.
  AdviseResult propose(const std::string& prefix) const;

 private:
  struct Need;
  struct Group;
  bool fits(const Group& g, const Need& n, std::string* why) const;
  ViewAdvice advice_of(const Group& g, const std::string& name) const;
  AdviseLimits limits_;
  std::vector<Need> needs_;
};

// An aggregate input as CREATE RT VIEW takes it (columns unqualified; parenthesized).
std::string input_sql(const rtview::AggExpr& e);
// The CREATE RT VIEW statement of a view definition.
std::string create_rt_view_sql(const rtview::ViewDefinition& d);

}  // namespace raydb::exec
