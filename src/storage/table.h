#pragma once
// A table: a name and equally long columns. Immutable once built; a load builds a
// new Table and the catalog swaps it in atomically.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/column.h"

namespace raydb {

struct ColumnDef {
  std::string name;
  Type type;
  bool nullable = false;  // the loaders' fixed schemas (SSB, TPC-H) are NOT NULL
};

// Parses "name TYPE [NOT NULL | NULL], ..." (types as Type::parse). Columns are
// nullable unless declared NOT NULL, as in SQL. Throws kInvalidInput with the
// offending entry on malformed text, duplicate or empty names.
std::vector<ColumnDef> parse_schema(std::string_view text);

class Table {
 public:
  Table(std::string name, std::vector<ColumnPtr> columns);  // checks equal lengths, unique names

  const std::string& name() const { return name_; }
  uint64_t row_count() const { return rows_; }
  size_t column_count() const { return columns_.size(); }
  const std::vector<ColumnPtr>& columns() const { return columns_; }
  const Column& column(size_t i) const { return *columns_[i]; }
  const ColumnPtr& column_ptr(size_t i) const { return columns_[i]; }
  // Index of the column named `name` (case-insensitive), or -1.
  int find_column(std::string_view name) const;
  std::vector<ColumnDef> schema() const;
  // The columns the rows are sorted by (ascending, NULLs first), as load's --sort-by
  // ordered them and the catalog records; empty when no order is known. Set before
  // the table is shared.
  const std::vector<std::string>& sort_key() const { return sort_key_; }
  void set_sort_key(std::vector<std::string> key) { sort_key_ = std::move(key); }

 private:
  std::string name_;
  std::vector<ColumnPtr> columns_;
  uint64_t rows_ = 0;
  std::vector<std::string> sort_key_;
};

using TablePtr = std::shared_ptr<const Table>;

// Case-insensitive ASCII comparison for identifiers.
bool iequals(std::string_view a, std::string_view b);
std::string to_lower(std::string_view s);

}  // namespace raydb
