// The fast load path on a real device (exec/cuda/narrowed_upload.h): a fresh SSB
// database (with narrowed files) answers the 13 queries on the CUDA backend with
// fast_load on and off exactly as the CPU backend does; the fast path narrows nothing
// on the host and reads the narrowed files; a flipped byte in a narrowed file fails
// the CUDA query with a one-line error instead of an answer; a database without
// narrowed files (an older one) still runs on the GPU. With prefetch on (the default)
// the narrowed files are read ahead on several threads and copied up on several
// streams (exec/cuda/prefetched_upload.h): the same answers, the same corruption
// error, and nothing read ahead for an EXPLAIN.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/stage_times.h"
#include "exec/cuda/cuda_device.h"
#include "storage/persist/manifest.h"
#include "support/fixtures.h"
#include "support/result_rows.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

namespace fs = std::filesystem;

QueryOptions on(Backend b) {
  QueryOptions o;
  o.backend = b;
  return o;
}

std::vector<std::string> ssb_queries() {
  std::vector<std::string> out;
  for (const char* q : {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3", "q3.4", "q4.1", "q4.2",
                        "q4.3"})
    out.push_back(read_file(source_dir() + "/ssb/queries/" + q + ".sql"));
  return out;
}

// A fresh SSB SF 0.01 database written by this build (so with narrowed files).
void make_ssb(const std::string& dir) {
  const CommandResult r = run_raydb("gen ssb --sf 0.01 --db " + shell_quote(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

QueryOptions cuda(bool fast, bool prefetch = true) {
  QueryOptions o = on(Backend::kCuda);
  o.settings.set("fast_load", fast ? "on" : "off");
  o.settings.set("prefetch", prefetch ? "on" : "off");
  return o;
}

// The ways a column reaches the device: read ahead and copied on several streams
// (the default), read and copied chunk by chunk (prefetch off), narrowed here.
struct Way {
  bool fast, prefetch;
  const char* name;
};
constexpr Way kWays[] = {{true, true, "prefetch"}, {true, false, "chunked"}, {false, false, "narrowing"}};

// The narrowed file of lineorder.<column>.
std::string nar_of(const std::string& dir, const std::string& column) {
  const auto j = nlohmann::json::parse(read_file(dir + "/manifest.json"));  // outlives the loop
  for (auto& t : j["tables"])
    if (t["name"] == "lineorder")
      for (auto& c : t["columns"])
        if (c["name"] == column && c.contains("narrowed")) return dir + "/" + c["narrowed"]["file"].get<std::string>();
  return "";
}

TEST(GpuFastLoad, SsbOnAndOffEqualTheCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  TempDir tmp;
  make_ssb(tmp.path());
  ASSERT_NE(nar_of(tmp.path(), "lo_quantity"), "");
  auto cpu_db = Database::open(tmp.path());
  for (const std::string& sql : ssb_queries()) {
    const QueryResult want = cpu_db->query(sql, on(Backend::kCpu));
    std::map<std::string, uint64_t> files_read;  // per way: column file bytes read
    for (const Way& w : kWays) {
      exec::cuda::clear_column_cache();  // every column uploaded again, by the path under test
      auto db = Database::open(tmp.path());
      StageTimes::instance().reset();
      const QueryResult got = db->query(sql, cuda(w.fast, w.prefetch));
      const StageTotals s = StageTimes::instance().snapshot();
      EXPECT_EQ(got.backend, "cuda");
      EXPECT_TRUE(same(want, got, sql)) << w.name;
      EXPECT_GT(s.bytes_of(ByteCount::kToDevice), 0u);
      if (w.fast) {  // nothing narrowed on the host; the files read are the narrowed ones
        EXPECT_EQ(s.ms_of(Stage::kNarrow), 0.0) << sql;
      } else {
        EXPECT_GT(s.ms_of(Stage::kNarrow), 0.0) << sql;
      }
      // Read ahead and uploaded on several streams only with prefetch on.
      EXPECT_EQ(s.bytes_of(ByteCount::kPrefetched) > 0, w.prefetch) << w.name << " " << sql;
      EXPECT_EQ(s.ms_of(Stage::kUpload) > 0, w.prefetch) << w.name << " " << sql;
      files_read[w.name] = s.bytes_of(ByteCount::kColumnFileRead);
    }
    // The read-ahead reads the files the chunked path reads, each once, and no other.
    EXPECT_EQ(files_read["prefetch"], files_read["chunked"]) << sql;
  }
  exec::cuda::clear_column_cache();
}

// Many small chunks through few streams and little pinned memory (and one stream): the
// chunk hand-out, the buffer alternation and the last short chunk.
TEST(GpuFastLoad, PrefetchWithSmallStagingEqualsTheCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  TempDir tmp;
  make_ssb(tmp.path());
  auto cpu_db = Database::open(tmp.path());
  const std::vector<std::string> queries = ssb_queries();
  for (const char* streams : {"1", "3", "64"})
    for (size_t q : {size_t(0), size_t(10)}) {  // q1.1, q4.1
      const QueryResult want = cpu_db->query(queries[q], on(Backend::kCpu));
      exec::cuda::clear_column_cache();
      auto db = Database::open(tmp.path());
      QueryOptions o = cuda(true, true);
      o.settings.set("upload_streams", streams);
      o.settings.set("upload_staging", "1M");  // 64-512 KiB buffers
      EXPECT_TRUE(same(want, db->query(queries[q], o), queries[q])) << streams << " streams";
    }
  exec::cuda::clear_column_cache();
}

// EXPLAIN plans on the GPU but runs nothing: nothing is read ahead.
TEST(GpuFastLoad, ExplainReadsNothingAhead) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  TempDir tmp;
  make_ssb(tmp.path());
  exec::cuda::clear_column_cache();
  auto db = Database::open(tmp.path());
  StageTimes::instance().reset();
  db->query("explain " + ssb_queries()[0], cuda(true, true));
  EXPECT_EQ(StageTimes::instance().snapshot().bytes_of(ByteCount::kPrefetched), 0u);
  exec::cuda::clear_column_cache();
}

TEST(GpuFastLoad, ACorruptedNarrowedFileFailsTheQuery) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  TempDir tmp;
  make_ssb(tmp.path());
  const std::string sql = ssb_queries()[0];  // q1.1 reads lo_quantity
  const QueryResult want = Database::open(tmp.path())->query(sql, on(Backend::kCpu));
  const std::string nar = nar_of(tmp.path(), "lo_quantity");
  ASSERT_NE(nar, "");
  std::string bytes = read_file(nar);
  bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x01);
  write_file(nar, bytes);
  exec::cuda::clear_column_cache();
  for (const char* prefetch : {"on", "off"})
    for (Backend b : {Backend::kCuda, Backend::kAuto}) {
      auto db = Database::open(tmp.path());
      QueryOptions o = on(b);
      o.settings.set("transfer_cost", "off");  // auto takes the GPU
      o.settings.set("prefetch", prefetch);
      try {
        db->query(sql, o);
        FAIL() << "a query over a corrupted narrowed file answered (prefetch " << prefetch << ")";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::kCatalog) << e.what();
        EXPECT_NE(std::string(e.what()).find("is corrupted"), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
      }
      exec::cuda::clear_column_cache();
    }
  // Today's path reads the intact column file and answers.
  auto db = Database::open(tmp.path());
  EXPECT_TRUE(same(want, db->query(sql, cuda(false)), sql));
  exec::cuda::clear_column_cache();
}

TEST(GpuFastLoad, ADatabaseWithoutNarrowedFilesRuns) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  TempDir tmp;
  make_ssb(tmp.path());
  auto j = nlohmann::json::parse(read_file(tmp.path() + "/manifest.json"));
  for (auto& t : j["tables"])
    for (auto& c : t["columns"]) c.erase("narrowed");
  write_file(tmp.path() + "/manifest.json", persist::Manifest::reseal(j.dump()));
  const std::string sql = ssb_queries()[4];  // q2.2
  const QueryResult want = Database::open(tmp.path())->query(sql, on(Backend::kCpu));
  exec::cuda::clear_column_cache();
  auto db = Database::open(tmp.path());
  StageTimes::instance().reset();
  EXPECT_TRUE(same(want, db->query(sql, cuda(true)), sql));
  EXPECT_GT(StageTimes::instance().snapshot().ms_of(Stage::kNarrow), 0.0);  // narrowed on the fly
  exec::cuda::clear_column_cache();
}

}  // namespace
}  // namespace raydb::test
