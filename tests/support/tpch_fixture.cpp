#include "support/tpch_fixture.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <regex>

#include "raydb/types.h"

namespace raydb::test {

namespace {

// A database of `raydb gen tpch` at `sf`, shared by the test processes of one build:
// ctest runs every test case as its own process, and generating per process cost
// more than the queries. It lives beside the raydb binary, named by the binary's
// size and time (a rebuilt generator makes a new one), and appears atomically: each
// process generates into its own directory and renames it into place; a process that
// loses the race uses the winner's.
std::string generate(const std::string& sf, std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path binary = RAYDB_BINARY;
  const auto stamp = fs::last_write_time(binary, ec).time_since_epoch().count();
  const fs::path cache = binary.parent_path() / "tests" / "tpch-cache";
  const fs::path path = cache / ("sf" + sf + "-" + std::to_string(fs::file_size(binary, ec)) + "-" + std::to_string(stamp));
  if (fs::exists(path / "manifest.json", ec)) return path.string();
  fs::create_directories(cache, ec);
  const fs::path mine = path.string() + ".tmp" + std::to_string(::getpid());
  fs::remove_all(mine, ec);
  const std::string args = "gen tpch --sf " + sf + " --db " + shell_quote(mine.string());
  CommandResult r = run_raydb(args);
  if (r.exit_code != 0) {
    error = "raydb " + args + " failed (exit " + std::to_string(r.exit_code) + "): " + r.err;
    return "";
  }
  fs::rename(mine, path, ec);
  if (ec) fs::remove_all(mine, ec);  // another process was first
  if (!fs::exists(path / "manifest.json", ec)) {
    error = "cannot place the generated database at " + path.string();
    return "";
  }
  return path.string();
}

std::string shifted_date(const std::string& date, char sign, int n, const std::string& unit) {
  int32_t days = 0;
  if (!parse_date(date, days)) return date;
  if (sign == '-') n = -n;
  if (unit == "day") return format_date(days + n);
  int y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  int months = y * 12 + int(m) - 1 + (unit == "year" ? 12 * n : n);
  return format_date(days_from_civil(months / 12, unsigned(months % 12 + 1), d));  // TPC-H dates: the 1st
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

}  // namespace

OracleFixture& tpch_fixture(const std::string& sf, bool with_oracle) {
  static std::map<std::string, OracleFixture> cache;
  auto [it, fresh] = cache.try_emplace(sf);
  OracleFixture& f = it->second;
  if (fresh) {
    const char* existing = std::getenv("RAYDB_TPCH_SF1_DB");
    f.path = sf == "1" && existing && *existing ? std::string(existing) : generate(sf, f.error);
    if (f.path.empty()) return f;
    try {
      f.db = Database::open(f.path);
    } catch (const std::exception& e) {
      f.error = std::string("opening ") + f.path + " failed: " + e.what();
    }
  }
  if (!with_oracle || !f.db || f.oracle) return f;
  try {
    f.oracle = std::make_unique<SqliteOracle>();
    f.oracle->load_database(f.db->directory());
    // The keys that joins and correlated subqueries probe; without them SQLite
    // rescans lineitem once per outer row.
    for (auto [t, c] : {std::pair{"lineitem", "l_orderkey"}, {"lineitem", "l_partkey"}, {"orders", "o_orderkey"},
                        {"orders", "o_custkey"}, {"customer", "c_custkey"}, {"part", "p_partkey"},
                        {"partsupp", "ps_partkey"}, {"supplier", "s_suppkey"}, {"nation", "n_nationkey"}})
      f.oracle->create_index(t, c);
    f.oracle->analyze();
  } catch (const std::exception& e) {
    f.db.reset();
    f.oracle.reset();
    f.error = std::string("copying ") + f.path + " into SQLite failed: " + e.what();
  }
  return f;
}

std::string tpch_sqlite_text(const std::string& name, const std::string& sql) {
  static const std::regex interval(
      R"(date\s+'(\d{4}-\d{2}-\d{2})'\s*([+-])\s*interval\s+'(\d+)'\s+(day|month|year)(\s*\(\s*\d+\s*\))?)",
      std::regex::icase);
  std::string out, rest = sql;
  std::smatch m;
  while (std::regex_search(rest, m, interval)) {
    out += m.prefix().str();
    out += "'" + shifted_date(m[1].str(), m[2].str()[0], std::stoi(m[3].str()), m[4].str()) + "'";
    rest = m.suffix().str();
  }
  out += rest;
  out = std::regex_replace(out, std::regex(R"(extract\s*\(\s*year\s+from\s+([a-z_.0-9]+)\s*\))", std::regex::icase),
                           "cast(strftime('%Y', $1) as integer)");
  out = std::regex_replace(
      out, std::regex(R"(substring\s*\(\s*([a-z_.0-9]+)\s+from\s+(\d+)\s+for\s+(\d+)\s*\))", std::regex::icase),
      "substr($1, $2, $3)");
  if (name == "q13") {
    out = replace_all(out, "count(o_orderkey)\n", "count(o_orderkey) as c_count\n");
    out = replace_all(out, "as c_orders (c_custkey, c_count)", "as c_orders");
  }
  if (name == "q6") out = replace_all(out, "between 0.06 - 0.01 and 0.06 + 0.01", "between 0.05 and 0.07");
  return sqlite_dialect(out);
}

bool tpch_not_supported(ErrorKind kind) {
  return kind == ErrorKind::kParse || kind == ErrorKind::kBinder || kind == ErrorKind::kNotImplemented;
}

}  // namespace raydb::test
