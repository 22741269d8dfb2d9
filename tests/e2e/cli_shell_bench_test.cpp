// The interactive shell (driven through standard input), `bench ssb` JSON lines,
// `ssb` and `info`: real runs of the binary, checked against the API's results.
#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "raydb/raydb.h"
#include "support/fixtures.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

TEST(CliShell, RunsMultiLineStatementsDotCommandsAndSurvivesErrors) {
  auto& f = ssb_fixture("0.01");
  CommandResult r = run_raydb_with_stdin("shell --db " + shell_quote(f.path) + " --format csv",
                                   ".tables\n"
                                   "select count(*) as n\n"
                                   "  from date;\n"
                                   "select nosuchcolumn from date;\n"
                                   ".schema part\n"
                                   "select d_year, count(*) from date group by d_year order by d_year limit 2;\n"
                                   ".quit\n"
                                   "select 1;\n");
  // The bad statement makes the piped session exit non-zero at its end (issue 14).
  ASSERT_EQ(r.exit_code, 1) << r.err;
  // .tables lists the five SSB tables.
  for (const char* t : {"customer", "date", "lineorder", "part", "supplier"})
    EXPECT_NE(r.out.find(std::string(t) + "\n"), std::string::npos) << t;
  // The multi-line statement ran, with the API's answer.
  auto db = Database::open(f.path);
  std::string n = db->query("select count(*) from date").get(0, 0).to_string();
  EXPECT_NE(r.out.find("n\n" + n + "\n"), std::string::npos) << r.out;
  // The bad statement printed one error and the shell went on.
  EXPECT_NE(r.err.find("error:"), std::string::npos);
  EXPECT_NE(r.err.find("nosuchcolumn"), std::string::npos);
  EXPECT_NE(r.out.find("p_brand1 VARCHAR"), std::string::npos);
  EXPECT_NE(r.out.find("1992,"), std::string::npos);
  // Nothing after .quit ran.
  EXPECT_EQ(r.out.find("\n1\n"), std::string::npos) << r.out;
}

TEST(CliBench, SsbWritesVerifiedJsonLinesPerQuery) {
  TempDir tmp;
  std::string json = tmp.file("bench.jsonl");
  CommandResult r = run_raydb("bench ssb --sf 0.01 --db " + shell_quote(tmp.file("db")) +
                              " --backend cpu --reps 3 --queries q1.1,q2.1,q4.3 --json " + shell_quote(json));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = split_lines(read_file(json));
  ASSERT_EQ(lines.size(), 3u);
  auto db = Database::open(tmp.file("db"));
  const char* names[] = {"q1.1", "q2.1", "q4.3"};
  for (size_t i = 0; i < 3; i++) {
    auto j = nlohmann::json::parse(lines[i]);
    EXPECT_EQ(j["query"], names[i]);
    EXPECT_EQ(j["backend"], "cpu");
    EXPECT_EQ(j["reps"], 3);
    EXPECT_EQ(j["times_ms"].size(), 3u);
    EXPECT_TRUE(j["verified"].get<bool>());
    double mn = j["min_ms"], med = j["median_ms"], mx = j["max_ms"];
    EXPECT_LE(mn, med);
    EXPECT_LE(med, mx);
    EXPECT_GT(mn, 0);
    std::string sql = read_file(source_dir() + "/ssb/queries/" + names[i] + ".sql");
    EXPECT_EQ(j["rows"].get<size_t>(), db->query(sql).row_count());
    EXPECT_TRUE(j.contains("machine"));
  }
}

TEST(CliBench, BadArgumentsAreOneLineErrors) {
  for (const char* args : {"bench ssb", "bench ssb --sf 0.01 --reps 0", "bench ssb --sf 0.01 --backend gpu9",
                           "bench nosuch"}) {
    CommandResult r = run_raydb(args);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_EQ(split_lines(r.err).size(), 1u) << args << ": " << r.err;
    EXPECT_EQ(r.err.rfind("error:", 0), 0u) << args << ": " << r.err;
  }
}

TEST(CliSsb, MainJobPrintsEveryQueryAndTheTimingTable) {
  TempDir tmp;
  CommandResult r = run_raydb("ssb --sf 0.01 --reps 1 --db " + shell_quote(tmp.file("db")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int flight = 1; flight <= 4; flight++)
    EXPECT_NE(r.out.find("-- q" + std::to_string(flight) + ".1"), std::string::npos);
  EXPECT_NE(r.out.find("total"), std::string::npos);
  // A second run reuses the database instead of generating again.
  auto before = snapshot_tree(tmp.file("db"));
  CommandResult again = run_raydb("ssb --sf 0.01 --reps 1 --quiet --db " + shell_quote(tmp.file("db")));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(before, snapshot_tree(tmp.file("db")));
  EXPECT_EQ(again.out.find("-- q1.1"), std::string::npos);  // --quiet: table only
}

TEST(CliInfo, ReportsBuildFeaturesAndRtCores) {
  CommandResult r = run_raydb("info");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("raydb "), std::string::npos);
  EXPECT_NE(r.out.find("CUDA"), std::string::npos);
  EXPECT_NE(r.out.find("OptiX"), std::string::npos);
  EXPECT_NE(r.out.find("Embree"), std::string::npos);
  EXPECT_NE(r.out.find("ray-tracing cores:"), std::string::npos);
}

}  // namespace
}  // namespace raydb::test
