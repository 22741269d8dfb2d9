#pragma once
// SQL filters as an RT scan query: the conjuncts of one table's filters that an RT
// scan index answers, as one boolean ScanExpr over the index's columns. Each
// single-column subtree (compare, BETWEEN, IN, LIKE and AND/OR/NOT of them) compiles
// through ColumnPredicate, so constants map exactly into the stored domain as for the
// other index paths; AND/OR/NOT across columns become the ScanExpr's nodes. NULL never
// matches: a compiled subtree's value set holds only the values where it is TRUE, and
// NOT over it complements within non-NULL rows (both hold 2-valued logic on non-NULL
// values); a subtree that does not compile (NULL constants, other tables, DOUBLE,
// expressions) leaves its conjunct to the ordinary filters.
#include <optional>
#include <vector>

#include "access/rt_scan/scan_types.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec {

struct ScanFilter {
  access::rt_scan::ScanExpr expr;     // over index positions
  std::vector<plan::ExprPtr> covered;  // the conjuncts it answers, in filter order
};

// `columns`: the table columns of the index, in index order. nullopt when no conjunct
// of `filters` (table `table`'s) is answered by the index.
std::optional<ScanFilter> scan_filter_for(const std::vector<plan::ExprPtr>& filters, const plan::LogicalQuery& q,
                                          int table, const std::vector<int>& columns);

}  // namespace raydb::exec
