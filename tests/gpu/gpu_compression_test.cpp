// Bit-packed resident columns (setting cuda_compression; storage/packed_layout.h):
// the device's block loads (blocked and striped tiles) and its one-row loads unpack
// what the CPU codec packed, at every width 0..32 and lengths off the tile size; SSB,
// the predicate suites and data-skipping launches with compression on equal the CPU
// backend; EXPLAIN ANALYZE names the packed widths and the fact bytes shrink.
// Without a CUDA device (or a CUDA build) every test reports SKIPPED.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <regex>
#include <string>
#include <vector>

#if RAYDB_HAVE_CUDA
#include <cuda_runtime.h>

#include "exec/cuda/kernels.h"
#include "gpu/device_buffer.h"
#endif

#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/cuda_device.h"
#include "storage/bit_pack.h"
#include "storage/packed_layout.h"
#include "support/fixtures.h"
#include "support/predicate_cases.h"
#include "support/result_rows.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU()                  \
  if (exec::cuda::device_count() == 0) \
  GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

QueryOptions packed(Backend b = Backend::kCuda, const char* mode = "on") {
  QueryOptions o;
  o.backend = b;
  o.settings.set("cuda_compression", mode);
  return o;
}

#if RAYDB_HAVE_CUDA

// Every width, blocked and striped tiles and single rows: the device's values equal
// the stored values the CPU codec packed (narrowed 4-byte input, reference 0).
TEST(GpuPackedLoads, EveryWidthEqualsTheCpuCodec) {
  REQUIRE_GPU();
  for (uint64_t rows : {uint64_t(1), uint64_t(3 * 4096 + 777), uint64_t(8192)}) {
    for (int bits = 0; bits <= 32; bits++) {
      std::mt19937_64 rng(uint64_t(bits) * 1000 + rows);
      const uint64_t top = bits == 0 ? 0 : (uint64_t(1) << bits) - 1;
      std::vector<uint32_t> stored(rows);
      for (auto& v : stored) v = uint32_t(top == 0 ? 0 : rng() % (top + 1));
      stored[rows - 1] = uint32_t(top);
      std::vector<uint32_t> words(packed_words(rows, bits), 0);
      pack_stored(stored.data(), 4, rows, bits, 0, (rows + 1023) / 1024, words.data());
      gpu::DeviceBuffer dw(words.size() * 4, "test words"), out(rows * 8, "test out");
      ASSERT_EQ(cudaMemcpy(dw.get(), words.data(), words.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
      exec::cuda::DevColumn c;
      c.data = dw.get();
      c.width = 0;
      c.bits = bits;
      c.base = -7;  // value = base + stored: checks the one-row path's decode too
      for (int how = 0; how < 3; how++) {
        ASSERT_EQ(cudaMemset(out.get(), 0xff, rows * 8), cudaSuccess);
        if (how < 2)
          exec::cuda::launch_decode_tiles(c, rows, how == 0, out.get<unsigned long long>(), nullptr);
        else
          exec::cuda::launch_order_keys(c, rows, out.get(), 8, nullptr);
        std::vector<int64_t> got(rows);
        ASSERT_EQ(cudaMemcpy(got.data(), out.get(), rows * 8, cudaMemcpyDeviceToHost), cudaSuccess);
        const int64_t add = how < 2 ? 0 : -7;
        for (uint64_t r = 0; r < rows; r++)
          ASSERT_EQ(got[r], int64_t(stored[r]) + add) << "bits " << bits << " rows " << rows << " row " << r
                                                      << (how == 0 ? " blocked" : how == 1 ? " striped" : " one row");
      }
    }
  }
}

#endif

class GpuPackedSsb : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuPackedSsb, EqualsCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const std::string sql = read_file(source_dir() + "/ssb/queries/" + GetParam() + ".sql");
  const QueryResult cpu = f.db->query(sql, packed(Backend::kCpu, "off"));
  for (const char* mode : {"on", "auto"}) {
    for (const char* layout : {"blocked", "striped"}) {
      QueryOptions o = packed(Backend::kCuda, mode);
      o.settings.set("cuda_layout", layout);
      const QueryResult gpu = f.db->query(sql, o);
      EXPECT_EQ(gpu.backend, "cuda");
      EXPECT_TRUE(same(cpu, gpu, sql)) << mode << " " << layout;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ssb, GpuPackedSsb,
                         ::testing::Values("q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3",
                                           "q3.4", "q4.1", "q4.2", "q4.3"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '.') c = '_';
                           return n;
                         });

std::vector<Case> predicate_cases() {
  std::vector<Case> v(std::begin(kSsbPredicateCases), std::end(kSsbPredicateCases));
  v.insert(v.end(), std::begin(kCsvPredicateCases), std::end(kCsvPredicateCases));
  return v;
}

OracleFixture& predicate_fixture(const std::string& name) {
  const bool csv = std::any_of(std::begin(kCsvPredicateCases), std::end(kCsvPredicateCases),
                               [&](const Case& c) { return name == c.name; });
  return csv ? csv_fixture() : ssb_fixture("0.01");
}

// The predicate shapes (range, IN, trees, linear sums, filter passes on and off)
// over packed columns: equal to the CPU.
class GpuPackedPredicates : public ::testing::TestWithParam<Case> {};
TEST_P(GpuPackedPredicates, EqualCpu) {
  REQUIRE_GPU();
  OracleFixture& f = predicate_fixture(GetParam().name);
  ASSERT_TRUE(f.db) << f.error;
  const std::string& sql = GetParam().sql;
  const QueryResult cpu = f.db->query(sql, packed(Backend::kCpu, "off"));
  for (const char* passes : {"on", "off"}) {
    QueryOptions o = packed();
    o.settings.set("cuda_filter_passes", passes);
    const QueryResult gpu = f.db->query(sql, o);
    EXPECT_EQ(gpu.backend, "cuda");
    EXPECT_TRUE(same(cpu, gpu, sql)) << "filter passes " << passes;
  }
}
INSTANTIATE_TEST_SUITE_P(Issue15, GpuPackedPredicates, ::testing::ValuesIn(predicate_cases()),
                         [](const auto& info) { return std::string(info.param.name); });

int64_t number_after(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stoll(m[1].str());
}

// EXPLAIN ANALYZE names each fact column's form; packed, the fact bytes the kernel
// reads are fewer than narrowed (lo_discount 0..10: 4 bits instead of a byte).
TEST(GpuPackedExplain, NamesWidthsAndCountsPackedBytes) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const std::string sql = "explain analyze " + read_file(source_dir() + "/ssb/queries/q1.1.sql");
  const QueryResult off = f.db->query(sql, packed(Backend::kCuda, "off"));
  const QueryResult on = f.db->query(sql, packed(Backend::kCuda, "on"));
  EXPECT_NE(on.explain.find("lo_discount packed 4 bits"), std::string::npos) << on.explain;
  EXPECT_NE(off.explain.find("lo_discount narrowed 1 byte"), std::string::npos) << off.explain;
  const int64_t bytes_off = number_after(off.explain, "fact bytes (\\d+)");
  const int64_t bytes_on = number_after(on.explain, "fact bytes (\\d+)");
  EXPECT_GT(bytes_on, 0);
  EXPECT_LT(bytes_on, bytes_off);
}

// Data skipping launches start inside a packed column (a tile's miniblock): SSB on
// lineorder sorted by lo_orderdate (several zone-map blocks) equals the CPU.
TEST(GpuPackedSkipping, SortedSsbEqualsCpu) {
  REQUIRE_GPU();
  TempDir dir;
  const std::string p = dir.file("ssb");
  const CommandResult g = run_raydb(cli::gen_ssb(p, "0.05") + " --sort-by lo_orderdate");
  ASSERT_EQ(g.exit_code, 0) << g.err;
  auto db = Database::open(p);
  for (const char* q : {"q1.1", "q1.2", "q1.3", "q3.3", "q4.3"}) {
    const std::string sql = read_file(source_dir() + "/ssb/queries/" + q + ".sql");
    const QueryResult cpu = db->query(sql, packed(Backend::kCpu, "off"));
    const QueryResult gpu = db->query(sql, packed());
    EXPECT_EQ(gpu.backend, "cuda");
    EXPECT_TRUE(same(cpu, gpu, sql)) << q;
  }
  exec::cuda::clear_column_cache();
}

}  // namespace
}  // namespace raydb::test
