// Cancelling a running statement (QueryOptions::cancel, common/cancel.h): the CPU
// executor stops between morsels with Error(kCancelled, "query cancelled"); a write
// that was cancelled leaves nothing behind, and the database answers afterwards. The
// statements are long enough (4 x 10^8 pairs, tens of seconds) that a cancel sent after they start
// always lands while they run: no timing assumption beyond that.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

#include "raydb/admin.h"
#include "raydb/raydb.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

class QueryCancelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = Database::open_or_create(tmp_.file("db"));
    std::vector<int64_t> a(1 << 20), k(400);
    std::iota(a.begin(), a.end(), 0);
    std::iota(k.begin(), k.end(), 0);
    db_->create_table("t", {ColumnInput{"a", Type::bigint(), a.size(), a.data()}}, false);
    db_->create_table("u", {ColumnInput{"k", Type::bigint(), k.size(), k.data()}}, false);
  }
  // Runs `sql` on the CPU, sets the cancel flag 100 ms later; the error kind it ended
  // with (nullopt when it finished) and its duration.
  std::optional<ErrorKind> run_cancelled(const std::string& sql, double& seconds) {
    QueryOptions o;
    o.backend = Backend::kCpu;
    o.threads = 2;
    o.cancel = std::make_shared<std::atomic<bool>>(false);
    std::thread canceller([flag = o.cancel] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      flag->store(true);
    });
    const auto start = std::chrono::steady_clock::now();
    std::optional<ErrorKind> kind;
    try {
      db_->query(sql, o);
    } catch (const Error& e) {
      kind = e.kind();
      if (e.kind() == ErrorKind::kCancelled) EXPECT_STREQ(e.what(), "query cancelled");
    }
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    canceller.join();
    return kind;
  }
  TempDir tmp_;
  std::unique_ptr<Database> db_;
};

// 2^20 x 400 pairs: about 40 s on two cores; a cancel stops it within a batch (0.1 s).
const char* kLongCount = "select count(*) from t, u where t.a + u.k < 0";

TEST_F(QueryCancelTest, ARunningSelectStopsWithQueryCancelled) {
  double seconds = 0;
  EXPECT_EQ(run_cancelled(kLongCount, seconds), ErrorKind::kCancelled);
  EXPECT_LT(seconds, 15.0);  // uncancelled: about 40 s here, minutes under ASan
  // The database answers the next statement.
  EXPECT_EQ(db_->query("select count(*) from u").get(0, 0).as_int(), 400);
}

TEST_F(QueryCancelTest, ACancelledCreateTableAsLeavesNoTable) {
  double seconds = 0;
  EXPECT_EQ(run_cancelled("create table big as select t.a, u.k from t, u where t.a + u.k < 0", seconds),
            ErrorKind::kCancelled);
  EXPECT_FALSE(admin::find_table(tmp_.file("db"), "big").has_value());
  auto reopened = Database::open(tmp_.file("db"));
  EXPECT_THROW(reopened->query("select * from big"), Error);
  EXPECT_EQ(reopened->query("select count(*) from t").get(0, 0).as_int(), 1 << 20);
}

TEST_F(QueryCancelTest, AFlagSetBeforeTheStatementCancelsItAtOnce) {
  QueryOptions o;
  o.backend = Backend::kCpu;
  o.cancel = std::make_shared<std::atomic<bool>>(true);
  try {
    db_->query("select count(*) from u", o);
    ADD_FAILURE() << "ran although cancelled";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCancelled);
  }
  o.cancel->store(false);  // the owner clears it: the next statement runs
  EXPECT_EQ(db_->query("select count(*) from u", o).get(0, 0).as_int(), 400);
}

}  // namespace
}  // namespace raydb::test
