// kill -9 during INSERT ... SELECT, CREATE TABLE AS, COPY FROM, UPDATE and DELETE (raydb query as a
// child process): afterwards the database is either byte for byte what it was before
// the statement, or holds exactly what the completed statement writes; never a mix.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <set>
#include <thread>

#include "storage/persist/database_directory.h"
#include "storage_test_util.h"

namespace raydb::test {
namespace {

constexpr int kRows = 60000;
constexpr int kCols = 32;

// A wide table: every statement rewrites kCols column files (each fsynced), so the
// window between the first new file and the manifest rename is wide enough to hit.
std::string wide_csv(int rows, int offset) {
  std::string text;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < kCols; c++)
      text += std::to_string((r * 31 + c * 7 + offset) % 1000003) + (c + 1 < kCols ? "," : "\n");
  return text;
}

class SqlKillTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    write_file(tmp_.file("wide.csv"), wide_csv(kRows, 0));
    write_file(tmp_.file("more.csv"), wide_csv(kRows, 5));
    std::string schema;
    for (int c = 0; c < kCols; c++) schema += (c ? ", c" : "c") + std::to_string(c) + " INT";
    auto r = run_raydb("load csv --db " + shell_quote(pristine_) + " --table wide --schema " + shell_quote(schema) +
                       " " + shell_quote(tmp_.file("wide.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  std::string statement() const {
    const std::string s = GetParam();
    if (s == "insert") return "INSERT INTO wide SELECT * FROM wide";
    if (s == "ctas") return "CREATE TABLE wide2 AS SELECT * FROM wide WHERE c0 >= 0";
    if (s == "update") return "UPDATE wide SET c1 = c1 + 1, c2 = NULL WHERE c0 % 2 = 0";
    if (s == "delete") return "DELETE FROM wide WHERE c0 % 3 = 0";
    return "COPY wide FROM '" + tmp_.file("more.csv") + "'";
  }
  std::string target() const { return std::string(GetParam()) == "ctas" ? "wide2" : "wide"; }

  TempDir tmp_;
  std::string pristine_ = tmp_.file("pristine");
};

TEST_P(SqlKillTest, LeavesBeforeOrAfterNeverBetween) {
  // What the completed statement leaves, run once to the end on a copy.
  const std::string done = tmp_.file("done");
  copy_tree(pristine_, done);
  CommandResult full = run_raydb("query --db " + shell_quote(done) + " " + shell_quote(statement()));
  ASSERT_EQ(full.exit_code, 0) << full.err;
  auto after = DatabaseDirectory::open(done);
  ASSERT_TRUE(after->table(target()));
  const auto before = snapshot_dir(pristine_);
  const TablePtr original = DatabaseDirectory::open(pristine_)->table("wide");

  bool killed_while_writing = false;
  for (int attempt = 0; attempt < 6 && !killed_while_writing; attempt++) {
    const std::string db = tmp_.file("run" + std::to_string(attempt));
    copy_tree(pristine_, db);
    // Early kills (while the SELECT or the CSV read runs) on the first attempts, then
    // as soon as the commit wrote its first new file.
    pid_t pid = spawn_raydb({"query", "--db", db, statement()});
    bool wrote = false;
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      int status;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        break;
      }
      wrote = has_data_files_beyond(db, before);
      if ((attempt < 2 && std::chrono::steady_clock::now() - start > std::chrono::milliseconds(20 + 40 * attempt)) ||
          wrote) {
        kill(pid, SIGKILL);
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    if (pid >= 0) {
      int status = 0;
      ASSERT_EQ(waitpid(pid, &status, 0), pid);
      ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    }
    const auto killed = snapshot_dir(db);
    auto reopened = DatabaseDirectory::open(db);
    if (killed.at("manifest.json") == before.at("manifest.json")) {
      // Before: every file the old manifest names is unchanged, and reopening removes
      // the leftovers, so the directory is byte-identical to before.
      for (auto& [name, digest] : before) EXPECT_EQ(killed.at(name), digest) << name;
      EXPECT_EQ(snapshot_dir(db), before);
      expect_tables_equal(*original, *reopened->table("wide"));
      EXPECT_FALSE(reopened->table("wide2"));
      if (wrote && pid >= 0) killed_while_writing = true;
    } else {
      // After: exactly the completed statement's tables.
      EXPECT_EQ(reopened->table_names(), after->table_names());
      for (const std::string& t : after->table_names()) expect_tables_equal(*after->table(t), *reopened->table(t));
    }
  }
  EXPECT_TRUE(killed_while_writing) << "never caught the commit while it wrote files";
}

INSTANTIATE_TEST_SUITE_P(Statements, SqlKillTest, ::testing::Values("insert", "ctas", "copy", "update", "delete"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace raydb::test

namespace raydb::test {
namespace {

// Concurrent INSERTs and COPYs into one table (separate processes) all land: each
// appends to the table as the directory lock finds it.
TEST(SqlConcurrency, ConcurrentAppendsAllLand) {
  TempDir tmp;
  const std::string db = tmp.file("db");
  CommandResult r = run_raydb("query --create --db " + shell_quote(db) + " " +
                              shell_quote("CREATE TABLE t (k INTEGER, s VARCHAR)"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  write_file(tmp.file("rows.csv"), "100,csv-a\n101,csv-b\n");
  const int n = 6;
  std::vector<pid_t> pids;
  for (int k = 0; k < n; k++) {
    const std::string sql = k % 3 == 2 ? "COPY t FROM '" + tmp.file("rows.csv") + "'"
                                       : "INSERT INTO t VALUES (" + std::to_string(k) + ", 's" + std::to_string(k) + "')";
    pids.push_back(spawn_raydb({"query", "--db", db, sql}, tmp.file("err" + std::to_string(k))));
  }
  for (int k = 0; k < n; k++) {
    int status = 0;
    ASSERT_EQ(waitpid(pids[size_t(k)], &status, 0), pids[size_t(k)]);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_file(tmp.file("err" + std::to_string(k)));
  }
  TablePtr t = DatabaseDirectory::open(db)->table("t");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->row_count(), 4u * 1 + 2u * 2);  // four single-row INSERTs, two 2-row COPYs
  std::multiset<std::string> got;
  for (uint64_t row = 0; row < t->row_count(); row++) got.insert(t->column(1).get(row).to_string());
  EXPECT_EQ(got, (std::multiset<std::string>{"s0", "s1", "s3", "s4", "csv-a", "csv-b", "csv-a", "csv-b"}));
}

}  // namespace
}  // namespace raydb::test
