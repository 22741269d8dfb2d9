#pragma once
// In-memory tables and helpers for the SQL front-end tests.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/error.h"
#include "sql/sql.h"
#include "storage/loaders/ssb_schema.h"

namespace raydb::test {

// The five SSB tables (empty) plus two small tables with every stored type:
//   t(i INTEGER, b BIGINT, d DECIMAL(10,2), f DOUBLE, s VARCHAR, dt DATE)
//   u(i INTEGER, s VARCHAR, k INTEGER)
class TestCatalog {
 public:
  TestCatalog() {
    for (auto& ts : ssb::schema()) {
      std::vector<ColumnPtr> cols;
      for (auto& c : ts.columns) cols.push_back(ColumnBuilder(c.name, c.type).finish());
      add(std::make_shared<Table>(ts.name, cols));
    }
    add(make("t", {{"i", Type::integer()},
                   {"b", Type::bigint()},
                   {"d", Type::decimal(10, 2)},
                   {"f", Type::float64()},
                   {"s", Type::varchar()},
                   {"dt", Type::date()}}));
    add(make("u", {{"i", Type::integer()}, {"s", Type::varchar()}, {"k", Type::integer()}}));
  }

  sql::TableResolver resolver() const {
    return [this](std::string_view name) -> TablePtr {
      auto it = tables_.find(to_lower(name));
      return it == tables_.end() ? nullptr : it->second;
    };
  }

  sql::BoundStatement parse(const std::string& sql) const { return sql::parse_and_bind(sql, resolver()); }
  plan::LogicalQuery bind(const std::string& sql) const { return parse(sql).query; }

 private:
  static TablePtr make(const std::string& name, std::vector<ColumnDef> defs) {
    std::vector<ColumnPtr> cols;
    for (auto& d : defs) {
      ColumnBuilder b(d.name, d.type);
      if (d.type.id == TypeId::kVarchar) {
        b.append_string("x");
      } else if (d.type.id == TypeId::kDouble) {
        b.append_double(1.5);
      } else {
        b.append_int(1);
      }
      cols.push_back(b.finish());
    }
    return std::make_shared<Table>(name, cols);
  }
  void add(TablePtr t) { tables_[to_lower(t->name())] = std::move(t); }
  std::map<std::string, TablePtr> tables_;
};

// The error `sql` raises: kind and message; fails the test when nothing is thrown.
struct SqlError {
  ErrorKind kind = ErrorKind::kInternal;
  std::string message;
};

inline SqlError error_of(const TestCatalog& cat, const std::string& sql) {
  try {
    cat.parse(sql);
  } catch (const Error& e) {
    return {e.kind(), e.what()};
  }
  ADD_FAILURE() << "no error for: " << sql;
  return {ErrorKind::kInternal, "<no error>"};
}

}  // namespace raydb::test

// EXPECT_SQL_ERROR(catalog, sql, kind, substring): `sql` throws Error(kind) whose message contains substring.
#define EXPECT_SQL_ERROR(cat, sql, error_kind, substring)                                         \
  do {                                                                                            \
    auto err_ = ::raydb::test::error_of(cat, sql);                                                \
    EXPECT_EQ(err_.kind, error_kind) << sql << " -> " << err_.message;                            \
    EXPECT_NE(err_.message.find(substring), std::string::npos) << sql << " -> " << err_.message; \
    EXPECT_EQ(err_.message.find('\n'), std::string::npos) << "multi-line message: " << err_.message; \
  } while (0)
