#pragma once
// `raydb advise rt-views`: a small set of RT views covering a workload. Each star
// query of the workload needs a view over its fact table and dimensions with its
// filter columns, GROUP BY columns and aggregate arguments; queries over the same
// fact table and the same dimensions share one view (the union of their roles), since
// merging different dimension sets would multiply the group tuples (and the rays).
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
};

class ViewAdvisor {
 public:
  // Adds one query; returns "" when a view can serve it, else why not (one line).
  std::string add(const std::string& label, const plan::LogicalQuery& q);
  // The proposed views, named `<prefix>1`, `<prefix>2`, ... in order of first use.
  std::vector<ViewAdvice> propose(const std::string& prefix) const;

 private:
  struct Need;
  struct Group {
    std::string fact;
    std::vector<rtview::ViewJoin> joins;  // sorted by dimension
    uint64_t fact_rows = 0;
    std::vector<rtview::AttrRef> filters;
    std::vector<std::vector<double>> fractions;  // per filter: allowed fraction in each query (absent: 1)
    std::vector<rtview::AttrRef> groups;
    std::vector<rtview::AggInputDef> inputs;
    std::vector<std::string> queries;
  };
  std::vector<Group> groups_;
};

// An aggregate input as CREATE RT VIEW takes it (columns unqualified; parenthesized).
std::string input_sql(const rtview::AggExpr& e);
// The CREATE RT VIEW statement of a view definition.
std::string create_rt_view_sql(const rtview::ViewDefinition& d);

}  // namespace raydb::exec
