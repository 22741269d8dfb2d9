// raydb describe: tables, row counts and per-column type, NULLs, min/max, dictionary size
// and bytes, as an aligned text table, then the table's indexes.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "common/error.h"
#include "raydb/admin.h"

namespace raydb::cli {

namespace {

// A value for a one-line cell: control characters as '?', long text cut.
std::string cell(std::string s) {
  for (auto& c : s)
    if (static_cast<unsigned char>(c) < 0x20) c = '?';
  if (s.size() > 32) s = s.substr(0, 29) + "...";
  return s;
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

void print_description(const admin::TableInfo& t) {
  std::vector<std::vector<std::string>> rows{
      {"column", "type", "nulls", "min", "max", "dictionary", "bytes", "dictionary bytes"}};
  for (const admin::ColumnInfo& c : t.columns)
    rows.push_back({c.name, c.type, c.nullable ? std::to_string(c.nulls) : "not null", c.min ? cell(*c.min) : "-",
                    c.max ? cell(*c.max) : "-",
                    c.dictionary_entries ? std::to_string(*c.dictionary_entries) + " entries" : "-",
                    std::to_string(c.bytes), c.dictionary_bytes ? std::to_string(*c.dictionary_bytes) : "-"});
  std::printf("table %s: %llu rows, %zu columns, %llu bytes\n", t.name.c_str(), (unsigned long long)t.rows,
              t.columns.size(), (unsigned long long)t.bytes);
  print_table(rows);
  for (auto& ix : t.indexes) std::printf("  index %s\n", ix.c_str());
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
    if (!args->table.empty()) {
      auto t = admin::describe_table(args->db, args->table);
      if (!t) fail(ErrorKind::kCatalog, "table {} does not exist in {}", args->table, args->db);
      print_description(*t);
      return;
    }
    const std::vector<admin::TableInfo> tables = admin::describe_database(args->db);
    std::printf("database %s: %zu table%s\n", args->db.c_str(), tables.size(), tables.size() == 1 ? "" : "s");
    for (auto& t : tables) print_description(t);
    for (const admin::ViewInfo& v : admin::describe_views(args->db))
      std::printf("view %s: %s\n", v.name.c_str(), v.sql.c_str());
    // RT views: their encoded rows live in the database directory; the BVH is built
    // per process on first use (its time and memory are reported on stderr then).
    for (const RtViewInfo& v : describe_rt_views(args->db)) {
      std::string tables;
      for (const std::string& t : v.tables) tables += (tables.empty() ? "" : ", ") + t;
      std::printf("rt view %s: %llu rows over %s, %llu bytes of rows%s\n", v.name.c_str(), (unsigned long long)v.rows,
                  tables.c_str(), (unsigned long long)v.bytes, v.stale ? " (a base table changed: rebuilt on next use)" : "");
    }
  });
}

}  // namespace raydb::cli
