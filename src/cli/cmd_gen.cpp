// raydb gen ssb | tpch: generate Star Schema Benchmark or TPC-H data into a database directory
// (and optionally dbgen-style .tbl files).
#include <charconv>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "common/error.h"
#include "common/timer.h"
#include "raydb/admin.h"

namespace raydb::cli {

namespace {

struct GenSsbArgs {
  std::string sf = "1";
  std::string db;
  std::string seed;
  std::string tbl;
  std::string threads;
  std::string sort_by;
};

// Flags arrive as text so that a malformed number is one clear kInvalidInput line.
template <typename T>
T parse_number(const std::string& flag, const std::string& text, const char* expected) {
  T v{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    fail(ErrorKind::kInvalidInput, "{} must be {}, got '{}'", flag, expected, text);
  return v;
}

admin::SsbGenOptions parse_options(const GenSsbArgs& a) {
  admin::SsbGenOptions o;
  o.scale_factor = parse_number<double>("--sf", a.sf, "a positive number");
  if (!(o.scale_factor > 0)) fail(ErrorKind::kInvalidInput, "--sf must be a positive number, got '{}'", a.sf);
  if (!a.seed.empty()) o.seed = parse_number<uint64_t>("--seed", a.seed, "a non-negative integer");
  if (!a.threads.empty()) {
    o.threads = parse_number<int>("--threads", a.threads, "a positive integer");
    if (o.threads <= 0) fail(ErrorKind::kInvalidInput, "--threads must be a positive integer, got '{}'", a.threads);
  }
  o.tbl_dir = a.tbl;
  o.sort_by = a.sort_by;
  return o;
}

void run_gen_tpch(const GenSsbArgs& a) {
  admin::TpchGenOptions options;
  static_cast<admin::SsbGenOptions&>(options) = parse_options(a);
  if (a.seed.empty()) options.seed = 0;  // dbgen's streams
  Timer timer;
  const admin::TpchGenSummary s = admin::generate_tpch(a.db, options);
  std::printf("generated TPC-H SF %g (seed %llu): %llu rows in %zu tables into %s in %.2f s\n", options.scale_factor,
              (unsigned long long)options.seed, (unsigned long long)s.rows, s.tables, a.db.c_str(),
              timer.elapsed_ms() / 1e3);
}

void run_gen_ssb(const GenSsbArgs& a) {
  const admin::SsbGenOptions options = parse_options(a);
  Timer timer;
  const admin::SsbGenSummary s = admin::generate_ssb(a.db, options);
  std::printf("generated SSB SF %g (seed %llu): %llu rows in %zu tables into %s in %.2f s\n", options.scale_factor,
              (unsigned long long)options.seed, (unsigned long long)s.rows, s.tables, a.db.c_str(),
              timer.elapsed_ms() / 1e3);
}

}  // namespace

void register_gen(CLI::App& app) {
  auto* gen = app.add_subcommand("gen", "Generate benchmark data");
  gen->require_subcommand(1);
  auto args = std::make_shared<GenSsbArgs>();
  auto* ssb = gen->add_subcommand("ssb", "Generate Star Schema Benchmark tables (lineorder, customer, supplier, part, date)");
  ssb->add_option("--sf", args->sf, "Scale factor, > 0 (fractions such as 0.01 work)")->capture_default_str();
  ssb->add_option("--db", args->db, "Database directory (created when missing; SSB tables are replaced)")->required();
  ssb->add_option("--seed", args->seed, "Random seed (default 19920101); same seed, same data");
  ssb->add_option("--tbl", args->tbl, "Also write dbgen-style .tbl files into this directory");
  ssb->add_option("--threads", args->threads, "Worker threads (default: all cores); output does not depend on it");
  ssb->add_option("--sort-by", args->sort_by, "Sort the tables that have these columns by them (\"col[,col]\", e.g. "
                                             "lo_orderdate), so range predicates on them skip blocks");
  ssb->callback([args] { run_gen_ssb(*args); });

  auto targs = std::make_shared<GenSsbArgs>();
  auto* tpch = gen->add_subcommand("tpch", "Generate the eight TPC-H tables (the same rows as the TPC-H kit's dbgen)");
  tpch->add_option("--sf", targs->sf, "Scale factor, > 0 (fractions such as 0.01 work)")->capture_default_str();
  tpch->add_option("--db", targs->db, "Database directory (created when missing; TPC-H tables are replaced)")
      ->required();
  tpch->add_option("--seed", targs->seed, "Random seed (default 0: dbgen's seeds, the kit's data; any other value "
                                          "changes every stream); same seed, same data");
  tpch->add_option("--tbl", targs->tbl, "Also write dbgen-style .tbl files into this directory");
  tpch->add_option("--threads", targs->threads, "Worker threads (default: all cores); output does not depend on it");
  tpch->add_option("--sort-by", targs->sort_by, "Sort the tables that have these columns by them (\"col[,col]\")");
  tpch->callback([targs] { run_gen_tpch(*targs); });
}

}  // namespace raydb::cli
