// Data skipping on the CUDA star path (exec/cuda/star_blocks.h). Without a device: the
// fact blocks chosen for SSB queries over lineorder sorted by lo_orderdate hold every
// row that can pass (brute force over the rows) and, the dates being sorted, no block
// without one; a dimension's passing-key range equals brute force; the parameters of a
// row range move every column by its width. On a device: forced CUDA answers equal the
// CPU's for date-range, key-range (through the date dimension), two-range, empty and
// full selections, order statistics, boolean filters and the 13 SSB queries, and
// EXPLAIN ANALYZE on CUDA reports the blocks the CPU reports skipped; the general path
// (row results) scans only the selected blocks too.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <regex>

#include "common/error.h"
#include "exec/cuda/cuda_device.h"
#include "exec/cuda/star_blocks.h"
#include "plan/physical/physical_planner.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"
#include "storage/zone_map.h"
#include "support/result_rows.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

using exec::BlockSelection;
using exec::RowRange;
using exec::cuda::StarPlan;

// SSB at SF 0.05 (313 K lineorder rows: 5 zone-map blocks, about 16 months each)
// with lineorder sorted by lo_orderdate, made once per process.
const std::string& sorted_ssb() {
  static TempDir dir;
  static const std::string path = [] {
    const std::string p = dir.file("ssb");
    const CommandResult r = run_raydb(cli::gen_ssb(p, "0.05") + " --sort-by lo_orderdate");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return p;
  }();
  return path;
}

QueryOptions on(Backend b) {
  QueryOptions o;
  o.backend = b;
  return o;
}

int64_t number_after(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stoll(m[1].str());
}

// A query, and which lineorder rows can pass it (by their columns' stored values).
struct SkipCase {
  const char* name;
  const char* sql;
  std::function<bool(int64_t date, int64_t quantity, int64_t discount)> passes;
};

const SkipCase kCases[] = {
    {"date_range",
     "select sum(lo_extendedprice * lo_discount) from lineorder where lo_orderdate between 19940101 and 19940131",
     [](int64_t d, int64_t, int64_t) { return d >= 19940101 && d <= 19940131; }},
    {"key_range_q1_1",  // the year is on the date dimension: its keys bound lo_orderdate
     "select sum(lo_extendedprice * lo_discount) from lineorder, date where lo_orderdate = d_datekey and "
     "d_year = 1994 and lo_discount between 1 and 3 and lo_quantity < 25",
     [](int64_t d, int64_t q, int64_t k) { return d / 10000 == 1994 && k >= 1 && k <= 3 && q < 25; }},
    {"two_ranges",
     "select lo_discount, count(*), sum(lo_revenue) from lineorder where lo_orderdate between 19920101 and "
     "19920229 or lo_orderdate between 19980101 and 19980228 group by lo_discount order by lo_discount",
     [](int64_t d, int64_t, int64_t) {
       return (d >= 19920101 && d <= 19920229) || (d >= 19980101 && d <= 19980228);
     }},
    {"empty", "select count(*), sum(lo_revenue) from lineorder where lo_orderdate < 19900101",
     [](int64_t d, int64_t, int64_t) { return d < 19900101; }},
    {"full", "select count(*), sum(lo_revenue) from lineorder where lo_orderdate >= 19920101",
     [](int64_t d, int64_t, int64_t) { return d >= 19920101; }},
};

// Shapes that take other kernel modes and passes, each skipping blocks.
const char* const kOtherShapes[] = {
    // order statistics: the second pass (mode 3) over the selected blocks only
    "select d_year, median(lo_revenue), count(*) from lineorder, date where lo_orderdate = d_datekey and "
    "d_yearmonthnum in (199401, 199612) group by d_year order by d_year",
    // boolean filters across columns (trees), with a date range
    "select count(*), sum(lo_revenue) from lineorder where lo_orderdate between 19950301 and 19950615 and "
    "(lo_quantity < 10 or lo_discount > 8)",
    // a long IN list (a device-memory set), with a date range through the dimension
    "select d_month, min(lo_revenue), max(lo_revenue) from lineorder, date where lo_orderdate = d_datekey and "
    "d_year = 1997 and lo_quantity in (1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23) group by d_month order by d_month",
    // global-atomic groups (many groups) over the last, partial block
    "select lo_orderdate, lo_suppkey, count(*) from lineorder where lo_orderdate >= 19980601 group by "
    "lo_orderdate, lo_suppkey order by 1, 2",
};

// The star plan of `sql` over `dir` (plan analysis only: no device).
struct Planned {
  plan::PhysicalPlan plan;
  StarPlan star;
};
Planned plan_star(const std::shared_ptr<DatabaseDirectory>& dir, const std::string& sql) {
  auto stmt = sql::parse_and_bind(sql, [&](std::string_view n) { return dir->table(n); });
  auto q = std::make_shared<plan::LogicalQuery>(std::move(stmt.query));
  Planned p{plan::plan_query(q, {}), {}};
  auto a = exec::cuda::analyze(p.plan);
  if (auto* why = std::get_if<std::string>(&a)) ADD_FAILURE() << sql << ": not a star plan: " << *why;
  else p.star = std::get<StarPlan>(std::move(a));
  return p;
}

bool covered(const BlockSelection& s, uint64_t row) {
  for (const RowRange& r : s.ranges)
    if (row >= r.begin && row < r.end) return true;
  return false;
}

// Device-free: the chosen blocks are exactly those holding a row that passes.
TEST(StarBlocks, SortedSsbBlocksAreThoseWithPassingRows) {
  auto dir = DatabaseDirectory::open(sorted_ssb());
  const Table& lo = *dir->table("lineorder");
  const Column& date = lo.column(size_t(lo.find_column("lo_orderdate")));
  const Column& qty = lo.column(size_t(lo.find_column("lo_quantity")));
  const Column& disc = lo.column(size_t(lo.find_column("lo_discount")));
  const uint64_t nblocks = (lo.row_count() + ZoneMap::kBlockRows - 1) / ZoneMap::kBlockRows;
  ASSERT_EQ(nblocks, 5u);
  for (const SkipCase& c : kCases) {
    SCOPED_TRACE(c.name);
    std::vector<uint8_t> needed(nblocks, 0);
    for (uint64_t row = 0; row < lo.row_count(); row++)
      if (c.passes(date.get_int(row), qty.get_int(row), disc.get_int(row))) needed[row / ZoneMap::kBlockRows] = 1;
    Planned p = plan_star(dir, c.sql);
    const std::optional<BlockSelection> s = exec::cuda::fact_blocks(p.star, *p.plan.query);
    uint64_t need = 0;
    for (uint8_t n : needed) need += n;
    if (!s) {  // no selection: every block is read, so each must be needed
      EXPECT_EQ(need, nblocks);
      continue;
    }
    EXPECT_EQ(s->blocks, nblocks);
    EXPECT_EQ(s->skipped, nblocks - need);
    uint64_t rows = 0;
    for (uint64_t b = 0; b < nblocks; b++) {
      const uint64_t begin = b * ZoneMap::kBlockRows, end = std::min(lo.row_count(), begin + ZoneMap::kBlockRows);
      EXPECT_EQ(covered(*s, begin), bool(needed[b])) << "block " << b;
      EXPECT_EQ(covered(*s, end - 1), bool(needed[b])) << "block " << b;
      if (needed[b]) rows += end - begin;
    }
    EXPECT_EQ(s->rows(), rows);
  }
}

// Device-free: the other shapes are star plans that skip blocks.
TEST(StarBlocks, OtherShapesSkipBlocks) {
  auto dir = DatabaseDirectory::open(sorted_ssb());
  for (const char* sql : kOtherShapes) {
    Planned p = plan_star(dir, sql);
    const std::optional<BlockSelection> s = exec::cuda::fact_blocks(p.star, *p.plan.query);
    ASSERT_TRUE(s) << sql;
    EXPECT_GT(s->skipped, 0u) << sql;
    EXPECT_FALSE(s->ranges.empty()) << sql;
  }
}

// Device-free: a dimension's passing-key range is the brute-force min/max.
TEST(StarBlocks, PassingKeyRangeIsBruteForce) {
  std::vector<int32_t> keys, tag;
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int32_t i = 0; i < 5000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    keys.push_back(int32_t(x % 2000000) - 1000000);
    tag.push_back(int32_t(x >> 40) % 10);
  }
  ColumnPtr k = make_column("k", Type::integer(), keys), t = make_column("t", Type::integer(), tag);
  exec::cuda::StarDim d;
  d.key = k;
  EXPECT_FALSE(exec::cuda::passing_key_range(d, 1 << 20));  // no filter: no bound
  for (auto ranges : std::vector<std::vector<std::pair<int64_t, int64_t>>>{{{3, 3}}, {{0, 1}, {7, 8}}, {{11, 20}}}) {
    d.filters = {exec::cuda::StarFilter{t, -1, ranges, 1, nullptr, false}};
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (size_t i = 0; i < keys.size(); i++)
      for (auto [a, b] : ranges)
        if (tag[i] >= a && tag[i] <= b) lo = std::min<int64_t>(lo, keys[i]), hi = std::max<int64_t>(hi, keys[i]);
    auto got = exec::cuda::passing_key_range(d, 1 << 20);
    ASSERT_TRUE(got);
    EXPECT_EQ(got->first, lo);
    EXPECT_EQ(got->second, hi);
    EXPECT_FALSE(exec::cuda::passing_key_range(d, keys.size() - 1));  // above the row limit
  }
}

// Device-free: the parameters of rows [begin, end) move each column by begin rows of
// its width, and the per-row outputs by begin entries.
TEST(StarBlocks, ParamsForRowsMoveEveryColumn) {
  static const char data[1] = {0};  // only addresses are compared, never read
  exec::cuda::StarParams p;
  p.rows = 5 * ZoneMap::kBlockRows + 17;
  p.ncols = 4;
  const int widths[4] = {1, 2, 4, 8};
  for (int c = 0; c < 4; c++) p.cols[c].data = data, p.cols[c].width = widths[c];
  unsigned char* sel = reinterpret_cast<unsigned char*>(uintptr_t(1) << 20);
  uint32_t* gids = reinterpret_cast<uint32_t*>(uintptr_t(1) << 24);
  p.os_select = sel;
  p.os_gids = gids;
  const RowRange r{2 * ZoneMap::kBlockRows, p.rows};
  const exec::cuda::StarParams s = exec::cuda::params_for_rows(p, r);
  EXPECT_EQ(s.rows, r.end - r.begin);
  for (int c = 0; c < 4; c++)
    EXPECT_EQ(static_cast<const char*>(s.cols[c].data), data + r.begin * uint64_t(widths[c])) << widths[c];
  EXPECT_EQ(s.os_select, sel + r.begin);
  EXPECT_EQ(s.os_gids, gids + r.begin);
  p.os_select = nullptr;
  p.os_gids = nullptr;
  EXPECT_EQ(exec::cuda::params_for_rows(p, r).os_select, nullptr);
  // The filter passes' bits (bit r % 16 of chunk r / 16) by begin / 16 chunks.
  static const uint16_t bits[1] = {0};
  p.filter_bits = bits;
  EXPECT_EQ(exec::cuda::params_for_rows(p, r).filter_bits, bits + r.begin / 16);
  // A range not starting on a kernel tile, or past the rows: an internal error.
  EXPECT_THROW(exec::cuda::params_for_rows(p, RowRange{100, 200}), Error);
  EXPECT_THROW(exec::cuda::params_for_rows(p, RowRange{0, p.rows + 1}), Error);
}

// On a device: forced CUDA equals the CPU, and both report the same blocks skipped.
TEST(GpuDataSkipping, SortedSsbAnswersAndBlocksEqualTheCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  auto db = Database::open(sorted_ssb());
  const QueryOptions cpu = on(Backend::kCpu), cuda = on(Backend::kCuda);
  for (const SkipCase& c : kCases) {
    SCOPED_TRACE(c.name);
    const QueryResult want = db->query(c.sql, cpu), got = db->query(c.sql, cuda);
    EXPECT_EQ(got.backend, "cuda");
    EXPECT_TRUE(same(want, got, c.sql));
    const std::string ce = db->query(std::string("explain analyze ") + c.sql, cpu).explain;
    const std::string ge = db->query(std::string("explain analyze ") + c.sql, cuda).explain;
    const int64_t cpu_skipped = number_after(ce, "scan lineorder: .*blocks: \\d+ scanned, (\\d+) skipped");
    const int64_t gpu_skipped = number_after(ge, "fact lineorder: .*blocks: \\d+ scanned, (\\d+) skipped");
    if (std::string(c.name) == "full") {
      EXPECT_EQ(ge.find("blocks:"), std::string::npos) << ge;  // nothing skipped: the one launch as before
    } else {
      EXPECT_GT(gpu_skipped, 0) << ge;
      EXPECT_EQ(gpu_skipped, cpu_skipped) << ge << "\n" << ce;
    }
  }
}

// On a device: shapes that take other kernel modes and passes, with skipping.
TEST(GpuDataSkipping, OtherShapesWithSkippingEqualTheCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  auto db = Database::open(sorted_ssb());
  const QueryOptions cpu = on(Backend::kCpu), cuda = on(Backend::kCuda);
  for (const char* sql : kOtherShapes) {
    const QueryResult want = db->query(sql, cpu), got = db->query(sql, cuda);
    EXPECT_EQ(got.backend, "cuda") << sql;
    EXPECT_TRUE(same(want, got, sql));
    const std::string ge = db->query(std::string("explain analyze ") + sql, cuda).explain;
    EXPECT_GT(number_after(ge, "fact lineorder: .*blocks: \\d+ scanned, (\\d+) skipped"), 0) << ge;
  }
  for (const char* q : {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3", "q3.4", "q4.1", "q4.2",
                        "q4.3"}) {
    const std::string sql = read_file(source_dir() + "/ssb/queries/" + q + ".sql");
    EXPECT_TRUE(same(db->query(sql, cpu), db->query(sql, cuda), sql)) << q;
  }
}

// On a device: the general path (shapes outside the star kernels: row results) scans
// only the selected blocks' row ids and reports them as the CPU does.
TEST(GpuDataSkipping, GeneralPathScansEqualTheCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  auto db = Database::open(sorted_ssb());
  const QueryOptions cpu = on(Backend::kCpu), cuda = on(Backend::kCuda);
  const std::string one = "select lo_orderdate, lo_orderkey, lo_linenumber, lo_revenue from lineorder where "
                          "lo_orderdate between 19970301 and 19970303 order by 1, 2, 3";
  const std::string join = "select d_date, lo_orderkey, lo_linenumber from lineorder, date where lo_orderdate = "
                           "d_datekey and lo_orderdate between 19960101 and 19960102 and lo_quantity = 7 order by 2, 3";
  const std::string empty = "select lo_orderkey from lineorder where lo_orderdate > 20000101";
  for (const std::string& sql : {one, join, empty}) {
    const QueryResult want = db->query(sql, cpu), got = db->query(sql, cuda);
    EXPECT_EQ(got.backend, "cuda") << sql;
    EXPECT_TRUE(same(want, got, sql));
    const std::string ge = db->query("explain analyze " + sql, cuda).explain;
    EXPECT_NE(ge.find("general path"), std::string::npos) << ge;
    EXPECT_GT(number_after(ge, "scan lineorder: blocks: \\d+ scanned, (\\d+) skipped"), 0) << ge;
  }
  const std::string ce = db->query("explain analyze " + one, cpu).explain;
  const std::string ge = db->query("explain analyze " + one, cuda).explain;
  EXPECT_EQ(number_after(ge, "scan lineorder: blocks: \\d+ scanned, (\\d+) skipped"),
            number_after(ce, "scan lineorder: .*blocks: \\d+ scanned, (\\d+) skipped"))
      << ge << "\n" << ce;
}

}  // namespace
}  // namespace raydb::test
