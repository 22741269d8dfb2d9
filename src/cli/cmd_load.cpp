// raydb load ssb | tpch | csv: parse input files into memory, then commit atomically.
#include <cstdio>
#include <optional>
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

template <class Args>
void run_load_csv(const Args& a, CLI::App* csv) {
  admin::CsvLoadOptions options;
  if (a.header && a.no_header) fail(ErrorKind::kInvalidInput, "--header and --no-header exclude each other");
  if (a.replace && a.append) fail(ErrorKind::kInvalidInput, "--replace and --append exclude each other");
  options.header = a.header;
  options.header_given = a.header || a.no_header || !a.schema.empty();
  options.delimiter = parse_delimiter(a.delimiter);
  options.delimiter_given = csv->count("--delimiter") > 0 || !a.schema.empty();
  options.replace = a.replace;
  options.append = a.append;
  options.sort_by = a.sort_by;
  options.null_string = a.null_string;
  options.null_string_given = csv->count("--null") > 0;
  if (options.null_string.find_first_of("\"\n\r") != std::string::npos ||
      options.null_string.find(options.delimiter) != std::string::npos)
    fail(ErrorKind::kInvalidInput, "--null cannot hold a quote, a line break or the delimiter");
  std::optional<std::string> existing = admin::find_table(a.db, a.table);
  if (existing && !options.replace && !options.append)
    fail(ErrorKind::kCatalog, "table {} already exists in {} (use --replace to replace it or --append to add rows)",
         *existing, a.db);
  if (existing && options.append && !a.schema.empty())
    fail(ErrorKind::kInvalidInput, "--append to table {} takes its columns: give no --schema", *existing);
  const admin::CsvLoadReport r = admin::load_csv_report(a.db, a.table, a.schema, a.files, options);
  if (r.sniffed || (r.appended && a.schema.empty())) {
    // What was guessed, in the form the options take, so it can be given back.
    const std::string d = r.delimiter == '\t' ? "\\t" : std::string(1, r.delimiter);
    std::printf("delimiter: '%s'  header: %s\n", d.c_str(), r.header ? "yes" : "no");
    if (r.sniffed) std::printf("schema: %s\n", r.schema.c_str());
    for (const std::string& n : r.notes) std::printf("note: %s\n", n.c_str());
  }
  std::printf("%s: %llu rows%s\n", r.table.c_str(), (unsigned long long)r.rows, r.appended ? " appended" : "");
}

}  // namespace

void register_load(CLI::App& app) {
  CLI::App* load = app.add_subcommand("load", "Load data into a database directory (atomically)");
  load->require_subcommand(1);

  struct SsbArgs {
    std::string db, tbl, sort_by;
  };
  const char* sort_help = "sort the tables that have these columns by them (\"col[,col]\"), so range predicates "
                          "on them skip blocks";
  auto ssb_args = std::make_shared<SsbArgs>();
  CLI::App* ssb = load->add_subcommand("ssb", "Load the five SSB tables from dbgen .tbl files (replacing them)");
  ssb->add_option("--db", ssb_args->db, "database directory (created when missing or empty)")->required();
  ssb->add_option("--tbl", ssb_args->tbl, "directory with customer.tbl, supplier.tbl, part.tbl, date.tbl, "
                                          "lineorder.tbl (or lineorder.tbl.1 .. N)")
      ->required();
  ssb->add_option("--sort-by", ssb_args->sort_by, sort_help);
  ssb->callback([ssb_args] {
    for (const admin::TableRows& t : admin::load_ssb_tbl(ssb_args->db, ssb_args->tbl, ssb_args->sort_by))
      std::printf("%s: %llu rows\n", t.name.c_str(), (unsigned long long)t.rows);
  });

  auto tpch_args = std::make_shared<SsbArgs>();
  CLI::App* tpch = load->add_subcommand("tpch", "Load the eight TPC-H tables from dbgen .tbl files (replacing them)");
  tpch->add_option("--db", tpch_args->db, "database directory (created when missing or empty)")->required();
  tpch->add_option("--tbl", tpch_args->tbl, "directory with lineitem.tbl, orders.tbl, customer.tbl, part.tbl, "
                                            "partsupp.tbl, supplier.tbl, nation.tbl, region.tbl (or <table>.tbl.1 .. N)")
      ->required();
  tpch->add_option("--sort-by", tpch_args->sort_by, sort_help);
  tpch->callback([tpch_args] {
    for (const admin::TableRows& t : admin::load_tpch_tbl(tpch_args->db, tpch_args->tbl, tpch_args->sort_by))
      std::printf("%s: %llu rows\n", t.name.c_str(), (unsigned long long)t.rows);
  });

  struct ParquetArgs {
    std::string db, table;
    bool replace = false, append = false;
    std::vector<std::string> files;
  };
  auto pq_args = std::make_shared<ParquetArgs>();
  CLI::App* pq = load->add_subcommand("parquet", "Load one table from Parquet files (rows of all files, in order)");
  pq->add_option("--db", pq_args->db, "database directory (created when missing or empty)")->required();
  pq->add_option("--table", pq_args->table, "table name")->required();
  pq->add_flag("--replace", pq_args->replace, "replace the table if it exists (otherwise that is an error)");
  pq->add_flag("--append", pq_args->append, "add the rows to the table if it exists (columns by position)");
  pq->add_option("files", pq_args->files, "Parquet files")->required()->expected(1, -1);
  pq->callback([pq_args] {
    if (pq_args->replace && pq_args->append) fail(ErrorKind::kInvalidInput, "--replace and --append exclude each other");
    const admin::FileLoadReport r =
        admin::load_parquet(pq_args->db, pq_args->table, pq_args->files, pq_args->replace, pq_args->append);
    if (!r.appended) std::printf("schema: %s\n", r.schema.c_str());
    for (const std::string& n : r.notes) std::printf("note: %s\n", n.c_str());
    std::printf("%s: %llu rows%s\n", r.table.c_str(), (unsigned long long)r.rows, r.appended ? " appended" : "");
  });

  struct JsonlArgs {
    std::string db, table, schema;
    bool replace = false, append = false;
    std::vector<std::string> files;
  };
  auto js_args = std::make_shared<JsonlArgs>();
  CLI::App* js = load->add_subcommand("jsonl", "Load one table from JSON lines files (one object per line); without "
                                               "--schema the columns are guessed from the keys");
  js->add_option("--db", js_args->db, "database directory (created when missing or empty)")->required();
  js->add_option("--table", js_args->table, "table name")->required();
  js->add_option("--schema", js_args->schema, "columns: \"name TYPE, ...\" (keys that are not columns are ignored)");
  js->add_flag("--replace", js_args->replace, "replace the table if it exists (otherwise that is an error)");
  js->add_flag("--append", js_args->append, "add the rows to the table if it exists (keys matched to its columns)");
  js->add_option("files", js_args->files, "JSON lines files")->required()->expected(1, -1);
  js->callback([js_args] {
    if (js_args->replace && js_args->append) fail(ErrorKind::kInvalidInput, "--replace and --append exclude each other");
    const admin::FileLoadReport r = admin::load_jsonl(js_args->db, js_args->table, js_args->schema, js_args->files,
                                                      js_args->replace, js_args->append);
    if (!r.appended && js_args->schema.empty()) std::printf("schema: %s\n", r.schema.c_str());
    for (const std::string& n : r.notes) std::printf("note: %s\n", n.c_str());
    std::printf("%s: %llu rows%s\n", r.table.c_str(), (unsigned long long)r.rows, r.appended ? " appended" : "");
  });

  struct CsvArgs {
    std::string db, table, schema, delimiter = ",", null_string, sort_by;
    bool header = false, no_header = false, replace = false, append = false;
    std::vector<std::string> files;
  };
  auto csv_args = std::make_shared<CsvArgs>();
  CLI::App* csv = load->add_subcommand("csv", "Load one table from CSV files (rows of all files, in order); without "
                                              "--schema the columns, delimiter and header are guessed");
  csv->add_option("--db", csv_args->db, "database directory (created when missing or empty)")->required();
  csv->add_option("--table", csv_args->table, "table name")->required();
  csv->add_option("--schema", csv_args->schema, "columns: \"name TYPE [NOT NULL], ...\" (INT, BIGINT, DOUBLE, "
                                                "DECIMAL(p,s), DATE, VARCHAR); nullable unless NOT NULL. Without it "
                                                "they are guessed from a sample of the first file and printed");
  csv->add_flag("--header", csv_args->header, "the first line of every file is a header (skipped)");
  csv->add_flag("--no-header", csv_args->no_header, "no file has a header line (guessed when neither is given "
                                                    "and no --schema is)");
  csv->add_option("--delimiter", csv_args->delimiter, "field delimiter, one character (default ',', \\t for tab; "
                                                      "guessed without --schema)");
  csv->add_option("--null", csv_args->null_string,
                  "unquoted text read as NULL in nullable columns (default: an empty field)");
  csv->add_flag("--replace", csv_args->replace, "replace the table if it exists (otherwise that is an error)");
  csv->add_flag("--append", csv_args->append, "add the rows to the table if it exists (its columns)");
  csv->add_option("--sort-by", csv_args->sort_by, "sort the rows by these columns (\"col[,col]\") before writing, so "
                                                  "range predicates on them skip blocks");
  csv->add_option("files", csv_args->files, "CSV files")->required()->expected(1, -1);
  csv->callback([csv_args, csv] { run_load_csv(*csv_args, csv); });
}

}  // namespace raydb::cli
