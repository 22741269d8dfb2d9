// `raydb gen tpch` against the TPC-H kit's dbgen output (label `slow`): set
// RAYDB_TPCH_DBGEN_DIR to a directory of dbgen's .tbl files and RAYDB_TPCH_DBGEN_SF
// to the scale factor it was run at (`dbgen -s SF`); every row of the eight tables
// must be equal, field by field (numbers as numbers: dbgen writes l_quantity "17",
// raydb's DECIMAL "17.00"). Skipped when RAYDB_TPCH_DBGEN_DIR is not set.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "gen/ssb/generator.h"
#include "gen/tpch/generator.h"
#include "support/test_support.h"

namespace raydb::tpch {
namespace {

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t p; (p = line.find('|', start)) != std::string::npos; start = p + 1) out.push_back(line.substr(start, p - start));
  return out;
}

bool is_number(const std::string& s) {
  char* end = nullptr;
  if (s.empty()) return false;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && s.find_first_not_of("-0123456789.") == std::string::npos;
}

bool same_row(const std::string& expected, const std::string& actual) {
  if (expected == actual) return true;
  const auto e = fields(expected), a = fields(actual);
  if (e.size() != a.size()) return false;
  for (size_t i = 0; i < e.size(); i++)
    if (e[i] != a[i] && !(is_number(e[i]) && is_number(a[i]) && std::strtod(e[i].c_str(), nullptr) == std::strtod(a[i].c_str(), nullptr)))
      return false;
  return true;
}

TEST(TpchDbgenFiles, EveryRowEqualsDbgens) {
  const char* dir = std::getenv("RAYDB_TPCH_DBGEN_DIR");
  const char* sf = std::getenv("RAYDB_TPCH_DBGEN_SF");
  if (!dir || !*dir) GTEST_SKIP() << "RAYDB_TPCH_DBGEN_DIR is not set (a directory of dbgen .tbl files)";
  GenOptions o;
  o.scale_factor = sf && *sf ? std::strtod(sf, nullptr) : 1.0;
  o.progress = false;
  test::TempDir tmp;
  ssb::write_tbl(generate(o), tmp.path());
  for (const char* t : {"nation", "region", "supplier", "customer", "part", "partsupp", "orders", "lineitem"}) {
    std::ifstream expected(std::string(dir) + "/" + t + ".tbl"), actual(tmp.path() + "/" + t + ".tbl");
    ASSERT_TRUE(expected.good()) << "no " << t << ".tbl in " << dir;
    std::string e, a;
    uint64_t row = 0, differing = 0;
    while (true) {
      const bool he = bool(std::getline(expected, e)), ha = bool(std::getline(actual, a));
      if (!he && !ha) break;
      row++;
      if (he && ha && same_row(e, a)) continue;
      if (++differing <= 3) ADD_FAILURE() << t << " row " << row << "\n  dbgen: " << e << "\n  raydb: " << a;
    }
    EXPECT_EQ(differing, 0u) << t << ": " << row << " rows";
  }
}

}  // namespace
}  // namespace raydb::tpch
