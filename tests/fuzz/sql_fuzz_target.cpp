// libFuzzer target: the SQL front end (statement splitter, lexer, parser, binder with its
// constant folder) over arbitrary text, binding against the SSB schema plus a table with
// every stored type (tests/sql/sql_test_catalog.h's shape). Bad SQL must end in a clean
// raydb::Error; the splitter must give back statements that, rejoined, split the same.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "common/error.h"
#include "fuzz_support.h"
#include "sql/sql.h"
#include "sql/statement_splitter.h"
#include "storage/column.h"
#include "storage/loaders/ssb_schema.h"
#include "storage/table.h"

namespace {

using namespace raydb;

// One row per table so constant folding and type rules see real columns.
TablePtr one_row_table(const std::string& name, const std::vector<ColumnDef>& defs) {
  std::vector<ColumnPtr> cols;
  for (const auto& d : defs) {
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

const std::map<std::string, TablePtr>& catalog() {
  static const auto* tables = [] {
    auto* m = new std::map<std::string, TablePtr>;
    for (const auto& ts : ssb::schema()) {
      std::vector<ColumnDef> defs;
      for (const auto& c : ts.columns) defs.push_back({c.name, c.type});
      (*m)[ts.name] = one_row_table(ts.name, defs);
    }
    (*m)["t"] = one_row_table("t", {{"i", Type::integer()}, {"b", Type::bigint()}, {"d", Type::decimal(10, 2)},
                                    {"f", Type::float64()}, {"s", Type::varchar()}, {"dt", Type::date()}});
    return m;
  }();
  return *tables;
}

TablePtr resolve(std::string_view name) {
  std::string lower(name);
  for (auto& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  auto it = catalog().find(lower);
  return it == catalog().end() ? nullptr : it->second;
}

std::optional<std::string> view(std::string_view name) {
  if (name == "v" || name == "V") return std::string("select lo_orderkey, lo_revenue from lineorder");
  return std::nullopt;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  sql::SplitScript split;
  raydb::fuzz::runs_cleanly([&] { split = sql::split_statements(text); });
  // Splitting is stable: the pieces joined with ';' split into the same pieces.
  std::string joined;
  for (const auto& s : split.statements) joined += s + ";";
  sql::SplitScript again;
  raydb::fuzz::runs_cleanly([&] { again = sql::split_statements(joined); });
  if (again.statements != split.statements) raydb::fuzz::finding("split_statements is not stable");
  // The whole text as one statement, then each piece.
  raydb::fuzz::runs_cleanly([&] { sql::parse_and_bind(text, resolve, view); });
  for (const auto& s : split.statements) raydb::fuzz::runs_cleanly([&] { sql::parse_and_bind(s, resolve, view); });
  return 0;
}
