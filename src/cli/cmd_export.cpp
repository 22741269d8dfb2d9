// raydb export: one table to a CSV file (written to a temporary file, then renamed).
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "common/error.h"
#include "raydb/admin.h"

namespace raydb::cli {

void register_export(CLI::App& app) {
  struct Args {
    std::string db, table, csv, delimiter = ",";
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("export", "Write a table as CSV with a header line");
  cmd->add_option("--db", args->db, "database directory")->required();
  cmd->add_option("--table", args->table, "table name")->required();
  cmd->add_option("--csv", args->csv, "output file (replaced atomically)")->required();
  cmd->add_option("--delimiter", args->delimiter, "field delimiter, one character (default ',', \\t for tab)");
  cmd->callback([args] {
    char delimiter = args->delimiter == "\\t" || args->delimiter == "tab" ? '\t' : '\0';
    if (!delimiter) {
      if (args->delimiter.size() != 1)
        fail(ErrorKind::kInvalidInput, "--delimiter must be one character (or \\t), got '{}'", args->delimiter);
      delimiter = args->delimiter[0];
    }
    const admin::ExportSummary s = admin::export_csv(args->db, args->table, args->csv, delimiter);
    std::printf("%s: %llu rows written to %s\n", s.table.c_str(), (unsigned long long)s.rows, args->csv.c_str());
  });
}

}  // namespace raydb::cli
