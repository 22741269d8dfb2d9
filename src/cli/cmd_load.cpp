// raydb load ssb | tpch | csv: parse input files into memory, then commit atomically.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "common/error.h"
#include "raydb/admin.h"

namespace raydb::cli {

namespace {

char parse_delimiter(const std::string& text) {
  if (text == "\\t" || text == "tab" || text == "TAB") return '\t';
  if (text.size() != 1) fail(ErrorKind::kInvalidInput, "--delimiter must be one character (or \\t), got '{}'", text);
  char c = text[0];
  if (c == '"' || c == '\n' || c == '\r') fail(ErrorKind::kInvalidInput, "--delimiter cannot be a quote or a newline");
  return c;
}

}  // namespace

void register_load(CLI::App& app) {
  CLI::App* load = app.add_subcommand("load", "Load data into a database directory (atomically)");
  load->require_subcommand(1);

  struct SsbArgs {
    std::string db, tbl;
  };
  auto ssb_args = std::make_shared<SsbArgs>();
  CLI::App* ssb = load->add_subcommand("ssb", "Load the five SSB tables from dbgen .tbl files (replacing them)");
  ssb->add_option("--db", ssb_args->db, "database directory (created when missing or empty)")->required();
  ssb->add_option("--tbl", ssb_args->tbl, "directory with customer.tbl, supplier.tbl, part.tbl, date.tbl, "
                                          "lineorder.tbl (or lineorder.tbl.1 .. N)")
      ->required();
  ssb->callback([ssb_args] {
    for (const admin::TableRows& t : admin::load_ssb_tbl(ssb_args->db, ssb_args->tbl))
      std::printf("%s: %llu rows\n", t.name.c_str(), (unsigned long long)t.rows);
  });

  auto tpch_args = std::make_shared<SsbArgs>();
  CLI::App* tpch = load->add_subcommand("tpch", "Load the eight TPC-H tables from dbgen .tbl files (replacing them)");
  tpch->add_option("--db", tpch_args->db, "database directory (created when missing or empty)")->required();
  tpch->add_option("--tbl", tpch_args->tbl, "directory with lineitem.tbl, orders.tbl, customer.tbl, part.tbl, "
                                            "partsupp.tbl, supplier.tbl, nation.tbl, region.tbl (or <table>.tbl.1 .. N)")
      ->required();
  tpch->callback([tpch_args] {
    for (const admin::TableRows& t : admin::load_tpch_tbl(tpch_args->db, tpch_args->tbl))
      std::printf("%s: %llu rows\n", t.name.c_str(), (unsigned long long)t.rows);
  });

  struct CsvArgs {
    std::string db, table, schema, delimiter = ",", null_string;
    bool header = false, replace = false;
    std::vector<std::string> files;
  };
  auto csv_args = std::make_shared<CsvArgs>();
  CLI::App* csv = load->add_subcommand("csv", "Load one table from CSV files (rows of all files, in order)");
  csv->add_option("--db", csv_args->db, "database directory (created when missing or empty)")->required();
  csv->add_option("--table", csv_args->table, "table name")->required();
  csv->add_option("--schema", csv_args->schema, "columns: \"name TYPE [NOT NULL], ...\" (INT, BIGINT, DOUBLE, "
                                                "DECIMAL(p,s), DATE, VARCHAR); nullable unless NOT NULL")
      ->required();
  csv->add_flag("--header", csv_args->header, "skip the first line of every file");
  csv->add_option("--delimiter", csv_args->delimiter, "field delimiter, one character (default ',', \\t for tab)");
  csv->add_option("--null", csv_args->null_string,
                  "unquoted text read as NULL in nullable columns (default: an empty field)");
  csv->add_flag("--replace", csv_args->replace, "replace the table if it exists (otherwise that is an error)");
  csv->add_option("files", csv_args->files, "CSV files")->required()->expected(1, -1);
  csv->callback([csv_args, csv] {
    admin::CsvLoadOptions options;
    options.header = csv_args->header;
    options.delimiter = parse_delimiter(csv_args->delimiter);
    options.replace = csv_args->replace;
    options.null_string = csv_args->null_string;
    options.null_string_given = csv->count("--null") > 0;
    if (options.null_string.find_first_of("\"\n\r") != std::string::npos ||
        options.null_string.find(options.delimiter) != std::string::npos)
      fail(ErrorKind::kInvalidInput, "--null cannot hold a quote, a line break or the delimiter");
    if (!options.replace)
      if (auto existing = admin::find_table(csv_args->db, csv_args->table))
        fail(ErrorKind::kCatalog, "table {} already exists in {} (use --replace to replace it)", *existing,
             csv_args->db);
    uint64_t rows = admin::load_csv(csv_args->db, csv_args->table, csv_args->schema, csv_args->files, options);
    std::printf("%s: %llu rows\n", csv_args->table.c_str(), (unsigned long long)rows);
  });
}

}  // namespace raydb::cli
