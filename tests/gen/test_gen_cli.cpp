// `raydb gen ssb`: flags, errors, and what lands in the database directory.
#include <gtest/gtest.h>

#include <filesystem>

#include "gen/ssb/generator.h"
#include "gen/ssb_oracle.h"
#include "storage/persist/database_directory.h"
#include "support/test_support.h"

namespace raydb {
namespace {

using test::run_raydb;

void expect_invalid(const std::string& args, const std::string& message) {
  test::TempDir dir;
  std::string db = dir.file("db");
  auto r = run_raydb("gen ssb --db " + db + " " + args);
  EXPECT_EQ(r.exit_code, 1) << args << ": " << r.err;
  EXPECT_EQ(r.err.rfind("error: " + message, 0), 0u) << args << ": " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db)) << "a rejected command created " << db;
}

TEST(GenCli, RejectsBadFlagsWithOneLine) {
  expect_invalid("--sf 0", "--sf must be a positive number, got '0'");
  expect_invalid("--sf -1", "--sf must be a positive number, got '-1'");
  expect_invalid("--sf abc", "--sf must be a positive number, got 'abc'");
  expect_invalid("--sf 1x", "--sf must be a positive number, got '1x'");
  expect_invalid("--sf nan", "--sf must be a positive number, got 'nan'");
  expect_invalid("--sf 100000", "scale factor 100000 is too large");
  expect_invalid("--sf 0.01 --threads 0", "--threads must be a positive integer, got '0'");
  expect_invalid("--sf 0.01 --threads two", "--threads must be a positive integer, got 'two'");
  expect_invalid("--sf 0.01 --seed -3", "--seed must be a non-negative integer, got '-3'");
}

TEST(GenCli, RefusesADirectoryThatIsNotADatabase) {
  test::TempDir dir;
  test::write_file(dir.file("notes.txt"), "mine");
  auto r = run_raydb("gen ssb --sf 0.01 --db " + dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("manifest.json")));
  EXPECT_EQ(test::read_file(dir.file("notes.txt")), "mine");
}

TEST(GenCli, MissingDbIsAUsageError) {
  auto r = run_raydb("gen ssb --sf 0.01");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--db"), std::string::npos) << r.err;
}

TEST(GenCli, WritesTheDatabaseAndTblFiles) {
  test::TempDir dir;
  auto r = run_raydb("gen ssb --sf 0.01 --seed 5 --threads 2 --db " + dir.file("db") + " --tbl " + dir.file("tbl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ssb::GenOptions o;
  o.scale_factor = 0.01;
  o.seed = 5;
  o.progress = false;
  auto expected = ssb::generate(o);
  auto db = DatabaseDirectory::open(dir.file("db"));
  EXPECT_EQ(db->table_names(), (std::vector<std::string>{"customer", "date", "lineorder", "part", "supplier"}));
  for (auto& t : expected) {
    TablePtr stored = db->table(t->name());
    ASSERT_TRUE(stored) << t->name();
    ASSERT_EQ(stored->row_count(), t->row_count()) << t->name();
    for (size_t c = 0; c < t->column_count(); c++)
      for (uint64_t row : {uint64_t(0), t->row_count() / 2, t->row_count() - 1})
        EXPECT_TRUE(stored->column(c).get(row) == t->column(c).get(row)) << t->name() << "." << t->column(c).name();
    EXPECT_TRUE(std::filesystem::exists(dir.file("tbl/" + t->name() + ".tbl")));
  }
  // Generating again replaces the tables.
  r = run_raydb("gen ssb --sf 0.01 --seed 5 --db " + dir.file("db"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(DatabaseDirectory::open(dir.file("db"))->table("lineorder")->row_count(),
            expected[0]->row_count());
}

}  // namespace
}  // namespace raydb
