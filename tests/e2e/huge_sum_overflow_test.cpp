// 128-bit sums (SUM/AVG over HUGEINT expressions) raise "numeric overflow" exactly
// when the total leaves int128, whatever the row order and thread count: partial sums
// that pass the limit on the way (and come back) are not an error. The GPU backend
// keeps the same rule (tests/gpu).
#include <gtest/gtest.h>

#include <string>

#include "raydb/raydb.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

// 9e18 * 4e18 = 3.6e37 per row; five of them (1.8e38) pass INT128_MAX (~1.70e38).
constexpr const char* kTerm = "v * 4000000000000000000";

TEST(HugeSumOverflow, OnlyTheTotalCounts) {
  TempDir dir;
  const std::string db = dir.file("db");
  std::string csv = "g,v\n";
  // Group 0: five +9e18, then five -9e18 (running sum in row order passes the limit;
  // the total is 0). Group 1: four +9e18 and one +1 (total within range). Group 2:
  // five +9e18 (the total itself is out of range).
  for (int i = 0; i < 5; i++) csv += "0,9000000000000000000\n";
  for (int i = 0; i < 5; i++) csv += "0,-9000000000000000000\n";
  for (int i = 0; i < 4; i++) csv += "1,9000000000000000000\n";
  csv += "1,1\n";
  for (int i = 0; i < 5; i++) csv += "2,9000000000000000000\n";
  write_file(dir.file("h.csv"), csv);
  CommandResult c = run_raydb(cli::load_csv(db, "h", "g INTEGER, v BIGINT", dir.file("h.csv")));
  ASSERT_EQ(c.exit_code, 0) << c.err;
  auto database = Database::open(db);
  const std::string term = kTerm;
  for (int threads : {1, 2, 8}) {
    QueryOptions o{Backend::kCpu};
    o.threads = threads;
    QueryResult r = database->query("select g, sum(" + term + "), avg(" + term + ") from h where g < 2 group by g order by g", o);
    ASSERT_EQ(r.row_count(), 2u);
    EXPECT_EQ(r.get(0, 1).to_string(), "0") << "threads " << threads;
    EXPECT_EQ(r.get(0, 2).as_double(), 0.0);
    EXPECT_EQ(r.get(1, 1).to_string(), "144000000000000000004000000000000000000");
    QueryResult d = database->query("select sum(distinct " + term + ") from h where g = 0", o);
    EXPECT_EQ(d.get(0, 0).to_string(), "0");
    for (const char* where : {"", " where g = 2"}) {
      try {
        database->query("select sum(" + term + ") from h" + where, o);
        ADD_FAILURE() << "no overflow error for" << where << ", threads " << threads;
      } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "numeric overflow in sum(v * 4000000000000000000)");
      }
    }
  }
}

}  // namespace
}  // namespace raydb::test
