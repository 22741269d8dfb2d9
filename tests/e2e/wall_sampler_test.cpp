// RAYDB_SAMPLE (common/wall_sampler.h): a benchmark's timed runs leave stacks in the
// file, and scripts/sample_report.py names their frames from the binary's symbols (the
// query's own functions among them).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "support/test_support.h"

namespace raydb::test {
namespace {

TEST(WallSampler, BenchRunsLeaveNamedStacks) {
  TempDir tmp;
  const std::string samples = tmp.file("samples.txt"), report = tmp.file("report.txt");
  const std::string bench = std::string("RAYDB_QUIET=1 RAYDB_SAMPLE=") + samples + " RAYDB_SAMPLE_US=100 " +
                            RAYDB_BINARY + " bench tpch --sf 0.01 --db " + tmp.file("db") +
                            " --backend cpu --threads 1 --queries q1,q3 --reps 30 >/dev/null 2>" + tmp.file("err");
  ASSERT_EQ(std::system(bench.c_str()), 0) << read_file(tmp.file("err"));
  const std::string text = read_file(samples);
  EXPECT_NE(text.find("M 0 "), std::string::npos);
  ASSERT_NE(text.find("\nS "), std::string::npos) << "no samples: " << read_file(tmp.file("err"));
  const std::string cmd = "python3 " + source_dir() + "/scripts/sample_report.py " + samples + " --binary " +
                          RAYDB_BINARY + " --top 400 --under time_query > " + report + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read_file(report);
  const std::string out = read_file(report);
  EXPECT_NE(out.find("samples"), std::string::npos) << out;
  // Only timed runs are sampled, so the benchmark's timing loop is on the stacks.
  EXPECT_NE(out.find("raydb::bench::time_query"), std::string::npos) << out;
  EXPECT_NE(out.find("raydb::Database::query"), std::string::npos) << out;
}

}  // namespace
}  // namespace raydb::test
