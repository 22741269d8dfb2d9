// The CUDA general path's table scan (exec/cuda/general/scan_kernels.h): a table's
// conjuncts run per row in the CPU's order in one pass, each only on rows the earlier
// ones kept. Against the CPU backend on a table of four zone-map blocks with NULLs:
// a conjunct that would raise only on rows an earlier one rejects does not raise; one
// that raises on a kept row raises the CPU's message (the first conjunct that fails,
// as the CPU applies them); NULL conjuncts drop rows; zone-map skipped blocks (one and
// several ranges), empty results, every row kept, joins of two filtered scans.
// Without a CUDA device every test reports SKIPPED.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <string>

#include "common/error.h"
#include "exec/cuda/cuda_device.h"
#include "exec/cuda/star_plan.h"
#include "plan/physical/physical_planner.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"
#include "support/result_rows.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU() \
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

constexpr int kRows = 200000;  // 4 blocks of 2^16 rows (storage/zone_map.h), the last one partial

// Table t sorted by k (0..kRows-1, so zone maps on k skip blocks): a = k % 7 (NULL
// where k % 11 == 0), b = (k * 13) % 100 - 50 (NULL where k % 5 == 3), m a DECIMAL
// (0 where k % 9 == 0),
// s one of ten strings (NULL where k % 17 == 0), f a DOUBLE.
const std::string& scan_db() {
  static TempDir dir;
  static const std::string path = [] {
    const std::string p = dir.file("scan");
    std::string csv = "k,a,b,m,s,f\n";
    csv.reserve(size_t(kRows) * 40);
    for (int k = 0; k < kRows; k++) {
      csv += std::to_string(k) + ",";
      if (k % 11 != 0) csv += std::to_string(k % 7);
      csv += ",";
      if (k % 5 != 3) csv += std::to_string((k * 13) % 100 - 50);
      csv += k % 9 == 0 ? std::string(",0.00,") : "," + std::to_string(k % 1000 - 500) + "." + std::to_string(10 + k % 90) + ",";
      if (k % 17 != 0) csv += "s" + std::to_string(k % 10);
      csv += "," + std::to_string(k % 64) + ".25\n";
    }
    const std::string file = dir.file("t.csv");
    write_file(file, csv);
    const CommandResult r = run_raydb(
        cli::load_csv(p, "t", "k INTEGER, a INTEGER, b INTEGER, m DECIMAL(8,2), s VARCHAR, f DOUBLE", file));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return p;
  }();
  return path;
}

// `scan_pass`: the setting cuda_scan_pass (off: the scan's filters one pass per
// conjunct, the path before the one-pass scan; both must equal the CPU).
QueryOptions on(Backend b, const char* scan_pass = "on") {
  QueryOptions o;
  o.backend = b;
  o.settings.set("cuda_scan_pass", scan_pass);
  return o;
}

// The error `sql` raises on `b` ("" when it runs).
std::string error_of(Database& db, const std::string& sql, Backend b, const char* scan_pass = "on") {
  try {
    db.query(sql, on(b, scan_pass));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Runs on both backends (CUDA with the one-pass scan and without): none raises, the
// answers are equal and the CUDA plan took the general path.
void expect_same_rows(Database& db, const std::string& sql) {
  SCOPED_TRACE(sql);
  QueryResult cpu;
  try {
    cpu = db.query(sql, on(Backend::kCpu));
  } catch (const Error& e) {
    ADD_FAILURE() << "the CPU raised: " << e.what();
    return;
  }
  for (const char* scan_pass : {"on", "off"}) {
    SCOPED_TRACE(std::string("cuda_scan_pass=") + scan_pass);
    try {
      const QueryResult gpu = db.query(sql, on(Backend::kCuda, scan_pass));
      EXPECT_EQ(gpu.backend, "cuda");
      EXPECT_TRUE(same(cpu, gpu, sql));
    } catch (const Error& e) {
      ADD_FAILURE() << "CUDA raised: " << e.what();
    }
  }
  const std::string ge = db.query("explain analyze " + sql, on(Backend::kCuda)).explain;
  EXPECT_NE(ge.find("general path"), std::string::npos) << ge;
}

int64_t skipped_blocks(const std::string& explain) {
  std::smatch m;
  if (!std::regex_search(explain, m, std::regex("scan t: .*blocks: \\d+ scanned, (\\d+) skipped"))) return -1;
  return std::stoll(m[1].str());
}

const char* const kSkipRejected[] = {
    "select k, a, b from t where a <> 0 and 1000 / a > 200 order by k",
    // Two expression conjuncts: the second only where the first is TRUE.
    "select k from t where a * 2 <> 0 and b / a > 3 order by k",
    "select k, b from t where b between -20 and 20 and cast(cast(b as bigint) * 100000000 as int) <> 7 order by k",
    "select k from t where s <> 's3' and a < 6 and (b + a) * 2 > 10 and 100 / (a - 6) < 0 order by k",
    // A DECIMAL divisor that is 0 only where the first conjunct is FALSE.
    "select k, m from t where m <> 0 and m / m * b > 20 order by k",
    // A DOUBLE division by zero behind a NULL-producing conjunct.
    "select k from t where a + 0 * b > 0 and f / (f - f + a) > 1.5 order by k",
};

const char* const kRaising[] = {
    "select k from t where b is not null and a is not null and b / (a - 3) > 0",
    // Every failing row converts the same value, so the message names one value.
    "select k from t where a > 1 and cast(case when a = 4 then 4000000000 else a end as int) > 0",
    // Both later conjuncts fail on kept rows, the last one first in row order (k = 30:
    // a = 2, b = 40), the one before it later (k = 89: b = 7): the CPU applies a
    // conjunct to the batch before the next, so its error is the earlier conjunct's.
    "select k from t where b is not null and 100 / (b - 7) > 0 and 100 / (a - 2) > 0",
    // Only in the last, partial block (k >= 196608: k = 199999 has a = 2).
    "select k from t where k > 199990 and 10 / (a - 2) > 0",
};

const char* const kSkipping[] = {
    "select k, a from t where k between 70000 and 140000 and a <> 0 and 100 / a > 30 order by k",
    "select k, b from t where k >= 131072 and b * a > 100 order by k",
    "select k from t where (k < 1000 or k > 190000) and a <> 0 and 100 / a > 40 order by k",
    "select k from t where k in (5, 150000, 199999) and b is not null order by k",
};

const char* const kEmptyFull[] = {
    "select k from t where k < 0 and 1 / a = 1",
    "select k from t where a * 2 = 200 and 1 / a = 0",
    "select k, a from t where k + 1 > 0 and (a is null or a >= 0) order by k",
    "select k, s from t where k >= 0 order by k",
    "select k, a, b, s from t order by k",
};

const char* const kJoined[] = {
    "select x.k, y.k from t x, t y where x.k = y.k + 1 and x.a = 2 and y.a <> 0 and y.b / y.a > 1 order by 1",
    "select x.k, y.s from t x join t y on x.k = y.k where x.k between 60000 and 70000 and y.s like 's1%' "
    "and x.b * 3 > y.a order by 1",
};

// Without a device too (pure plan analysis): every query here runs on the CUDA
// backend's general path, not the star kernels, so the tests below test the scan.
TEST(GpuScanFilter, EveryQueryTakesTheGeneralPath) {
  auto dir = DatabaseDirectory::open(scan_db());
  auto check = [&](const char* sql) {
    auto stmt = sql::parse_and_bind(sql, [&](std::string_view n) { return dir->table(n); });
    auto q = std::make_shared<plan::LogicalQuery>(std::move(stmt.query));
    const plan::PhysicalPlan p = plan::plan_query(q, {});
    EXPECT_FALSE(std::holds_alternative<exec::cuda::StarPlan>(exec::cuda::analyze(p))) << sql;
    const auto why = exec::cuda::unsupported_reason(p);
    EXPECT_FALSE(why.has_value()) << sql << ": " << why.value_or("");
  };
  for (const char* sql : kSkipRejected) check(sql);
  for (const char* sql : kRaising) check(sql);
  for (const char* sql : kSkipping) check(sql);
  for (const char* sql : kEmptyFull) check(sql);
  for (const char* sql : kJoined) check(sql);
}

// Conjuncts that would raise (division by zero, a cast out of range) only on rows an
// earlier conjunct rejects (as FALSE or NULL): no error, the CPU's rows.
TEST(GpuScanFilter, LaterConjunctsSkipRejectedRows) {
  REQUIRE_GPU();
  auto db = Database::open(scan_db());
  for (const char* sql : kSkipRejected) expect_same_rows(*db, sql);
}

// A conjunct that raises on a row every earlier conjunct kept raises the CPU's error.
TEST(GpuScanFilter, ErrorsOfKeptRowsMatchTheCpu) {
  REQUIRE_GPU();
  auto db = Database::open(scan_db());
  for (const char* sql : kRaising) {
    const std::string cpu = error_of(*db, sql, Backend::kCpu);
    EXPECT_FALSE(cpu.empty()) << sql;
    EXPECT_EQ(error_of(*db, sql, Backend::kCuda), cpu) << sql;
    EXPECT_EQ(error_of(*db, sql, Backend::kCuda, "off"), cpu) << sql << " (cuda_scan_pass=off)";
  }
}

// Zone maps leave one range, several ranges or none; filters then run on the blocks
// left, positions mapped to rows across ranges.
TEST(GpuScanFilter, SkippedBlocksEqualTheCpu) {
  REQUIRE_GPU();
  auto db = Database::open(scan_db());
  for (const char* sql : kSkipping) {
    expect_same_rows(*db, sql);
    const std::string ce = db->query(std::string("explain analyze ") + sql, on(Backend::kCpu)).explain;
    const std::string ge = db->query(std::string("explain analyze ") + sql, on(Backend::kCuda)).explain;
    EXPECT_GT(skipped_blocks(ce), 0) << ce;
    EXPECT_EQ(skipped_blocks(ge), skipped_blocks(ce)) << ge << "\n" << ce;
  }
}

// No row passes (all blocks skipped, or every row rejected by the first conjunct of
// one that would raise), every row passes, and no filter at all.
TEST(GpuScanFilter, EmptyAndFullResultsEqualTheCpu) {
  REQUIRE_GPU();
  auto db = Database::open(scan_db());
  for (const char* sql : kEmptyFull) expect_same_rows(*db, sql);
}

// Two filtered scans of one table joined: each scan's filters on its own rows.
TEST(GpuScanFilter, JoinedScansEqualTheCpu) {
  REQUIRE_GPU();
  auto db = Database::open(scan_db());
  for (const char* sql : kJoined) expect_same_rows(*db, sql);
}

// Table u without NULLs, for the scan's term pass (scan_terms.h): every column is read
// straight, so simple conjuncts become terms. k = 0..kRows-1, a = k % 7, big a BIGINT near
// the int64 ends, m a DECIMAL, s one of ten strings, d and e DATEs.
const std::string& terms_db() {
  static TempDir dir;
  static const std::string path = [] {
    const std::string p = dir.file("terms");
    std::string csv = "k,a,big,m,s,d,e\n";
    csv.reserve(size_t(kRows) * 64);
    char date[32];
    for (int k = 0; k < kRows; k++) {
      csv += std::to_string(k) + "," + std::to_string(k % 7) + ",";
      csv += (k % 2 ? "9223372036854775" + std::to_string(100 + k % 700) : "-9223372036854775" + std::to_string(100 + k % 700));
      csv += "," + std::to_string(k % 1000 - 500) + "." + std::to_string(10 + k % 90) + ",s" + std::to_string(k % 10) + ",";
      std::snprintf(date, sizeof date, "%d-%02d-%02d,%d-%02d-%02d\n", 1992 + k % 7, 1 + k % 12, 1 + k % 28, 1992 + k % 5,
                    1 + k % 11, 1 + k % 27);
      csv += date;
    }
    const std::string file = dir.file("u.csv");
    write_file(file, csv);
    const CommandResult r = run_raydb(cli::load_csv(
        p, "u", "k INTEGER, a INTEGER, big BIGINT, m DECIMAL(8,2), s VARCHAR, d DATE, e DATE", file));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return p;
  }();
  return path;
}

const char* const kTerms[] = {
    "select k from u where a = 3", "select k from u where a <> 3", "select k from u where a < 3",
    "select k from u where a <= 3", "select k from u where a > 5", "select k from u where a >= 6",
    "select k from u where 3 > a", "select k from u where 2 <= a and 4 >= a",
    // Constants of another scale than the column's, both ways, and out of every range.
    "select k from u where m > 1.005", "select k from u where m = 2.5", "select k from u where m <> 2.5",
    "select k from u where m >= -3", "select k from u where m < 0.001", "select k from u where m <= 12.345",
    "select k from u where a > 2.5", "select k from u where a = 2.5", "select k from u where a <> 2.0",
    "select k from u where a < 99999999999", "select k from u where a > -99999999999",
    "select k from u where big > 9223372036854775500", "select k from u where big < -9223372036854775500",
    "select k from u where big >= 9223372036854775807",
    // Two columns of the row.
    "select k from u where m > a", "select k from u where a < k", "select k from u where d < e",
    "select k from u where m * 1 >= a",
    // Strings: codes against present and absent constants.
    "select k from u where s = 's3'", "select k from u where s <> 's3'", "select k from u where s < 's5'",
    "select k from u where s = 'absent'", "select k from u where s > 's45'", "select k from u where s >= 's'",
    // Lists, with and without a NULL, and key sets from subqueries.
    "select k from u where a in (1, 3, 5)", "select k from u where a not in (1, 3)",
    "select k from u where a not in (1, null)", "select k from u where a in (1, null)",
    "select k from u where s in ('s1', 's7', 'nope')", "select k from u where s not in ('s1')",
    "select k from u where k in (select k from u where a = 2 and k < 1000)",
    "select k from u where k not in (select k from u where a = 2)",
    "select k from u where d between date '1995-01-01' and date '1995-06-30'",
    "select k from u where d >= date '1994-01-01' and d < date '1994-01-01' + interval '1' year",
    // Several terms, terms beside interpreted conjuncts (before and after one that may raise), an OR.
    "select k from u where a = 3 and m > 0 and k < 150000 and s <> 's2'",
    "select k from u where a <> 0 and 100 / a > 30 and k < 1000",
    "select k from u where k < 500 and 100 / (a - 7) < -20 and s = 's4'",
    "select k from u where a = 1 or a = 2", "select k from u where (a = 1 or s = 's2') and k >= 190000",
    "select count(*), sum(m) from u where d < e and a <> 6 group by a order by a",
    // Zone maps leave no block: the terms never run.
    "select k from u where k > 500000 and a = 1", "select k, s from u where k < 0 and s = 's1'",
};

// Simple conjuncts tested from the columns against the interpreter and the CPU.
TEST(GpuScanFilter, ScanTermsEqualTheCpu) {
  REQUIRE_GPU();
  auto db = Database::open(terms_db());
  for (const char* sql : kTerms) {
    SCOPED_TRACE(sql);
    const QueryResult cpu = db->query(sql, on(Backend::kCpu));
    for (const char* terms : {"on", "off"}) {
      QueryOptions o = on(Backend::kCuda);
      o.settings.set("cuda_scan_terms", terms);
      const QueryResult gpu = db->query(sql, o);
      EXPECT_EQ(gpu.backend, "cuda") << "cuda_scan_terms=" << terms;
      EXPECT_TRUE(same(cpu, gpu, sql)) << "cuda_scan_terms=" << terms;
    }
  }
}

// Large results after a term pass (many rows, many groups) equal the CPU's.
TEST(GpuScanFilter, LargeResultsEqualTheCpu) {
  REQUIRE_GPU();
  auto db = Database::open(terms_db());
  for (const char* sql : {"select k, a, big, m, s, d from u where k % 3 <> 1 order by k",
                          "select a, k % 50000 as g, count(*), sum(m), min(s) from u group by a, k % 50000 order by 1, 2"}) {
    SCOPED_TRACE(sql);
    const QueryResult cpu = db->query(sql, on(Backend::kCpu));
    EXPECT_GT(cpu.row_count(), 50000u);
    const QueryResult gpu = db->query(sql, on(Backend::kCuda));
    EXPECT_EQ(gpu.backend, "cuda");
    EXPECT_TRUE(same(cpu, gpu, sql));
  }
}

// A conjunct that raises on a kept row after terms, and terms behind it, raise the CPU's error.
TEST(GpuScanFilter, ScanTermsKeepTheCpuErrors) {
  REQUIRE_GPU();
  auto db = Database::open(terms_db());
  for (const char* sql : {"select k from u where k > 199990 and 10 / (a - 2) > 0",
                          "select k from u where 10 / (a - 2) > 0 and k > 199990",
                          "select k from u where s = 's2' and 7 / (a - k % 7) > 0 and k < 10"}) {
    const std::string cpu = error_of(*db, sql, Backend::kCpu);
    EXPECT_FALSE(cpu.empty()) << sql;
    EXPECT_EQ(error_of(*db, sql, Backend::kCuda), cpu) << sql;
  }
}

}  // namespace
}  // namespace raydb::test
