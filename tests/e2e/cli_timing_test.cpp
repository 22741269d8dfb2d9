// `raydb query --timing`: the end-to-end breakdown of a one-shot query on the CPU
// backend, from a fresh process. The stages (each excluding those nested in it) sum to
// no more than the wall time from process start, and the bytes agree with the column
// files the manifest lists for the columns the query reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "raydb/raydb.h"
#include "raydb/system.h"
#include "support/fixtures.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

struct Breakdown {
  double end_to_end = -1, stages = -1, other = 0;
  std::map<std::string, double> ms;
  std::map<std::string, long long> minflt;
  std::map<std::string, unsigned long long> bytes;
};

// The breakdowns printed on stderr, one per statement.
std::vector<Breakdown> parse(const std::string& err) {
  std::vector<Breakdown> out;
  for (const std::string& line : split_lines(err)) {
    double a = 0, b = 0, c = 0;
    if (std::sscanf(line.c_str(), "end-to-end: %lf ms, stages %lf ms, other %lf ms", &a, &b, &c) == 3) {
      out.push_back({a, b, c, {}, {}, {}});
      continue;
    }
    if (out.empty()) continue;
    std::istringstream in(line);
    std::string word;
    in >> word;
    if (word == "stage") {
      std::string name, unit, mn;
      double ms = 0;
      long long minflt = 0;
      in >> name >> ms >> unit >> mn >> minflt;
      out.back().ms[name] = ms;
      out.back().minflt[name] = minflt;
    } else if (word == "bytes") {
      std::string name;
      unsigned long long n = 0;
      while (in >> name >> n) out.back().bytes[name] = n;
    }
  }
  return out;
}

// Stored bytes of `table`.`column` as the manifest records them.
unsigned long long manifest_bytes(const std::string& db, const std::string& table, const std::string& column) {
  auto m = nlohmann::json::parse(read_file(db + "/manifest.json"));
  for (auto& t : m["tables"])
    if (t["name"] == table)
      for (auto& c : t["columns"])
        if (c["name"] == column) return c["bytes"].get<unsigned long long>();
  ADD_FAILURE() << "no column " << table << "." << column;
  return 0;
}

TEST(CliTiming, CpuBreakdownAddsUpAndCountsTheColumnsRead) {
  auto& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const std::string q =
      "select sum(lo_extendedprice * lo_discount) as revenue from lineorder, date where lo_orderdate = d_datekey "
      "and d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25";
  // The same statement twice in one process: the second reads no column file again.
  CommandResult r = run_raydb("query --timing --backend cpu --format csv --db " + shell_quote(f.path) + " " +
                              shell_quote(q + "; " + q));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string answer = f.db->query(q, QueryOptions{Backend::kCpu, 0, {}}).get(0, 0).to_string();
  EXPECT_EQ(r.out, "revenue\n" + answer + "\nrevenue\n" + answer + "\n");
  EXPECT_EQ(r.err.find("kernels"), std::string::npos) << r.err;  // no device time on the CPU
  const std::vector<Breakdown> b = parse(r.err);
  ASSERT_EQ(b.size(), 2u) << r.err;

  unsigned long long needed = 0;
  for (const char* c : {"lo_extendedprice", "lo_discount", "lo_orderdate", "lo_quantity"})
    needed += manifest_bytes(f.path, "lineorder", c);
  for (const char* c : {"d_datekey", "d_year"}) needed += manifest_bytes(f.path, "date", c);
  const unsigned long long manifest_size = read_file(f.path + "/manifest.json").size();

  for (size_t i = 0; i < 2; i++) {
    const Breakdown& s = b[i];
    SCOPED_TRACE(i);
    double sum = 0;
    for (auto& [name, ms] : s.ms) {
      EXPECT_GE(ms, 0) << name;
      sum += ms;
    }
    // The stages printed are the stages summed, and they fit in the wall time.
    EXPECT_NEAR(sum, s.stages, 0.01 * double(s.ms.size()));
    EXPECT_LE(s.stages, s.end_to_end + 0.002);
    EXPECT_NEAR(s.other, s.end_to_end - s.stages, 0.002);
    // The CPU backend has no device stages.
    for (const char* dev : {"device_init", "narrow", "pinned_staging", "host_to_device"}) EXPECT_EQ(s.ms.count(dev), 0u) << dev;
    for (const char* st : {"startup", "open", "plan", "execute", "format"}) EXPECT_EQ(s.ms.count(st), 1u) << st;
    EXPECT_EQ(s.bytes.at("needed"), needed);
    EXPECT_EQ(s.bytes.at("to_device"), 0u);
  }
  // First statement: process start-up and the open belong to it, every column file it
  // needs is read once (and checked), and the manifest is read at open.
  EXPECT_GT(b[0].ms.at("startup"), 0);
  EXPECT_GT(b[0].ms.at("open"), 0);
  EXPECT_EQ(b[0].ms.count("read+verify"), 1u);
  EXPECT_EQ(b[0].bytes.at("column_files_read"), needed);
  EXPECT_GE(b[0].bytes.at("read_at_open"), manifest_size);
  // Second statement: nothing opened or read again.
  EXPECT_EQ(b[1].ms.at("startup"), 0);
  EXPECT_EQ(b[1].ms.at("open"), 0);
  EXPECT_EQ(b[1].bytes.at("column_files_read"), 0u);
  EXPECT_EQ(b[1].bytes.at("read_at_open"), 0u);
}

// The ssb fixture's strings are read when a query first uses their dictionary, not at
// open: a query without VARCHAR columns reads the manifest and zone maps only, and the
// first query decoding c_nation reads that dictionary (its bytes, in the open stage).
TEST(CliTiming, DictionariesAreReadWhenFirstUsed) {
  auto& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  auto m = nlohmann::json::parse(read_file(f.path + "/manifest.json"));
  unsigned long long all_dicts = 0, nation_dict = 0, zone_maps = 0;
  for (auto& t : m["tables"])
    for (auto& c : t["columns"]) {
      if (c.contains("dictionary")) all_dicts += c["dictionary"]["bytes"].get<unsigned long long>();
      if (c.contains("zonemap")) zone_maps += c["zonemap"]["bytes"].get<unsigned long long>();
      if (c["name"] == "c_nation") nation_dict = c["dictionary"]["bytes"].get<unsigned long long>();
    }
  ASSERT_GT(nation_dict, 0u);
  const unsigned long long manifest_size = read_file(f.path + "/manifest.json").size();
  const std::string ints = "select count(*), sum(lo_revenue) from lineorder where lo_quantity < 25";
  const std::string strs = "select c_nation, count(*) from customer group by c_nation order by c_nation";
  CommandResult r = run_raydb("query --timing --backend cpu --format csv --db " + shell_quote(f.path) + " " +
                              shell_quote(ints + "; " + strs));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Answers as the in-process database gives them (which read every dictionary it used).
  std::string want = "count(*),sum(lo_revenue)\n" + f.db->query(ints, QueryOptions{Backend::kCpu, 0, {}}).get(0, 0).to_string() + "," +
                     f.db->query(ints, QueryOptions{Backend::kCpu, 0, {}}).get(0, 1).to_string() + "\nc_nation,count(*)\n";
  QueryResult nations = f.db->query(strs, QueryOptions{Backend::kCpu, 0, {}});
  for (size_t i = 0; i < nations.row_count(); i++)
    want += nations.get(i, 0).to_string() + "," + nations.get(i, 1).to_string() + "\n";
  EXPECT_EQ(r.out, want);
  const std::vector<Breakdown> b = parse(r.err);
  ASSERT_EQ(b.size(), 2u) << r.err;
  EXPECT_EQ(b[0].bytes.at("read_at_open"), manifest_size + zone_maps) << r.err;
  EXPECT_LT(b[0].bytes.at("read_at_open"), manifest_size + all_dicts);
  EXPECT_EQ(b[1].bytes.at("read_at_open"), nation_dict) << r.err;
  EXPECT_GT(b[1].ms.at("open"), 0);
}

// --backend cpu never starts the GPU warm-up; a build without CUDA prints no warm-up
// line under auto either, and the answer is the CPU's, with the warm-up on or off.
TEST(CliTiming, NoGpuWarmupLineWithoutTheGpu) {
  auto& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  CommandResult cpu = run_raydb("query --timing --backend cpu --format csv --db " + shell_quote(f.path) +
                                " 'select count(*) from date'");
  ASSERT_EQ(cpu.exit_code, 0) << cpu.err;
  EXPECT_EQ(cpu.err.find("warmup"), std::string::npos) << cpu.err;
  if (system_info().gpus.empty()) {
    CommandResult aut = run_raydb("query --timing --backend auto --format csv --db " + shell_quote(f.path) +
                                  " 'select count(*) from date'");
    ASSERT_EQ(aut.exit_code, 0) << aut.err;
    EXPECT_EQ(aut.out, cpu.out);
    if (!system_info().cuda_built) EXPECT_EQ(aut.err.find("warmup"), std::string::npos) << aut.err;
    // Off by a setting: accepted, same answer.
    CommandResult off = run_raydb("query --backend auto --set device_warmup=off --format csv --db " +
                                  shell_quote(f.path) + " 'select count(*) from date'");
    ASSERT_EQ(off.exit_code, 0) << off.err;
    EXPECT_EQ(off.out, cpu.out);
  }
}

// A one-shot query under auto starts no GPU warm-up, with or without a GPU: the plan
// picks its backend before a warm-up could hide anything, and a CPU run must not pay
// for a device. The GPU backend named keeps it (the line shows only where a GPU is).
TEST(CliTiming, AutoStartsNoGpuWarmupInAOneShotQuery) {
  auto& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const std::string sql = " 'select count(*) from lineorder where lo_quantity < 10'";
  CommandResult cpu = run_raydb("query --backend cpu --format csv --db " + shell_quote(f.path) + sql);
  ASSERT_EQ(cpu.exit_code, 0) << cpu.err;
  CommandResult aut = run_raydb("query --timing --backend auto --format csv --db " + shell_quote(f.path) + sql);
  ASSERT_EQ(aut.exit_code, 0) << aut.err;
  EXPECT_EQ(aut.out, cpu.out);
  EXPECT_EQ(aut.err.find("warmup"), std::string::npos) << aut.err;
}

// The staging size of the CUDA fast load path: whole MiB from 1M to 1G, else one line.
TEST(CliTiming, UploadChunkTakesWholeMebibytes) {
  auto& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const std::string db = " --format csv --db " + shell_quote(f.path) + " 'select count(*) from date'";
  CommandResult ok = run_raydb("query --set upload_chunk=4M" + db);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "count(*)\n2556\n");
  for (const char* bad : {"1500K", "0", "2G", "lots"}) {
    CommandResult r = run_raydb(std::string("query --set upload_chunk=") + bad + db);
    EXPECT_EQ(r.exit_code, 1) << bad;
    EXPECT_EQ(r.err.rfind("error: setting upload_chunk", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// The read-ahead's switches: prefetch on/off, upload_streams 1-64, upload_staging 1M-1G,
// else one line naming the setting (from --set or the environment).
TEST(CliTiming, PrefetchSettingsAreChecked) {
  auto& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const std::string db = " --format csv --db " + shell_quote(f.path) + " 'select count(*) from date'";
  for (const char* good : {"prefetch=off", "prefetch=on", "upload_streams=1", "upload_streams=64", "upload_staging=1M",
                           "upload_staging=3M", "upload_staging=1G"}) {
    CommandResult ok = run_raydb(std::string("query --set ") + good + db);
    ASSERT_EQ(ok.exit_code, 0) << good << ": " << ok.err;
    EXPECT_EQ(ok.out, "count(*)\n2556\n");
  }
  for (const char* bad : {"prefetch=maybe", "upload_streams=0", "upload_streams=65", "upload_streams=x",
                          "upload_staging=512K", "upload_staging=2G", "upload_staging=lots"}) {
    CommandResult r = run_raydb(std::string("query --set ") + bad + db);
    EXPECT_EQ(r.exit_code, 1) << bad;
    const std::string name = std::string(bad).substr(0, std::string(bad).find('='));
    EXPECT_NE(r.err.find("setting " + name), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(CliTiming, WithoutTheFlagNothingIsPrinted) {
  auto& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  CommandResult r = run_raydb("query --backend cpu --db " + shell_quote(f.path) + " 'select count(*) from date'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("stage"), std::string::npos) << r.err;
}

// EXPLAIN ANALYZE carries the same accounting for the run it makes: a database opened
// afresh reads (and checks) the two column files the query needs, once.
TEST(CliTiming, ExplainAnalyzeShowsTheRunsStagesAndBytes) {
  auto& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  auto db = Database::open(f.path);
  const std::string q = "explain analyze select sum(lo_revenue) from lineorder where lo_quantity < 25";
  const unsigned long long needed =
      manifest_bytes(f.path, "lineorder", "lo_revenue") + manifest_bytes(f.path, "lineorder", "lo_quantity");
  QueryResult r = db->query(q, QueryOptions{Backend::kCpu, 0, {}});
  // The driver's admission and access paths are the plan stage, its verification nested.
  EXPECT_NE(r.explain.find("stages: plan "), std::string::npos) << r.explain;
  EXPECT_NE(r.explain.find(" read+verify "), std::string::npos) << r.explain;
  EXPECT_NE(r.explain.find(" execute "), std::string::npos) << r.explain;
  EXPECT_NE(r.explain.find("column_files_read " + std::to_string(needed) + " needed " + std::to_string(needed) +
                           " to_device 0\n"),
            std::string::npos)
      << r.explain;
  // Again: nothing is read from the files a second time.
  r = db->query(q, QueryOptions{Backend::kCpu, 0, {}});
  EXPECT_EQ(r.explain.find("read+verify"), std::string::npos) << r.explain;
  EXPECT_NE(r.explain.find("column_files_read 0 needed " + std::to_string(needed)), std::string::npos) << r.explain;
}

// `bench ssb --one-shot`: each query again in fresh processes, reported beside the
// resident time with the child's bytes, and its answer checked against the first run.
TEST(CliTiming, BenchOneShotReportsFreshProcessesBesideResidentTimes) {
  auto& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  TempDir tmp;
  const std::string json = tmp.file("bench.jsonl");
  CommandResult r = run_raydb("bench ssb --db " + shell_quote(f.path) +
                              " --backend cpu --reps 2 --queries q1.1,q3.2 --one-shot 3 --json " + shell_quote(json));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("one_shot_ms"), std::string::npos) << r.out;
  auto lines = split_lines(read_file(json));
  ASSERT_EQ(lines.size(), 4u);  // the two usual records, then one end_to_end record per query
  unsigned long long q11 = 0;
  for (const char* c : {"lo_extendedprice", "lo_discount", "lo_orderdate", "lo_quantity"})
    q11 += manifest_bytes(f.path, "lineorder", c);
  for (const char* c : {"d_datekey", "d_year"}) q11 += manifest_bytes(f.path, "date", c);
  const char* names[] = {"q1.1", "q3.2"};
  for (size_t i = 0; i < 2; i++) {
    auto j = nlohmann::json::parse(lines[2 + i]);
    SCOPED_TRACE(names[i]);
    EXPECT_EQ(j["query"], names[i]);
    EXPECT_EQ(j["mode"], "end_to_end");
    EXPECT_EQ(j["one_shot_backend"], "cpu");
    EXPECT_EQ(j["verified"], true);
    ASSERT_EQ(j["one_shot_times_ms"].size(), 3u);
    const double m = j["one_shot_ms"].get<double>();
    EXPECT_GT(m, 0);
    // The median of the three runs.
    std::vector<double> t = j["one_shot_times_ms"].get<std::vector<double>>();
    std::sort(t.begin(), t.end());
    EXPECT_DOUBLE_EQ(m, t[1]);
    EXPECT_GT(j["warm_ms"].get<double>(), 0);
    EXPECT_EQ(j["bytes_to_device"], 0);
    EXPECT_EQ(j["bytes_read"], j["bytes_needed"]);
    EXPECT_GT(j["one_shot_stages_ms"]["startup"].get<double>(), 0);
  }
  EXPECT_EQ(nlohmann::json::parse(lines[2])["bytes_needed"].get<unsigned long long>(), q11);
}

}  // namespace
}  // namespace raydb::test
