// raydb describe: tables, row counts and per-column type, min/max, dictionary size
// and bytes, as an aligned text table.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "common/error.h"
#include "storage/persist/database_directory.h"

namespace raydb::cli {

namespace {

// A value for a one-line cell: control characters as '?', long text cut.
std::string cell(std::string s) {
  for (auto& c : s)
    if (static_cast<unsigned char>(c) < 0x20) c = '?';
  if (s.size() > 32) s = s.substr(0, 29) + "...";
  return s;
}

std::string bound(const Column& col, bool max) {
  const ColumnStats& s = col.stats();
  if (col.size() == 0) return "-";
  switch (col.type().id) {
    case TypeId::kDouble: return Value::float64(max ? s.max_d : s.min_d).to_string();
    case TypeId::kVarchar: return cell(std::string(col.dictionary()->at(uint32_t(max ? s.max : s.min))));
    case TypeId::kInteger: return Value::integer(int32_t(max ? s.max : s.min)).to_string();
    case TypeId::kBigint: return Value::bigint(max ? s.max : s.min).to_string();
    case TypeId::kDecimal:
      return Value::decimal(max ? s.max : s.min, col.type().precision, col.type().scale).to_string();
    case TypeId::kDate: return Value::date(int32_t(max ? s.max : s.min)).to_string();
    default: return "?";
  }
}

void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (auto& r : rows)
    for (size_t i = 0; i < r.size(); i++) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], r[i].size());
    }
  for (auto& r : rows) {
    std::string line = " ";
    for (size_t i = 0; i < r.size(); i++) {
      line += ' ';
      line += r[i];
      if (i + 1 < r.size()) line.append(width[i] - r[i].size() + 1, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
}

void describe_table(const Table& t) {
  uint64_t total = 0;
  std::vector<std::vector<std::string>> rows{
      {"column", "type", "min", "max", "dictionary", "bytes", "dictionary bytes"}};
  for (auto& c : t.columns()) {
    uint64_t bytes = c->size() * uint64_t(c->type().physical_width());
    uint64_t dict_bytes = 0;
    std::string dict = "-";
    if (const Dictionary* d = c->dictionary()) {
      dict_bytes = d->offsets().size() * 8 + d->chars().size();
      dict = std::to_string(d->size()) + " entries";
    }
    total += bytes + dict_bytes;
    rows.push_back({c->name(), c->type().to_string(), bound(*c, false), bound(*c, true), dict, std::to_string(bytes),
                    c->dictionary() ? std::to_string(dict_bytes) : "-"});
  }
  std::printf("table %s: %llu rows, %zu columns, %llu bytes\n", t.name().c_str(), (unsigned long long)t.row_count(),
              t.column_count(), (unsigned long long)total);
  print_table(rows);
}

}  // namespace

void register_describe(CLI::App& app) {
  struct Args {
    std::string db, table;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("describe", "Show the tables of a database: rows, columns, statistics, sizes");
  cmd->add_option("--db", args->db, "database directory")->required();
  cmd->add_option("--table", args->table, "only this table");
  cmd->callback([args] {
    auto db = DatabaseDirectory::open(args->db);
    if (!args->table.empty()) {
      TablePtr t = db->table(args->table);
      if (!t) fail(ErrorKind::kCatalog, "table {} does not exist in {}", args->table, args->db);
      describe_table(*t);
      return;
    }
    auto names = db->table_names();
    std::printf("database %s: %zu table%s\n", args->db.c_str(), names.size(), names.size() == 1 ? "" : "s");
    for (auto& n : names) describe_table(*db->table(n));
  });
}

}  // namespace raydb::cli
