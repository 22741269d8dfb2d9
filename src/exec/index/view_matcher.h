#pragma once
// Whether an RT view answers a query, and the view request that does: the query's
// tables are the view's fact table and some of its dimensions, joined on the view's
// keys; every other conjunct is a single-column predicate (compare, BETWEEN, IN, OR
// of those...) on a filter attribute, compiled to code intervals; the GROUP BY keys
// are group attributes; the aggregates are COUNT, or SUM/AVG/MIN/MAX of an aggregate
// input (the same expression). Anything else is a one-line reason.
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "access/rt_view/view_request.h"
#include "exec/index/view_catalog.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec {

struct ViewMatch {
  std::shared_ptr<const CatalogView> view;
  std::shared_ptr<const rtview::ViewRows> rows;
  rtview::ViewRequest request;  // group_by in the order of the query's GROUP BY keys
  // Per query aggregate: the request aggregate it reads (COUNT reads the group count).
  std::vector<int> request_agg;
};

// A ViewMatch, or why the view does not answer the query.
std::variant<ViewMatch, std::string> match_view(const plan::LogicalQuery& q, const std::shared_ptr<const CatalogView>& view);

}  // namespace raydb::exec
