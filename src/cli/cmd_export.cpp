// raydb export: one table to a CSV file (written to a temporary file, then renamed).
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "common/error.h"
#include "raydb/admin.h"

namespace raydb::cli {

void register_export(CLI::App& app) {
  struct Args {
    std::string db, table, query, csv, parquet, delimiter = ",";
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("export", "Write a table or a query's result as CSV (with a header line) or Parquet");
  cmd->add_option("--db", args->db, "database directory")->required();
  cmd->add_option("--table", args->table, "the table to write");
  cmd->add_option("--query", args->query, "the query whose result to write (SELECT, WITH or VALUES)");
  cmd->add_option("--csv", args->csv, "CSV output file (replaced atomically)");
  cmd->add_option("--parquet", args->parquet, "Parquet output file (replaced atomically)");
  cmd->add_option("--delimiter", args->delimiter, "CSV field delimiter, one character (default ',', \\t for tab)");
  cmd->callback([args] {
    if (args->table.empty() == args->query.empty()) fail(ErrorKind::kInvalidInput, "give one of --table and --query");
    if (args->csv.empty() == args->parquet.empty()) fail(ErrorKind::kInvalidInput, "give one of --csv and --parquet");
    char delimiter = args->delimiter == "\\t" || args->delimiter == "tab" ? '\t' : '\0';
    if (!delimiter) {
      if (args->delimiter.size() != 1)
        fail(ErrorKind::kInvalidInput, "--delimiter must be one character (or \\t), got '{}'", args->delimiter);
      delimiter = args->delimiter[0];
    }
    const bool parquet = !args->parquet.empty();
    const std::string& out = parquet ? args->parquet : args->csv;
    if (!args->query.empty()) {
      const admin::ExportSummary s = admin::export_query(args->db, args->query, out, parquet, delimiter);
      std::printf("%llu rows written to %s\n", (unsigned long long)s.rows, out.c_str());
      return;
    }
    if (parquet && !admin::find_table(args->db, args->table))
      fail(ErrorKind::kCatalog, "table {} does not exist in {}", args->table, args->db);
    const admin::ExportSummary s = parquet ? admin::export_query(args->db, "SELECT * FROM " + args->table, out, true)
                                           : admin::export_csv(args->db, args->table, out, delimiter);
    std::printf("%s: %llu rows written to %s\n", (parquet ? args->table : s.table).c_str(), (unsigned long long)s.rows,
                out.c_str());
  });
}

}  // namespace raydb::cli
