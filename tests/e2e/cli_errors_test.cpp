// Bad input through the `raydb` command: each case must exit non-zero, print exactly one
// line on stderr that starts with "error:" and names the problem, and leave every byte
// of the database directory as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "support/fixtures.h"

namespace raydb::test {
namespace {

namespace fs = std::filesystem;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

::testing::AssertionResult clean_error(const CommandResult& r, const std::vector<std::string>& words) {
  auto fail = [&]() {
    return ::testing::AssertionFailure() << "exit " << r.exit_code << "\n  stderr: [" << r.err << "]\n  stdout: ["
                                         << r.out.substr(0, 500) << "]\n  ";
  };
  if (r.exit_code == 0) return fail() << "expected a non-zero exit";
  if (r.exit_code >= 128) return fail() << "killed by a signal (crash)";
  std::vector<std::string> lines = split_lines(r.err);
  if (lines.size() != 1 || r.err.back() != '\n') return fail() << "expected exactly one line on stderr";
  if (lines[0].rfind("error:", 0) != 0) return fail() << "stderr must start with 'error:'";
  for (const std::string& w : words)
    if (lower(lines[0]).find(lower(w)) == std::string::npos) return fail() << "message lacks '" << w << "'";
  return ::testing::AssertionSuccess();
}

// Each test works on its own copy of the SSB SF 0.01 database and checks at the end
// that the copy is byte-identical to how it started.
class CliErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    std::string src = shared_ssb_database("0.01", error);
    ASSERT_FALSE(src.empty()) << error;
    db_ = tmp_.file("db");
    copy_tree(src, db_);
    before_ = snapshot_tree(db_);
    ASSERT_FALSE(before_.empty());
  }
  void TearDown() override {
    if (!db_.empty()) {
      EXPECT_EQ(snapshot_tree(db_), before_) << "the database directory changed";
    }
  }
  CommandResult query(const std::string& sql, const std::string& extra = "") {
    return run_raydb(cli::query(db_, sql, extra));
  }
  // A column file of the database (the largest one).
  std::string some_column_file() {
    std::string best;
    uintmax_t size = 0;
    for (const auto& e : fs::recursive_directory_iterator(db_))
      if (e.is_regular_file() && e.path().filename() != "manifest.json" && e.file_size() > size) {
        size = e.file_size();
        best = e.path().string();
      }
    return best;
  }

  TempDir tmp_;
  std::string db_;
  std::map<std::string, std::string> before_;
};

TEST_F(CliErrors, MalformedSqlReportsLineAndColumn) {
  EXPECT_TRUE(clean_error(query("select lo_orderkey\nfrom lineorder\nwhere lo_quantity < < 5"), {"line 3", "column 21"}));
  EXPECT_TRUE(clean_error(query("selec * from lineorder"), {"line 1", "column 1"}));
  EXPECT_TRUE(clean_error(query("select count(*) from lineorder where"), {"line 1"}));
  EXPECT_TRUE(clean_error(query("select 'unterminated from lineorder"), {"line 1"}));
}

TEST_F(CliErrors, UnknownTable) { EXPECT_TRUE(clean_error(query("select * from nosuchtable"), {"nosuchtable"})); }

TEST_F(CliErrors, UnknownColumn) {
  EXPECT_TRUE(clean_error(query("select nosuchcolumn from lineorder"), {"nosuchcolumn"}));
  EXPECT_TRUE(clean_error(query("select count(*) from lineorder where lo_nope = 1"), {"lo_nope"}));
  EXPECT_TRUE(clean_error(query("select count(*) from lineorder group by lo_shipmode order by c_city"), {"c_city"}));
}

TEST_F(CliErrors, TypeMismatchStringPlusInteger) {
  EXPECT_TRUE(clean_error(query("select 'abc' + 1 from customer"), {"varchar"}));
  EXPECT_TRUE(clean_error(query("select c_name + 1 from customer"), {"varchar"}));
}

TEST_F(CliErrors, TypeMismatchComparingVarcharWithInteger) {
  EXPECT_TRUE(clean_error(query("select count(*) from customer where c_name = 5"), {"varchar"}));
  // PostgreSQL reports this one as a bad INTEGER literal; any clear one-line error will do.
  EXPECT_TRUE(clean_error(query("select count(*) from customer where c_custkey < 'abc'"), {}));
}

TEST_F(CliErrors, DivisionByZero) {
  EXPECT_TRUE(clean_error(query("select sum(lo_quantity / (lo_discount - lo_discount)) from lineorder"),
                          {"division by zero"}));
  EXPECT_TRUE(clean_error(query("select lo_quantity % 0 from lineorder"), {"division by zero"}));
  EXPECT_TRUE(clean_error(query("select count(*) from lineorder where lo_quantity / 0 > 1"), {"division by zero"}));
}

TEST_F(CliErrors, AggregateMisuse) {
  EXPECT_TRUE(clean_error(query("select lo_shipmode, count(*) from lineorder"), {"lo_shipmode"}));
  EXPECT_TRUE(clean_error(query("select count(*) from lineorder where sum(lo_quantity) > 1"), {"error:"}));
}

TEST_F(CliErrors, UnsupportedSqlIsAClearError) {
  // (outer joins take any ON since session 17; a subquery in it stays an error)
  EXPECT_TRUE(clean_error(query("select count(*) from supplier left join customer on s_suppkey in "
                                "(select c_custkey from customer)"),
                          {"left join", "subquery"}));
  EXPECT_TRUE(clean_error(query("select count(*) from supplier natural join customer"), {"natural join"}));
  EXPECT_TRUE(clean_error(query("with recursive x as (select 1) select * from x"), {"recursive"}));
  // Two statements are a script for `raydb query` now (issue 14): both run
  // (Database::query still takes one statement).
}

TEST_F(CliErrors, QueryStructureErrors) {
  EXPECT_TRUE(clean_error(query("select c_custkey from customer where c_custkey = (select s_suppkey from supplier)"),
                          {"more than one row returned by a subquery used as an expression"}));
  EXPECT_TRUE(clean_error(query("select (select s_suppkey, s_name from supplier limit 1)"),
                          {"subquery must return only one column"}));
  EXPECT_TRUE(clean_error(query("select c_city, c_nation from customer union select s_city from supplier"),
                          {"each union query must have the same number of columns"}));
  EXPECT_TRUE(clean_error(query("select c_city from customer except select s_suppkey from supplier"),
                          {"except types varchar and integer cannot be matched"}));
  EXPECT_TRUE(clean_error(query("with x as (select 1 as a) select * from y"), {"unknown table 'y'"}));
  EXPECT_TRUE(clean_error(query("with x as (select 1 as a), x as (select 2 as a) select * from x"),
                          {"with query name 'x' specified more than once"}));
  EXPECT_TRUE(clean_error(query("with x (a, b) as (select 1 as a) select * from x"),
                          {"2 columns specified"}));
  EXPECT_TRUE(clean_error(query("select * from (select c_city, s_city as c_city from customer, supplier) d"),
                          {"two columns are named c_city"}));
  EXPECT_TRUE(clean_error(query("with x as (select * from x) select * from x"), {"unknown table 'x'"}));
  EXPECT_TRUE(clean_error(query("select * from (select 1 as a"), {"line 1"}));
  // Correlated shapes that are not decorrelated are refused, never run row by row.
  EXPECT_TRUE(clean_error(query("select s_suppkey from supplier s, customer c where 0 = (select count(*) from "
                                "lineorder where lo_suppkey = s.s_suppkey and lo_custkey < c.c_custkey)"),
                          {"correlated subquery", "it reads columns of two outer tables"}));
  EXPECT_TRUE(clean_error(query("select s_city, (select max(lo_revenue) from lineorder where lo_suppkey = s_city) "
                                "from supplier group by s_city"),
                          {"correlated subquery is supported in where", "without group by"}));
  EXPECT_TRUE(clean_error(query("select count(*) from supplier where s_suppkey not in (select lo_suppkey from "
                                "lineorder where lo_custkey < s_suppkey)"),
                          {"correlated subquery", "NOT IN"}));
}

TEST_F(CliErrors, CorruptedManifest) {
  std::string manifest = db_ + "/manifest.json";
  ASSERT_TRUE(fs::exists(manifest));
  write_file(manifest, "{ this is not json \x01\x02");
  before_ = snapshot_tree(db_);
  EXPECT_TRUE(clean_error(query("select count(*) from lineorder"), {"manifest"}));
  EXPECT_TRUE(clean_error(run_raydb("describe --db " + shell_quote(db_)), {"manifest"}));
}

TEST_F(CliErrors, ManifestOfWrongShape) {
  write_file(db_ + "/manifest.json", "[1, 2, 3]\n");
  before_ = snapshot_tree(db_);
  EXPECT_TRUE(clean_error(query("select count(*) from lineorder"), {"manifest"}));
}

TEST_F(CliErrors, TruncatedColumnFile) {
  std::string file = some_column_file();
  ASSERT_FALSE(file.empty());
  fs::resize_file(file, fs::file_size(file) / 2);
  before_ = snapshot_tree(db_);
  EXPECT_TRUE(clean_error(query("select sum(lo_revenue), count(*) from lineorder, customer, supplier, part, date "
                                "where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey "
                                "and lo_orderdate = d_datekey"),
                          {}));
}

TEST_F(CliErrors, MissingColumnFile) {
  std::string file = some_column_file();
  ASSERT_FALSE(file.empty());
  fs::remove(file);
  before_ = snapshot_tree(db_);
  EXPECT_TRUE(clean_error(query("select count(*) from lineorder"), {fs::path(file).filename().string()}));
}

TEST_F(CliErrors, BadFlagsBackendsFormats) {
  EXPECT_TRUE(clean_error(query("select count(*) from lineorder", "--no-such-flag"), {"no-such-flag"}));
  EXPECT_TRUE(clean_error(query("select count(*) from lineorder", "--backend quantum"), {"quantum"}));
  EXPECT_TRUE(clean_error(query("select count(*) from lineorder", "--format xml"), {"xml"}));
  EXPECT_TRUE(clean_error(run_raydb("query --db " + shell_quote(db_)), {}));  // no SQL
  EXPECT_TRUE(clean_error(run_raydb("query --db " + shell_quote(db_) + " --threads many 'select 1'"), {"threads"}));
}

TEST(CliCommands, UnknownCommandIsNamed) {
  EXPECT_TRUE(clean_error(run_raydb("frobnicate"), {"frobnicate"}));
  EXPECT_TRUE(clean_error(run_raydb("gen nosuchbench --db /tmp/x"), {"nosuchbench"}));
}

TEST_F(CliErrors, LoadCsvMissingFileLeavesDatabaseAlone) {
  std::string missing = tmp_.file("no-such.csv");
  EXPECT_TRUE(clean_error(run_raydb(cli::load_csv(db_, "t", "a INTEGER", missing)), {"no-such.csv"}));
}

TEST_F(CliErrors, LoadCsvMalformedRowsLeaveDatabaseAlone) {
  // Wrong column count, a non-number, an INTEGER out of range: file:line of the bad row.
  struct Bad {
    const char* content;
    const char* where;
  };
  for (const Bad& b : {Bad{"a,b\n1,x\n2\n", "bad.csv:3"}, Bad{"a,b\n1,x\nzz,y\n", "bad.csv:3"},
                       Bad{"a,b\n99999999999,x\n", "bad.csv:2"}, Bad{"a,b\n1,x,extra\n", "bad.csv:2"}}) {
    SCOPED_TRACE(b.content);
    std::string file = tmp_.file("bad.csv");
    write_file(file, b.content);
    EXPECT_TRUE(clean_error(run_raydb(cli::load_csv(db_, "t", "a INTEGER, b VARCHAR", file)), {b.where}));
  }
  // The table never appeared.
  EXPECT_TRUE(clean_error(query("select * from t"), {"t"}));
}

// Paths that are not databases at all.
TEST(CliDatabasePaths, DirectoryThatIsNotADatabase) {
  TempDir tmp;
  write_file(tmp.file("notes.txt"), "hello\n");
  auto before = snapshot_tree(tmp.path());
  EXPECT_TRUE(clean_error(run_raydb(cli::query(tmp.path(), "select 1 from lineorder")), {tmp.path()}));
  EXPECT_TRUE(clean_error(run_raydb("describe --db " + shell_quote(tmp.path())), {tmp.path()}));
  // Loading into a non-empty directory that is not a database must not turn it into one.
  write_file(tmp.file("x.csv"), "a\n1\n");
  before = snapshot_tree(tmp.path());
  EXPECT_TRUE(clean_error(run_raydb(cli::load_csv(tmp.path(), "t", "a INTEGER", tmp.file("x.csv"))), {tmp.path()}));
  EXPECT_EQ(snapshot_tree(tmp.path()), before);
}

TEST(CliDatabasePaths, MissingDirectory) {
  TempDir tmp;
  std::string missing = tmp.file("does-not-exist");
  EXPECT_TRUE(clean_error(run_raydb(cli::query(missing, "select 1 from lineorder")), {missing}));
  EXPECT_FALSE(fs::exists(missing)) << "a query must not create the database";
}

TEST(CliDatabasePaths, FileInsteadOfDirectory) {
  TempDir tmp;
  write_file(tmp.file("plain"), "not a directory\n");
  auto before = snapshot_tree(tmp.path());
  EXPECT_TRUE(clean_error(run_raydb(cli::query(tmp.file("plain"), "select 1 from lineorder")), {tmp.file("plain")}));
  EXPECT_EQ(snapshot_tree(tmp.path()), before);
}

}  // namespace
}  // namespace raydb::test
