#pragma once
// Conjuncts across a star query's tables (join residuals such as `d_year = 1993 or
// s_region = 'ASIA'`) as fact-table filters, so the fused star kernels run them: each
// part over one dimension becomes that dimension's membership set on the fact table's
// foreign key, `lo_orderdate IN (keys of the date rows where it holds)` (the kernels'
// set leaves: a bitmap over the key domain when dense, else a cuckoo set or sorted
// pairs), parts over the fact table stay as they are, and the AND/OR/NOT tree above
// them is kept: the fact kernel evaluates the tree over per-dimension membership bits.
//
// Exact because each dimension's join key is unique (the star kernels check it before
// they run and otherwise leave the query to the general path), a fact row that passes
// the probes joins exactly one row of each dimension, and the dimension parts compile
// only to NULL-free predicates (ColumnPredicate, FilterProgram), so every part is TRUE
// or FALSE and NOT is a plain complement.
#include <string>
#include <variant>
#include <vector>

#include "plan/logical/logical_query.h"

namespace raydb::exec::cuda {

// A dimension joined to the fact table on one key.
struct StarDimKey {
  int table = -1;          // LogicalQuery::tables index of the dimension
  int key_column = -1;     // its join key column
  plan::ExprPtr fact_fk;   // the fact table's foreign-key column (a kColumnRef)
};

// A residual over the fact table alone (ExprPtr), a constant for rows that pass the
// probes (true: always holds, false: never), or why it cannot be one.
using FactFilter = std::variant<plan::ExprPtr, bool, std::string>;
FactFilter fact_filter_of_residual(const plan::ExprPtr& residual, const plan::LogicalQuery& q, int root,
                                   const std::vector<StarDimKey>& dims);

}  // namespace raydb::exec::cuda
