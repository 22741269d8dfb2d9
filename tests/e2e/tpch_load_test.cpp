// `raydb gen tpch --tbl` then `raydb load tpch` gives the same tables, value for
// value; malformed .tbl input is one error line with file:line.
#include <gtest/gtest.h>

#include <filesystem>

#include "raydb/raydb.h"
#include "storage/loaders/tpch_schema.h"
#include "storage/persist/database_directory.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

TEST(TpchLoad, GeneratedTblLoadsIntoIdenticalTables) {
  TempDir dir;
  const std::string gen_db = dir.file("gen"), tbl = dir.file("tbl"), load_db = dir.file("load");
  CommandResult g = run_raydb("gen tpch --sf 0.01 --seed 5 --threads 2 --db " + gen_db + " --tbl " + tbl);
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_NE(g.out.find("generated TPC-H SF 0.01"), std::string::npos) << g.out;
  CommandResult l = run_raydb("load tpch --db " + load_db + " --tbl " + tbl);
  ASSERT_EQ(l.exit_code, 0) << l.err;
  EXPECT_NE(l.out.find("lineitem: "), std::string::npos) << l.out;

  auto a = Database::open(gen_db);
  auto b = Database::open(load_db);
  for (auto& t : tpch::schema()) {
    SCOPED_TRACE(t.name);
    TablePtr x = a->directory().table(t.name), y = b->directory().table(t.name);
    ASSERT_TRUE(x && y);
    ASSERT_EQ(x->row_count(), y->row_count());
    ASSERT_GT(x->row_count(), 0u);
    ASSERT_EQ(x->column_count(), y->column_count());
    for (size_t c = 0; c < x->column_count(); c++) {
      ASSERT_TRUE(x->column(c).type() == y->column(c).type()) << x->column(c).name();
      for (uint64_t r = 0; r < x->row_count(); r++)
        ASSERT_TRUE(x->column(c).get(r) == y->column(c).get(r))
            << x->column(c).name() << " row " << r << ": " << x->column(c).get(r).to_string() << " vs "
            << y->column(c).get(r).to_string();
    }
  }
}

TEST(TpchLoad, MalformedRowIsOneLineWithFileAndLine) {
  TempDir dir;
  const std::string tbl = dir.file("tbl");
  CommandResult g = run_raydb("gen tpch --sf 0.01 --db " + dir.file("gen") + " --tbl " + tbl);
  ASSERT_EQ(g.exit_code, 0) << g.err;
  std::string nation = read_file(tbl + "/nation.tbl");
  const size_t line3 = nation.find('\n', nation.find('\n') + 1) + 1;
  nation.replace(line3, nation.find('|', line3) - line3, "two");  // n_nationkey is an INTEGER
  write_file(tbl + "/nation.tbl", nation);
  CommandResult l = run_raydb("load tpch --db " + dir.file("load") + " --tbl " + tbl);
  EXPECT_NE(l.exit_code, 0);
  EXPECT_NE(l.err.find("nation.tbl:3"), std::string::npos) << l.err;
  EXPECT_EQ(split_lines(l.err).size(), 1u) << l.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("load") + "/manifest.json")) << "a failed load creates nothing";

  std::filesystem::remove(tbl + "/region.tbl");
  CommandResult m = run_raydb("load tpch --db " + dir.file("load") + " --tbl " + tbl);
  EXPECT_NE(m.exit_code, 0);
  EXPECT_NE(m.err.find("region.tbl"), std::string::npos) << m.err;
}

TEST(TpchBench, ReportsEveryQueryTimedOrNotSupported) {
  TempDir dir;
  const std::string json = dir.file("bench.jsonl");
  CommandResult r = run_raydb("bench tpch --sf 0.01 --db " + dir.file("db") + " --reps 1 --threads 2 --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = split_lines(read_file(json));
  ASSERT_EQ(lines.size(), 22u);
  int timed = 0;
  for (size_t i = 0; i < lines.size(); i++) {
    const std::string& l = lines[i];
    EXPECT_NE(l.find("\"query\":\"q" + std::to_string(i + 1) + "\""), std::string::npos) << l;
    if (l.find("\"status\":\"ok\"") != std::string::npos) {
      EXPECT_NE(l.find("\"median_ms\""), std::string::npos) << l;
      EXPECT_NE(l.find("\"verified\":true"), std::string::npos) << l;
      timed++;
    } else {
      // Not silently dropped: the status and raydb's one-line error, also on stderr.
      ASSERT_NE(l.find("\"status\":\"not supported\",\"error\":\""), std::string::npos) << l;
      EXPECT_NE(r.err.find("q" + std::to_string(i + 1) + ": not supported: "), std::string::npos) << r.err;
    }
  }
  EXPECT_GE(timed, 2);  // q3 and q19 run today
  EXPECT_NE(r.out.find("of 22 queries ran"), std::string::npos) << r.out;
}

// A missing or non-TPC-H --db is an error unless --sf says what to generate there, and
// --sf with a database of another scale factor is one too: never a silent SF 1.
TEST(TpchBench, MissingDatabaseNeedsAScaleFactor) {
  TempDir dir;
  const std::string db = dir.file("db");
  CommandResult missing = run_raydb("bench tpch --db " + db + " --reps 1 --queries q6");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_EQ(split_lines(missing.err).size(), 1u) << missing.err;
  EXPECT_NE(missing.err.find("error: " + db + " does not exist"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("--sf"), std::string::npos) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(db)) << "nothing is created without --sf";

  std::filesystem::create_directory(db);
  CommandResult empty = run_raydb("bench tpch --db " + db + " --reps 1 --queries q6");
  EXPECT_NE(empty.exit_code, 0);
  EXPECT_NE(empty.err.find("holds no complete TPC-H database"), std::string::npos) << empty.err;

  CommandResult made = run_raydb("bench tpch --sf 0.01 --db " + db + " --reps 1 --queries q6 --threads 2");
  ASSERT_EQ(made.exit_code, 0) << made.err;
  EXPECT_NE(made.err.find("generating TPC-H at SF 0.01"), std::string::npos) << made.err;
  CommandResult again = run_raydb("bench tpch --db " + db + " --reps 1 --queries q6 --threads 2");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err.find("generating"), std::string::npos) << again.err;
  CommandResult other = run_raydb("bench tpch --sf 0.02 --db " + db + " --reps 1 --queries q6");
  EXPECT_NE(other.exit_code, 0);
  EXPECT_NE(other.err.find("15000 orders, SF 0.02 has 30000"), std::string::npos) << other.err;
}

TEST(TpchLoad, GenRejectsBadScaleFactor) {
  TempDir dir;
  CommandResult r = run_raydb("gen tpch --sf 0 --db " + dir.file("x"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
}

}  // namespace
}  // namespace raydb::test
