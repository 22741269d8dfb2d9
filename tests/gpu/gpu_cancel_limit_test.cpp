// Cancelling on the CUDA backend and LIMIT prefixes (issue 13). A statement cancelled
// at random points of a CUDA run either finishes with the CPU's answer or fails with
// Error(kCancelled), never anything else, and the next CUDA statement (same caches,
// same stream) answers exactly. A LIMIT without ORDER BY is declined by the CUDA
// backend in one line and `auto` runs it on the CPU with the CPU's rows. Without a
// CUDA device every test reports SKIPPED.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "exec/cuda/cuda_backend.h"
#include "support/fixtures.h"
#include "support/result_rows.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU()                     \
  if (exec::cuda::device_count() == 0) \
  GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

QueryOptions on(Backend b) {
  QueryOptions o;
  o.backend = b;
  return o;
}

const char* const kGeneral =
    "SELECT c_nation, s_nation, count(*), sum(lo_revenue) FROM lineorder, customer, supplier "
    "WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND lo_quantity + lo_discount > 5 "
    "GROUP BY c_nation, s_nation ORDER BY 1, 2";
const char* const kStar =
    "SELECT d_year, sum(lo_revenue) FROM lineorder, date WHERE lo_orderdate = d_datekey AND lo_discount < 4 "
    "GROUP BY d_year ORDER BY d_year";

// SF 1: at SF 0.01 a statement's whole GPU part takes less time than starting the
// canceller thread, so whether any cancel landed was luck (0 or 1 of 10 on the H100);
// at SF 1 the joins and scans take milliseconds on the device. With the plan cache and
// kept dimension arrays a repeated star statement can finish in less time than the
// canceller thread takes to start (0 of 12 landed on the H100 in session 16), so each
// statement also runs with the flag raised before it starts (it must say cancelled), and
// the star statement once more without either cache (a wait for its dimension counts);
// a cancel landing inside a run is counted, not required.
TEST(GpuCancel, CancelledAtRandomPointsFinishesExactlyOrSaysCancelled) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("1");
  ASSERT_TRUE(f.db) << f.error;
  int cancelled = 0, finished = 0, raised_before = 0;
  QueryOptions uncached = on(Backend::kCuda);
  uncached.settings.set("plan_cache", "off");
  uncached.settings.set("cuda_dimension_cache", "off");
  const std::pair<const char*, QueryOptions> runs[] = {
      {kGeneral, on(Backend::kCuda)}, {kStar, on(Backend::kCuda)}, {kStar, uncached}};
  for (const auto& [sql, base] : runs) {
    const QueryResult cpu = f.db->query(sql, on(Backend::kCpu));
    f.db->query(sql, base);  // columns resident: the cancels below fall in the query's own work
    for (int delay_us : {-1, 0, 50, 200, 500, 1000, 5000}) {
      QueryOptions o = base;
      o.cancel = std::make_shared<std::atomic<bool>>(delay_us < 0);
      if (delay_us < 0) {
        try {
          f.db->query(sql, o);
          ADD_FAILURE() << "a statement cancelled before it started ran: " << sql;
        } catch (const Error& e) {
          EXPECT_EQ(e.kind(), ErrorKind::kCancelled) << e.what();
          raised_before++;
        }
        continue;
      }
      std::thread canceller([flag = o.cancel, delay_us] {
        std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
        flag->store(true);
      });
      try {
        EXPECT_TRUE(same(cpu, f.db->query(sql, o), sql));
        finished++;
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::kCancelled) << e.what();
        cancelled++;
      }
      canceller.join();
      // The next statement on the same device state answers exactly.
      EXPECT_TRUE(same(cpu, f.db->query(sql, on(Backend::kCuda)), sql));
    }
  }
  std::printf("GpuCancel: %d cancelled, %d finished before the cancel, %d raised before the start\n", cancelled,
              finished, raised_before);
  EXPECT_EQ(raised_before, 3);
  EXPECT_EQ(cancelled + finished, 18);
  // Whether a cancel lands inside a run is timing: 1 of 18 on the H100 in one call of
  // session 16, 0 in another. The raised-before runs above cancel every time.
}

TEST(GpuLimitPrefix, CudaDeclinesAndAutoRunsItOnTheCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* sql = "SELECT lo_orderkey, lo_linenumber, lo_revenue FROM lineorder LIMIT 5 OFFSET 3";
  const QueryResult cpu = f.db->query(sql, on(Backend::kCpu));
  const QueryResult any = f.db->query(sql, on(Backend::kAuto));
  EXPECT_EQ(any.backend, "cpu");
  EXPECT_TRUE(same(cpu, any, sql));
  try {
    f.db->query(sql, on(Backend::kCuda));
    ADD_FAILURE() << "the CUDA backend ran a prefix LIMIT";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNotImplemented);
    EXPECT_NE(std::string(e.what()).find("LIMIT without ORDER BY"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace raydb::test
