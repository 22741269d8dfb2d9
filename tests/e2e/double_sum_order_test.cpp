// SUM/AVG over DOUBLE on the CPU backend do not depend on the thread count or on the
// order of the rows: 100k doubles of mixed magnitudes (cancellation included), stored
// in two row orders, summed with 1, 2 and 8 threads, globally and per group; every
// answer is bit for bit the brute-force oracle's exactly rounded sum
// (support/exact_sum_oracle.h). Also MIN/MAX of signed zeros in any order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>

#include <fmt/format.h>

#include "exec/core/exact_double_sum.h"
#include "raydb/raydb.h"
#include "support/exact_sum_oracle.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

TEST(DoubleSumOrder, SameBitsForAnyThreadCountAndRowOrder) {
  std::mt19937_64 rng(7);
  struct Row {
    int g;
    double v;
  };
  std::vector<Row> rows;
  for (int i = 0; i < 100000; i++) {
    const double mag = std::ldexp(double(rng() >> 11) / std::ldexp(1.0, 53), int(rng() % 80) - 40);
    double v = (rng() & 1 ? -1 : 1) * mag;
    if (i % 1000 == 0) v = (rng() & 1 ? 1e300 : -1e300);  // large terms that cancel in part
    rows.push_back({int(rng() % 5), v});
  }
  TempDir dir;
  const std::string db = dir.file("db");
  for (int t = 0; t < 2; t++) {
    if (t == 1) std::shuffle(rows.begin(), rows.end(), rng);
    std::string csv = "g,v\n";
    for (auto& r : rows) csv += std::to_string(r.g) + "," + fmt::format("{:.17g}", r.v) + "\n";
    const std::string file = dir.file("t" + std::to_string(t) + ".csv");
    write_file(file, csv);
    CommandResult c = run_raydb(cli::load_csv(db, "t" + std::to_string(t), "g INTEGER, v DOUBLE", file));
    ASSERT_EQ(c.exit_code, 0) << c.err;
  }
  // The oracle over the values as stored (parsed back from the CSV text).
  ExactSumOracle all;
  std::map<int, ExactSumOracle> per_group;
  std::map<int, int64_t> counts;
  for (auto& r : rows) {
    const double v = std::strtod(fmt::format("{:.17g}", r.v).c_str(), nullptr);
    all.add(v);
    per_group[r.g].add(v);
    counts[r.g]++;
  }
  auto database = Database::open(db);
  for (int t = 0; t < 2; t++)
    for (int threads : {1, 2, 8}) {
      QueryOptions o{Backend::kCpu};
      o.threads = threads;
      const std::string tn = "t" + std::to_string(t);
      QueryResult r = database->query("select sum(v), avg(v), count(v) from " + tn, o);
      EXPECT_EQ(exec::double_bits(r.get(0, 0).as_double()), exec::double_bits(all.result())) << tn << " threads " << threads;
      EXPECT_EQ(exec::double_bits(r.get(0, 1).as_double()), exec::double_bits(all.result() / double(rows.size())));
      QueryResult g = database->query("select g, sum(v), avg(v) from " + tn + " group by g order by g", o);
      ASSERT_EQ(g.row_count(), per_group.size());
      for (size_t i = 0; i < g.row_count(); i++) {
        const int k = int(g.get(i, 0).as_int());
        EXPECT_EQ(exec::double_bits(g.get(i, 1).as_double()), exec::double_bits(per_group[k].result())) << "group " << k;
        EXPECT_EQ(exec::double_bits(g.get(i, 2).as_double()), exec::double_bits(per_group[k].result() / double(counts[k])));
      }
    }
}

// MIN prefers -0.0 and MAX +0.0 whatever the row order and thread count.
TEST(DoubleSumOrder, MinMaxOfSignedZeros) {
  TempDir dir;
  const std::string db = dir.file("db");
  std::string csv = "v\n";
  for (int i = 0; i < 50000; i++) csv += (i % 2 ? "-0.0\n" : "0.0\n");
  write_file(dir.file("z.csv"), csv);
  CommandResult c = run_raydb(cli::load_csv(db, "z", "v DOUBLE", dir.file("z.csv")));
  ASSERT_EQ(c.exit_code, 0) << c.err;
  auto database = Database::open(db);
  for (int threads : {1, 2, 8}) {
    QueryOptions o{Backend::kCpu};
    o.threads = threads;
    QueryResult r = database->query("select min(v), max(v), sum(v), min(-v), max(-v) from z", o);
    EXPECT_TRUE(std::signbit(r.get(0, 0).as_double()));
    EXPECT_FALSE(std::signbit(r.get(0, 1).as_double()));
    EXPECT_FALSE(std::signbit(r.get(0, 2).as_double()));  // +0 + -0 = +0
    EXPECT_TRUE(std::signbit(r.get(0, 3).as_double()));
    EXPECT_FALSE(std::signbit(r.get(0, 4).as_double()));
  }
}

}  // namespace
}  // namespace raydb::test
