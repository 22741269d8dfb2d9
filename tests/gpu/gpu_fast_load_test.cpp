// The fast load path on a real device (exec/cuda/narrowed_upload.h): a fresh SSB
// database (with narrowed files) answers the 13 queries on the CUDA backend with
// fast_load on and off exactly as the CPU backend does; the fast path narrows nothing
// on the host and reads the narrowed files; a flipped byte in a narrowed file fails
// the CUDA query with a one-line error instead of an answer; a database without
// narrowed files (an older one) still runs on the GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

QueryOptions cuda(bool fast) {
  QueryOptions o = on(Backend::kCuda);
  o.settings.set("fast_load", fast ? "on" : "off");
  return o;
}

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
    for (bool fast : {true, false}) {
      exec::cuda::clear_column_cache();  // every column uploaded again, by the path under test
      auto db = Database::open(tmp.path());
      StageTimes::instance().reset();
      const QueryResult got = db->query(sql, cuda(fast));
      const StageTotals s = StageTimes::instance().snapshot();
      EXPECT_EQ(got.backend, "cuda");
      EXPECT_TRUE(same(want, got, sql)) << "fast_load " << fast;
      EXPECT_GT(s.bytes_of(ByteCount::kToDevice), 0u);
      if (fast)  // nothing narrowed on the host; the files read are the narrowed ones
        EXPECT_EQ(s.ms_of(Stage::kNarrow), 0.0) << sql;
      else
        EXPECT_GT(s.ms_of(Stage::kNarrow), 0.0) << sql;
    }
  }
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
  for (Backend b : {Backend::kCuda, Backend::kAuto}) {
    auto db = Database::open(tmp.path());
    QueryOptions o = on(b);
    o.settings.set("transfer_cost", "off");  // auto takes the GPU
    try {
      db->query(sql, o);
      FAIL() << "a query over a corrupted narrowed file answered";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kCatalog) << e.what();
      EXPECT_NE(std::string(e.what()).find("is corrupted"), std::string::npos) << e.what();
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
