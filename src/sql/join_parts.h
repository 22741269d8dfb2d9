#pragma once
// What the binder's join rewrites share (binder_outer_join.cpp, binder_group_join.cpp):
// the column names a statement writes, and the concatenation of materialized parts
// into one joined temporary table.
#include <set>
#include <string>

#include "sql/ast.h"
#include "sql/temp_table.h"

namespace raydb::sql {

// Every column name a statement writes, inner queries included (a superset of what
// a join's rows must keep); star: it selects * somewhere.
void statement_names(const SelectStatement& s, std::set<std::string>& names, bool& star);

// Appends column c of a part's rows to the joined table: integer-stored types as one
// array (a part may hold millions of rows: TPC-H Q13's customers), others value by value.
void append_part_column(TempTableBuilder& b, const TempTable& part, size_t c);

}  // namespace raydb::sql
