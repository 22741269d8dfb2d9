#pragma once
// A query result kept in memory as a table, so that an outer block reads it like a
// stored one: the rows of a WITH query, a derived table (FROM (SELECT ...)), a
// subquery or a set operation. Stored columns hold no NULL, so a nullable result
// column is kept as its values (a placeholder where NULL) plus a hidden INTEGER
// indicator column (1 = NULL) after the visible ones; the binder reads such a column
// as CASE WHEN indicator = 1 THEN NULL ELSE value END, which every backend evaluates
// NULL-aware. BOOLEAN columns are stored as INTEGER 0/1 and read as value <> 0.
#include <string>
#include <string_view>
#include <vector>

#include "raydb/types.h"
#include "raydb/value.h"
#include "storage/column.h"
#include "storage/table.h"

namespace raydb::sql {

struct TempTable {
  TablePtr table;
  // Per visible column: its SQL type and the index of its NULL indicator column (-1:
  // none). Both empty for a stored table (every column visible, as stored).
  std::vector<Type> types;
  std::vector<int> null_flag;
  // An outer join's rows (binder_outer_join.cpp): each visible column is column
  // plain[c] of the FROM item named qualifiers[c]; both empty otherwise.
  std::vector<std::string> qualifiers, plain;

  // A stored (or registered) table as the binder reads it: as it is when no column
  // holds a NULL; else its columns plus each NULL-holding column's indicator
  // (Column::null_indicator) as hidden columns, read like a result's nullable column.
  static TempTable stored(TablePtr t);
  bool is_stored() const { return types.empty() && null_flag.empty(); }
  size_t columns() const { return is_stored() ? table->column_count() : types.size(); }
  uint64_t rows() const { return table->row_count(); }
  const std::string& name(size_t c) const { return plain.empty() ? table->column(c).name() : plain[c]; }
  Type type(size_t c) const { return is_stored() ? table->column(c).type() : types[c]; }
  bool nullable(size_t c) const { return !is_stored() && null_flag[c] >= 0; }
  // A visible column by name (case-insensitive), or -1; -2 when the name is that of
  // columns of two joined items (ambiguous).
  int find_column(std::string_view name) const;
  // Of an outer join's rows: whether an item is named `qualifier`, and its column.
  bool has_qualifier(std::string_view qualifier) const;
  int find_qualified(std::string_view qualifier, std::string_view name) const;
  // The value at (row, c), NULL-aware and of type(c). For small results, not hot loops.
  Value value(uint64_t row, size_t c) const;
  // The same rows under another name (a WITH query read under an alias) and, when
  // given, other column names (`names` may be shorter than the columns).
  TempTable renamed(const std::string& table_name, const std::vector<std::string>& names) const;
};

// Appends a byte key of `v` to `out`: equal keys for values SQL's set operations and
// DISTINCT treat as equal within one column type (NULLs equal each other, -0.0 = 0.0,
// one NaN), so rows can be hashed by their keys.
void append_value_key(std::string& out, const Value& v);

// Builds a TempTable value by value.
class TempTableBuilder {
 public:
  // `what` names the table in errors ("derived table t", "WITH query x").
  TempTableBuilder(std::string table_name, const std::vector<std::string>& names, const std::vector<Type>& types,
                   std::string what);
  // Room for `rows` rows in each column appended to (not in columns taken whole).
  void reserve(uint64_t rows);
  void append(size_t column, const Value& v);  // NULL allowed
  // Whole columns at once (nulls[i] = 1: NULL; empty: none), for results whose type is
  // its own stored type: ints for INTEGER, BIGINT, DATE, BOOLEAN and DECIMAL(p <= 18).
  // False (nothing appended) for any other type: append value by value then.
  bool append_ints(size_t column, const int64_t* v, const std::vector<uint8_t>& nulls, size_t n);
  bool append_doubles(size_t column, const double* v, const std::vector<uint8_t>& nulls, size_t n);
  bool append_strings(size_t column, const std::string* v, const std::vector<uint8_t>& nulls, size_t n);
  // A whole column handed over (moved from) as the column's only rows, the first `n`
  // of `v` (nulls as above; NULL slots are overwritten with the placeholder 0): its
  // storage becomes the column's where the widths agree, else it is narrowed once in
  // parallel (storage/adopted_column.h). The same table as append_ints/append_doubles
  // would build. False (nothing taken, `v` untouched) for another type, a column that
  // has rows already, or too few values or flags: append then.
  bool take_ints(size_t column, std::vector<int64_t>&& v, std::vector<uint8_t>&& nulls, size_t n);
  bool take_doubles(size_t column, std::vector<double>&& v, std::vector<uint8_t>&& nulls, size_t n);
  // A HUGEINT or DECIMAL(p > 18) column (int128 values) narrowed once, in parallel, to
  // its stored 64-bit form. False (nothing taken, `nulls` untouched) for another type, a
  // stored scale that differs (that rescale rounds), a value out of the stored range
  // (append value by value then, which reports it), or as take_ints.
  bool take_huge(size_t column, const std::vector<__int128>& v, std::vector<uint8_t>&& nulls, size_t n);
  // A whole VARCHAR column coded at once (storage/string_column_build.h): the table
  // append_strings would build. False for another type or as take_ints.
  bool take_strings(size_t column, const std::string* v, std::vector<uint8_t>&& nulls, size_t n);
  // A whole column shared, not copied (a stored table's key column, a column built
  // whole): its buffer, dictionary and statistics become the column's, under the
  // column's name. False (nothing taken) unless its type is the column's stored type,
  // it holds no NULL, and the column has no rows yet.
  bool take_column(size_t column, const ColumnPtr& col);
  TempTable finish();

 private:
  std::string name_, what_;
  std::vector<Type> types_;
  std::vector<ColumnBuilder> columns_;
  std::vector<ColumnPtr> taken_;  // a column handed over whole, instead of columns_[c]'s rows
  std::vector<std::vector<uint8_t>> nulls_;
  std::vector<bool> any_null_;
  uint64_t reserve_rows_ = 0;
  std::vector<bool> reserved_;

  ColumnBuilder& appending(size_t column);  // reserved on first use

  bool holds_int64(size_t column) const;  // stored from an int64 value per row
  bool can_take(size_t column, size_t values, const std::vector<uint8_t>& nulls, size_t n) const;
  // Takes `nulls` as the column's flags and zeroes the NULL slots of `v`.
  template <typename T>
  void take_nulls(size_t column, T* v, std::vector<uint8_t>&& nulls, size_t n);
};

}  // namespace raydb::sql
