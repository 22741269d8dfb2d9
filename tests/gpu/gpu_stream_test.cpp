// Larger than the GPU: star queries whose fact columns stream through in chunks
// (exec/cuda/stream_plan.h, star_stream.h). Without a device: the chunks cover every
// row of the kept ranges exactly once (brute force), start on kernel tiles, end with a
// one-row chunk where the rows say so; the chunk size follows the setting and the
// budget; the settings reject bad values; a streamed query's estimate overlaps copy and
// kernels. On a device: forced streaming with small chunks (inside zone-map blocks, a
// last chunk of one row, chunks skipped by data skipping) answers as the CPU does, and
// so do the 13 SSB queries with gpu_memory_limit at a quarter of their fact columns
// under `auto`; order statistics are refused with one line when forced; `auto` weighs
// streaming against the CPU by the calibration.
#include <gtest/gtest.h>

#include <regex>

#include "common/error.h"
#include "common/settings.h"
#include "exec/cuda/cuda_device.h"
#include "exec/cuda/kernel_params.h"
#include "exec/cuda/stream_plan.h"
#include "plan/physical/calibration.h"
#include "plan/physical/cost_model.h"
#include "plan/physical/transfer_cost.h"
#include "storage/zone_map.h"
#include "support/fixtures.h"
#include "support/result_rows.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

using exec::RowRange;
using exec::cuda::stream_chunk_rows;
using exec::cuda::stream_chunks;
using exec::cuda::StreamBudget;

constexpr uint64_t kTile = uint64_t(exec::cuda::kStarTileRows);

// Every row of `ranges` in exactly one chunk, none outside; chunks no longer than
// chunk_rows, each starting chunk_rows after the one before inside its range.
void expect_exact_cover(const std::vector<RowRange>& ranges, uint64_t chunk_rows, uint64_t total_rows) {
  const std::vector<RowRange> chunks = stream_chunks(ranges, chunk_rows);
  std::vector<int> seen(total_rows, 0);
  for (const RowRange& c : chunks) {
    ASSERT_LT(c.begin, c.end);
    ASSERT_LE(c.end - c.begin, chunk_rows);
    for (uint64_t r = c.begin; r < c.end; r++) seen[r]++;
  }
  std::vector<int> want(total_rows, 0);
  for (const RowRange& r : ranges)
    for (uint64_t x = r.begin; x < r.end; x++) want[x] = 1;
  EXPECT_EQ(seen, want);
}

TEST(StreamPlan, ChunksCoverEveryKeptRowOnce) {
  const uint64_t block = ZoneMap::kBlockRows, n = 3 * block + 1;
  const std::vector<std::vector<RowRange>> selections = {
      {{0, n}},                                       // the whole table
      {{block, 2 * block}, {3 * block, n}},           // two kept ranges, the last one row
      {},                                             // everything skipped
      {{0, block}, {2 * block, 3 * block}},           // a skipped block between
  };
  for (const auto& ranges : selections)
    for (uint64_t chunk : {kTile, 3 * kTile, block, block + kTile, 3 * block, 4 * block}) {
      SCOPED_TRACE(chunk);
      expect_exact_cover(ranges, chunk, n);
      for (const RowRange& c : stream_chunks(ranges, chunk)) EXPECT_EQ(c.begin % kTile, 0u);
    }
  // 3 blocks + 1 row in chunks of a tile: the last chunk holds the one row.
  const std::vector<RowRange> chunks = stream_chunks({{0, n}}, kTile);
  ASSERT_EQ(chunks.size(), 3 * block / kTile + 1);
  EXPECT_EQ(chunks.back().end - chunks.back().begin, 1u);
  EXPECT_TRUE(stream_chunks({{0, n}}, 0).empty());
}

TEST(StreamPlan, ChunkRowsFollowTheSettingAndTheBudget) {
  StreamBudget b;
  b.row_bytes = 8;
  b.free_bytes = uint64_t(1) << 30;
  b.other_bytes = 0;
  // Default: kDefaultStreamChunkRows when the budget allows it.
  EXPECT_EQ(std::get<uint64_t>(stream_chunk_rows(b)), exec::cuda::kDefaultStreamChunkRows);
  // The setting rounded up to a tile.
  b.setting_rows = 1;
  EXPECT_EQ(std::get<uint64_t>(stream_chunk_rows(b)), kTile);
  b.setting_rows = kTile + 1;
  EXPECT_EQ(std::get<uint64_t>(stream_chunk_rows(b)), 2 * kTile);
  // At most what kStreamSlots buffers fill in half of the memory left.
  b.setting_rows = 0;
  b.free_bytes = 100 * kTile * 8 * exec::cuda::kStreamSlots + 12345;
  b.other_bytes = 12345;
  const uint64_t fit = std::get<uint64_t>(stream_chunk_rows(b));
  EXPECT_EQ(fit, 50 * kTile);
  EXPECT_LE(fit * b.row_bytes * exec::cuda::kStreamSlots, (b.free_bytes - b.other_bytes) / 2);
  // Not one tile: a one-line reason.
  b.free_bytes = b.other_bytes + kTile * 8;
  const auto why = stream_chunk_rows(b);
  ASSERT_TRUE(std::holds_alternative<std::string>(why));
  EXPECT_EQ(std::get<std::string>(why).find('\n'), std::string::npos);
  b.free_bytes = 0;  // the dimension side alone exceeds the budget
  EXPECT_TRUE(std::holds_alternative<std::string>(stream_chunk_rows(b)));
}

TEST(StreamPlan, SettingsRejectBadValues) {
  Settings s;
  EXPECT_EQ(exec::cuda::stream_mode(s), exec::cuda::StreamMode::kAuto);
  EXPECT_EQ(exec::cuda::stream_chunk_setting(s), 0u);
  s.set("cuda_stream", "on");
  EXPECT_EQ(exec::cuda::stream_mode(s), exec::cuda::StreamMode::kOn);
  s.set("cuda_stream", "off");
  EXPECT_EQ(exec::cuda::stream_mode(s), exec::cuda::StreamMode::kOff);
  s.set("cuda_stream_chunk_rows", "8192");
  EXPECT_EQ(exec::cuda::stream_chunk_setting(s), 8192u);
  EXPECT_THROW(s.set("cuda_stream", "always"), Error);
  EXPECT_THROW(s.set("cuda_stream_chunk_rows", "-1"), Error);
  EXPECT_THROW(s.set("cuda_stream_chunk_rows", "4k"), Error);
  EXPECT_THROW(s.set("cuda_stream_chunk_rows", ""), Error);
}

// Streamed, the copy is paid every run and overlaps the kernels; a link bandwidth not
// measured takes the default.
TEST(StreamPlan, StreamedEstimateOverlapsCopyAndKernels) {
  plan::Calibration c;
  c.cpu_threads = 16;
  c.cpu_read_gbs = 60;
  c.host_to_device_gbs = 25;
  c.gpu_first_use_ms = 100;
  plan::TransferWork w;
  w.upload_bytes = uint64_t(1) << 30;
  w.scan_bytes = uint64_t(4) << 30;
  w.device_ms = 10;
  w.device_ready = true;
  const double copy_ms = double(w.upload_bytes) / 25e6;
  EXPECT_NEAR(plan::estimate_transfer(w, &c).gpu_ms, copy_ms + 10, 1e-6);
  w.streamed = true;
  EXPECT_NEAR(plan::estimate_transfer(w, &c).gpu_ms, copy_ms, 1e-6);
  w.device_ms = 2 * copy_ms;  // kernels longer than the copy: they decide
  EXPECT_NEAR(plan::estimate_transfer(w, &c).gpu_ms, 2 * copy_ms, 1e-6);
  c.host_to_device_gbs = 0;
  w.device_ms = 0;
  const plan::TransferEstimate e = plan::estimate_transfer(w, &c);
  EXPECT_TRUE(e.calibrated);
  EXPECT_NEAR(e.gpu_ms, double(w.upload_bytes) / (plan::kDefaultStreamH2DGbs * 1e6), 1e-6);
  w.streamed = false;
  EXPECT_FALSE(plan::estimate_transfer(w, &c).calibrated);  // resident path: no default, as before
}

// ---- on a device ----

// A fact table of 3 zone-map blocks and one row, sorted by its date-like key `d` (so
// date ranges skip blocks), and a dimension on it.
const std::string& stream_db() {
  static TempDir dir;
  static const std::string path = [] {
    const std::string p = dir.file("db");
    auto db = Database::open_or_create(p);
    const uint64_t n = 3 * ZoneMap::kBlockRows + 1;
    std::vector<int32_t> k(n), d(n);
    std::vector<int64_t> v(n);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (uint64_t i = 0; i < n; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      d[i] = int32_t(i / 1000);
      k[i] = int32_t(x % 100);
      v[i] = int64_t(x >> 20) % 2000000 - 1000000;
    }
    db->create_table("f", {ColumnInput{"k", Type::integer(), n, k.data()}, ColumnInput{"d", Type::integer(), n, d.data()},
                           ColumnInput{"v", Type::bigint(), n, v.data()}},
                     false);
    const uint64_t m = 200;
    std::vector<int32_t> dk(m), g(m);
    for (uint64_t i = 0; i < m; i++) dk[i] = int32_t(i), g[i] = int32_t(i % 7);
    db->create_table("dm", {ColumnInput{"dk", Type::integer(), m, dk.data()}, ColumnInput{"g", Type::integer(), m, g.data()}},
                     false);
    return p;
  }();
  return path;
}

const char* const kStreamQueries[] = {
    "select g, count(*), sum(v), min(v), max(v) from f, dm where d = dk and g < 5 group by g order by g",
    "select count(*), sum(v) from f where d between 70 and 130",  // rows 70000-130999: block 1 only
    "select k, count(*), sum(v) from f where d >= 196 group by k order by k",  // the last block: one row
    "select count(*), sum(v) from f where d > 100000",                         // every block skipped
    "select count(*), sum(v) from f where (v < -500000 or k > 90) and d < 150",  // a boolean tree
    "select g, sum(v) from f, dm where d = dk and k in (1, 4, 9, 16, 25, 36, 49, 64, 81, 99, 2, 3) group by g "
    "order by g",  // a long IN list (a device set)
};

QueryOptions streamed(uint64_t chunk_rows) {
  QueryOptions o;
  o.backend = Backend::kCuda;
  o.settings.set("cuda_stream", "on");
  o.settings.set("cuda_stream_chunk_rows", std::to_string(chunk_rows));
  return o;
}

int64_t number_after(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stoll(m[1].str());
}

TEST(GpuStream, ForcedStreamingEqualsTheCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  exec::cuda::clear_column_cache();  // no fact column resident: every one streams
  auto db = Database::open(stream_db());
  QueryOptions cpu;
  cpu.backend = Backend::kCpu;
  // A tile (chunks inside zone-map blocks), a block and a tile (across block edges),
  // three blocks (the last chunk one row).
  for (uint64_t chunk : {kTile, ZoneMap::kBlockRows + kTile, 3 * ZoneMap::kBlockRows}) {
    for (const char* sql : kStreamQueries) {
      SCOPED_TRACE(std::string(sql) + " chunk " + std::to_string(chunk));
      const QueryResult want = db->query(sql, cpu), got = db->query(sql, streamed(chunk));
      EXPECT_EQ(got.backend, "cuda");
      EXPECT_TRUE(same(want, got, sql));
      const std::string e = db->query(std::string("explain ") + sql, streamed(chunk)).explain;
      EXPECT_NE(e.find(fmt::format(" of {} rows)", chunk)), std::string::npos) << e;
    }
  }
  // EXPLAIN ANALYZE: the whole table in tiles, 8 + 4 + 8 bytes a row copied.
  const std::string sql = "select count(*), sum(v) from f where k >= 0";
  const std::string a = db->query("explain analyze " + sql, streamed(kTile)).explain;
  const uint64_t n = 3 * ZoneMap::kBlockRows + 1;
  EXPECT_EQ(number_after(a, "streamed: (\\d+) chunks"), int64_t(3 * ZoneMap::kBlockRows / kTile + 1)) << a;
  EXPECT_GT(number_after(a, "(\\d+) bytes copied"), int64_t(n)) << a;
  EXPECT_NE(a.find("overlapped"), std::string::npos) << a;
  // Data skipping: in chunks of a block, one chunk per block the CPU scans (block 1).
  const std::string skip = "explain analyze select count(*), sum(v) from f where d between 70 and 130";
  const std::string s = db->query(skip, streamed(ZoneMap::kBlockRows)).explain;
  const std::string c = db->query(skip, cpu).explain;
  const int64_t scanned = number_after(c, "scan f: .*blocks: (\\d+) scanned");
  EXPECT_EQ(scanned, 1) << c;
  EXPECT_EQ(number_after(s, "streamed: (\\d+) chunk"), scanned) << s;
}

TEST(GpuStream, OrderStatisticsAreRefusedWithOneLine) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  exec::cuda::clear_column_cache();
  auto db = Database::open(stream_db());
  const std::string sql = "select g, median(v) from f, dm where d = dk group by g order by g";
  try {
    db->query(sql, streamed(kTile));
    ADD_FAILURE() << "expected a refusal";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("order statistics"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  QueryOptions a;  // auto: the CPU answers
  a.settings.set("cuda_stream", "on");
  QueryOptions cpu;
  cpu.backend = Backend::kCpu;
  const QueryResult got = db->query(sql, a);
  EXPECT_EQ(got.backend, "cpu");
  EXPECT_TRUE(same(db->query(sql, cpu), got, sql));
}

// Restores the cost model's calibration (the file's, when there is one) at the end.
struct CalibrationOverride {
  explicit CalibrationOverride(plan::Calibration c) {
    plan::use_calibration(std::make_shared<const plan::Calibration>(std::move(c)));
  }
  ~CalibrationOverride() { plan::reload_calibration(); }
};

// `auto` weighs a streamed query against the CPU on every run (streamed columns never
// become resident): a 1 MB/s link sends it to the CPU, saying it would stream; a CPU
// of 1 MB/s keeps it streamed on the GPU. Answers equal the CPU's either way.
TEST(GpuStream, AutoWeighsStreamingAgainstTheCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  auto db = Database::open(f.path);
  exec::cuda::clear_column_cache();
  const std::string sql = read_file(source_dir() + "/ssb/queries/q2.1.sql");
  QueryOptions cpu;
  cpu.backend = Backend::kCpu;
  const QueryResult want = db->query(sql, cpu);
  QueryOptions a;
  a.settings.set("cuda_stream", "on");
  plan::Calibration c;
  c.cpu_threads = 1;
  c.gpu_read_gbs = 3000;
  c.gpu_first_use_ms = 100;
  {
    c.cpu_read_gbs = 10;
    c.host_to_device_gbs = 0.001;
    CalibrationOverride use(c);
    for (int run = 0; run < 2; run++) {
      const std::string e = db->query("explain " + sql, a).explain;
      EXPECT_NE(e.find("the CPU answers sooner end to end: streaming"), std::string::npos) << e;
      const QueryResult got = db->query(sql, a);
      EXPECT_EQ(got.backend, "cpu");
      EXPECT_TRUE(same(want, got, sql));
    }
  }
  {
    c.cpu_read_gbs = 0.001;
    c.host_to_device_gbs = 25;
    CalibrationOverride use(c);
    const std::string e = db->query("explain " + sql, a).explain;
    EXPECT_NE(e.find("streamed ("), std::string::npos) << e;
    const QueryResult got = db->query(sql, a);
    EXPECT_EQ(got.backend, "cuda");
    EXPECT_TRUE(same(want, got, sql));
  }
}

// The 13 SSB queries with the budget at the dimension side, a quarter of each one's
// fact columns and 4 MiB for lookup arrays and accumulators (at SF 0.2 the dimension
// side is a large part of a query's columns; at SF 20, scripts/device_stream.sh, a
// quarter of all of them suffices): `auto` with the transfer cost off streams them on
// the GPU, answers equal the CPU's and the resident run's.
TEST(GpuStream, SsbAtAQuarterOfTheFactColumnsStreams) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  static TempDir dir;
  const std::string p = dir.file("ssb");
  // SF 0.2 (1.2 M rows): at 0.05 a quarter of the fact columns plus the 4 MiB of headroom
  // below held them whole, and nothing streamed (the device run of session 14).
  ASSERT_EQ(run_raydb(cli::gen_ssb(p, "0.2")).exit_code, 0);  // unsorted: the kernel reads every fact row
  auto db = Database::open(p);
  QueryOptions cpu;
  cpu.backend = Backend::kCpu;
  for (const char* q : {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3", "q3.4", "q4.1", "q4.2",
                        "q4.3"}) {
    SCOPED_TRACE(q);
    const std::string sql = read_file(source_dir() + "/ssb/queries/" + q + ".sql");
    exec::cuda::set_memory_budget(0);  // the last query's limit stays the process's budget
    exec::cuda::clear_column_cache();
    QueryOptions probe;
    probe.backend = Backend::kCuda;
    // The query's columns: what a resident run uploads into an empty cache.
    const QueryResult resident = db->query(sql, probe);
    const uint64_t need = exec::cuda::memory_stats().in_use, fact = resident.device_bytes;
    ASSERT_GT(fact, 0u);
    ASSERT_GE(need, fact);
    exec::cuda::clear_column_cache();
    QueryOptions o;
    o.settings.set("transfer_cost", "off");
    o.settings.set("gpu_memory_limit", std::to_string(need - fact + fact / 4 + (uint64_t(4) << 20)));
    const std::string e = db->query("explain " + sql, o).explain;
    EXPECT_NE(e.find("streamed ("), std::string::npos) << e;
    const QueryResult got = db->query(sql, o);
    EXPECT_EQ(got.backend, "cuda");
    EXPECT_TRUE(same(db->query(sql, cpu), got, sql));
    EXPECT_TRUE(same(resident, got, sql));
  }
  exec::cuda::set_memory_budget(0);
  exec::cuda::clear_column_cache();
}

}  // namespace
}  // namespace raydb::test
