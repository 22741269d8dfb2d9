// Storage columns from generated arrays, and tables in schema order.
#include <algorithm>

#include "common/error.h"
#include "gen/ssb/columns.h"
#include "gen/tpch/tables.h"
#include "raydb/types.h"
#include "storage/loaders/tpch_schema.h"

namespace raydb::tpch {

int32_t start_date() { return days_from_civil(1992, 1, 1); }
int32_t end_date() { return days_from_civil(1998, 12, 31); }
int32_t current_date() { return days_from_civil(1995, 6, 17); }

int32_t part_supplier(int64_t partkey, int i, int64_t suppliers) {
  return int32_t((partkey + i * (suppliers / 4 + (partkey - 1) / suppliers)) % suppliers + 1);
}

int64_t retail_price_cents(int64_t partkey) { return 90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000); }

ColumnPtr int_column(std::string name, const std::vector<int32_t>& values) {
  return make_column(std::move(name), Type::integer(), values);
}

ColumnPtr money_column(std::string name, const std::vector<int64_t>& cents) {
  return make_column(std::move(name), Type::decimal(15, 2), cents);
}

ColumnPtr date_column(std::string name, const std::vector<int32_t>& days) {
  return make_column(std::move(name), Type::date(), days);
}

ColumnPtr text_column(std::string name, const std::vector<std::string>& values) {
  return ssb::varchar_from_strings(std::move(name), values);
}

TablePtr assemble_table(const std::string& table, std::vector<ColumnPtr> columns) {
  const ssb::TableSchema& schema = table_schema(table);
  std::vector<ColumnPtr> ordered;
  for (const ColumnDef& def : schema.columns) {
    auto it = std::find_if(columns.begin(), columns.end(), [&](const ColumnPtr& c) { return c && c->name() == def.name; });
    if (it == columns.end()) fail(ErrorKind::kInternal, "TPC-H generator produced no column {}.{}", table, def.name);
    if (!((*it)->type() == def.type))
      fail(ErrorKind::kInternal, "TPC-H generator made {}.{} {}, the schema says {}", table, def.name,
           (*it)->type().to_string(), def.type.to_string());
    ordered.push_back(std::move(*it));
    *it = nullptr;
  }
  for (auto& c : columns)
    if (c) fail(ErrorKind::kInternal, "TPC-H generator produced column {}.{} that the schema lacks", table, c->name());
  return std::make_shared<const Table>(schema.name, std::move(ordered));
}

}  // namespace raydb::tpch
