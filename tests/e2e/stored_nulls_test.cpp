// Stored NULLs (issue 12): CSV NULL rules (the empty field, quoted "", NULL 'x', NOT
// NULL), the validity bitmap file (written only for columns holding NULLs, checked at
// open, surviving reopen and raydb check), COPY round trips, indexes on nullable
// columns, and UPDATE/DELETE leaving the directory as before on error. Query answers
// are compared with SQLite holding the same rows.
#include <gtest/gtest.h>

#include <filesystem>

#include "raydb/admin.h"
#include "raydb/raydb.h"
#include "support/sqlite_oracle.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

namespace fs = std::filesystem;

class StoredNullsTest : public ::testing::Test {
 protected:
  void SetUp() override { open(); }
  void open() {
    conn_.reset();
    db_.reset();
    db_ = Database::open_or_create(path_);
    conn_ = std::make_unique<Connection>(*db_, QueryOptions{Backend::kCpu});
  }
  void both(const std::string& sql) {
    ASSERT_NO_THROW(conn_->query(sql)) << sql;
    ASSERT_NO_THROW(oracle_.exec(sqlite_dialect(sql))) << sql;
  }
  ::testing::AssertionResult same(const std::string& sql) {
    return matches_sqlite(*db_, oracle_, sql, QueryOptions{Backend::kCpu});
  }
  std::string scalar(const std::string& sql) { return conn_->query(sql).get(0, 0).to_string(); }
  void expect_error(const std::string& sql, const std::string& want) {
    const auto before = snapshot_tree(path_);
    try {
      conn_->query(sql);
      ADD_FAILURE() << "accepted: " << sql;
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(want), std::string::npos) << sql << "\n  got: " << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
    EXPECT_EQ(snapshot_tree(path_), before) << sql;
  }
  std::vector<std::string> files_ending(const std::string& suffix) {
    std::vector<std::string> out;
    for (auto& e : fs::directory_iterator(path_))
      if (e.path().filename().string().ends_with(suffix)) out.push_back(e.path().filename().string());
    return out;
  }

  TempDir tmp_;
  std::string path_ = tmp_.file("db");
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> conn_;
  SqliteOracle oracle_;
};

// The empty unquoted field is NULL in nullable columns, "" is the empty string, and a
// NOT NULL column keeps the old rules (empty VARCHAR, error for numbers).
TEST_F(StoredNullsTest, CsvEmptyFieldsAndQuotes) {
  both("CREATE TABLE t (id INTEGER NOT NULL, a INTEGER, s VARCHAR, n VARCHAR NOT NULL, d DATE, m DECIMAL(6,2), x DOUBLE)");
  const std::string csv = tmp_.file("t.csv");
  write_file(csv, "id,a,s,n,d,m,x\n1,5,abc,,2024-01-01,1.25,0.5\n2,,\"\",q,,,\n3,7,,\"\",2023-05-06,-2,\n4,,,z,,3,1e3\n");
  EXPECT_EQ(scalar("COPY t FROM '" + csv + "' (HEADER)"), "COPY 4");
  oracle_.exec("INSERT INTO t VALUES (1, 5, 'abc', '', '2024-01-01', 1.25, 0.5), (2, NULL, '', 'q', NULL, NULL, NULL), "
               "(3, 7, NULL, '', '2023-05-06', -2, NULL), (4, NULL, NULL, 'z', NULL, 3, 1e3)");
  for (const char* q : {"SELECT * FROM t ORDER BY id", "SELECT count(a), count(s), count(n), count(d), count(m), "
                        "count(x), sum(m), min(s), max(n) FROM t", "SELECT id FROM t WHERE s = '' ORDER BY id",
                        "SELECT id FROM t WHERE s IS NULL OR d IS NULL ORDER BY id",
                        "SELECT s, count(*) FROM t GROUP BY s ORDER BY s"})
    EXPECT_TRUE(same(q)) << q;
  // A NOT NULL number column: an empty field is still an error (nothing written).
  const std::string bad = tmp_.file("bad.csv");
  write_file(bad, "5,1,a,b,2024-01-01,1,1\n,1,a,b,2024-01-01,1,1\n");
  expect_error("COPY t FROM '" + bad + "'", "bad.csv:2: column id (INTEGER): expected an INTEGER, found an empty field");
}

// NULL 'text': that unquoted text is NULL (also in number columns and through the
// integer fast path), the empty field is then the empty string / an error, and the
// text in a NOT NULL column is an error.
TEST_F(StoredNullsTest, CsvNullText) {
  both("CREATE TABLE t (id INTEGER NOT NULL, a BIGINT, s VARCHAR)");
  const std::string csv = tmp_.file("t.csv");
  write_file(csv, "1|NA|x\n2|-1|NA\n3|4|\n4|NA|\"NA\"\n");
  EXPECT_EQ(scalar("COPY t FROM '" + csv + "' (DELIMITER '|', NULL 'NA')"), "COPY 4");
  oracle_.exec("INSERT INTO t VALUES (1, NULL, 'x'), (2, -1, NULL), (3, 4, ''), (4, NULL, 'NA')");
  EXPECT_TRUE(same("SELECT * FROM t ORDER BY id"));
  const std::string minus = tmp_.file("minus.csv");
  write_file(minus, "5,-1,y\n6,7,-1\n");
  EXPECT_EQ(scalar("COPY t FROM '" + minus + "' (NULL '-1')"), "COPY 2");
  oracle_.exec("INSERT INTO t VALUES (5, NULL, 'y'), (6, 7, NULL)");
  EXPECT_TRUE(same("SELECT * FROM t ORDER BY id"));
  const std::string bad = tmp_.file("bad.csv");
  write_file(bad, "7,1,a\nNA,1,a\n");
  expect_error("COPY t FROM '" + bad + "' (NULL 'NA')", "bad.csv:2: column id (INTEGER): NULL ('NA') in a NOT NULL column");
  expect_error("COPY t FROM '" + bad + "' (NULL 'a,b')", "cannot hold a quote, a line break or the delimiter");
}

// COPY TO writes NULL as the NULL text and quotes empty strings; COPY FROM reads the
// file back to the same rows.
TEST_F(StoredNullsTest, CopyRoundTrip) {
  conn_->query("CREATE TABLE t (id INTEGER, s VARCHAR, d DATE, x DOUBLE)");
  conn_->query("INSERT INTO t VALUES (1, NULL, DATE '2024-01-01', NULL), (2, '', NULL, 1.5), (NULL, 'NA', NULL, NULL)");
  const std::string out = tmp_.file("t.csv");
  conn_->query("COPY t TO '" + out + "' (HEADER)");
  EXPECT_EQ(read_file(out), "id,s,d,x\n1,,2024-01-01,\n2,\"\",,1.5\n,NA,,\n");
  const std::string na = tmp_.file("na.csv");
  conn_->query("COPY t TO '" + na + "' (NULL 'NA')");
  EXPECT_EQ(read_file(na), "1,NA,2024-01-01,NA\n2,,NA,1.5\nNA,\"NA\",NA,NA\n");
  conn_->query("CREATE TABLE u (id INTEGER, s VARCHAR, d DATE, x DOUBLE)");
  conn_->query("COPY u FROM '" + out + "' (HEADER)");
  conn_->query("COPY u FROM '" + na + "' (NULL 'NA')");
  const std::string q = "SELECT id, s, d, x, count(*) FROM u GROUP BY id, s, d, x ORDER BY id, s";
  QueryResult r = conn_->query(q);
  QueryResult want = conn_->query("SELECT id, s, d, x, 2 FROM t ORDER BY id, s");
  ASSERT_EQ(r.row_count(), 3u);
  for (size_t row = 0; row < r.row_count(); row++)
    for (size_t c = 0; c < r.column_count(); c++)
      EXPECT_EQ(r.get(row, c).to_string(), want.get(row, c).to_string()) << row << "," << c;
  // A query's result, through the value-by-value path (it holds NULLs).
  const std::string qo = tmp_.file("q.csv");
  conn_->query("COPY (SELECT s, x FROM t ORDER BY id) TO '" + qo + "' (NULL 'none')");
  EXPECT_EQ(read_file(qo), "none,none\n\"\",1.5\nNA,none\n");
}

// The bitmap file exists only for columns holding NULLs (a database without NULLs is
// written as before: format version 1), survives reopening, passes raydb check, and a
// damaged one is a one-line error at open.
TEST_F(StoredNullsTest, ValidityFilesAndReopen) {
  conn_->query("CREATE TABLE plain (a INTEGER, s VARCHAR)");
  conn_->query("INSERT INTO plain VALUES (1, 'x'), (2, 'y')");
  EXPECT_TRUE(files_ending(".valid").empty());
  EXPECT_NE(read_file(path_ + "/manifest.json").find("\"format_version\": 1"), std::string::npos);
  both("CREATE TABLE t (a INTEGER, s VARCHAR, m DECIMAL(5,1) NOT NULL)");
  both("INSERT INTO t VALUES (1, NULL, 1.5), (NULL, 'b', 2), (3, 'c', -1), (NULL, NULL, 0)");
  EXPECT_EQ(files_ending(".valid").size(), 2u);
  EXPECT_NE(read_file(path_ + "/manifest.json").find("\"format_version\": 5"), std::string::npos);
  open();
  for (const char* q : {"SELECT * FROM t ORDER BY m", "SELECT a, count(*) FROM t GROUP BY a ORDER BY a",
                        "SELECT count(a), count(s), min(a), max(s) FROM t"})
    EXPECT_TRUE(same(q)) << q;
  admin::CheckResult check = admin::check_database(path_);
  EXPECT_TRUE(check.problems.empty()) << (check.problems.empty() ? "" : check.problems[0]);
  // Statistics describe the non-NULL values (the placeholders hold the minimum).
  auto stored = db_->directory().table("t");
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->column(0).null_count(), 2u);
  EXPECT_EQ(stored->column(0).stats().min, 1);
  EXPECT_EQ(stored->column(0).stats().max, 3);
  EXPECT_TRUE(stored->column(0).nullable());
  EXPECT_FALSE(stored->column(2).nullable());
  // Flip a bit of a bitmap: the checksum names the file.
  conn_.reset();
  db_.reset();
  const std::string valid = path_ + "/" + files_ending(".valid")[0];
  std::string bits = read_file(valid);
  bits[0] = char(bits[0] ^ 1);
  fs::permissions(valid, fs::perms::owner_write, fs::perm_options::add);
  write_file(valid, bits);
  try {
    Database::open(path_);
    ADD_FAILURE() << "a damaged validity file was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("validity file"), std::string::npos) << e.what();
  }
}

// Indexes are refused on a column holding NULLs; an index whose column gains NULLs
// later is no longer used, and answers stay SQLite's.
TEST_F(StoredNullsTest, IndexesAndNulls) {
  both("CREATE TABLE t (a INTEGER, b INTEGER)");
  both("INSERT INTO t VALUES (1, NULL), (2, 20), (3, 30), (2, 40)");
  expect_error("CREATE INDEX ib ON t (b)", "cannot index column t.b: it holds NULLs");
  conn_->query("CREATE INDEX ia ON t (a) USING SORTED");
  EXPECT_TRUE(same("SELECT b FROM t WHERE a = 2 ORDER BY b"));
  both("INSERT INTO t VALUES (NULL, 50), (NULL, NULL)");
  EXPECT_TRUE(same("SELECT b FROM t WHERE a = 2 ORDER BY b"));
  EXPECT_TRUE(same("SELECT a, b FROM t WHERE a >= 2 OR b > 40 ORDER BY a, b"));
  EXPECT_TRUE(same("SELECT count(*) FROM t WHERE a IS NULL"));
}

// UPDATE and DELETE report the affected rows, and write nothing when no row matches.
TEST_F(StoredNullsTest, UpdateDeleteCounts) {
  both("CREATE TABLE t (id INTEGER NOT NULL, v VARCHAR)");
  both("INSERT INTO t VALUES (1, 'a'), (2, NULL), (3, 'c')");
  EXPECT_EQ(scalar("UPDATE t SET v = 'z' WHERE v IS NULL OR id = 3"), "UPDATE 2");
  oracle_.exec("UPDATE t SET v = 'z' WHERE v IS NULL OR id = 3");
  const auto before = snapshot_tree(path_);
  EXPECT_EQ(scalar("DELETE FROM t WHERE v = 'nothing'"), "DELETE 0");
  EXPECT_EQ(scalar("UPDATE t SET v = NULL WHERE id > 9"), "UPDATE 0");
  EXPECT_EQ(snapshot_tree(path_), before);
  EXPECT_EQ(scalar("DELETE FROM t WHERE v = 'z'"), "DELETE 2");
  oracle_.exec("DELETE FROM t WHERE v = 'z'");
  EXPECT_TRUE(same("SELECT * FROM t"));
  open();
  EXPECT_TRUE(same("SELECT * FROM t"));
}

// `raydb load csv`: NOT NULL in --schema, --null, and the empty field as NULL.
TEST(StoredNullsCli, LoadCsvSchemaAndNullOption) {
  TempDir tmp;
  const std::string db = tmp.file("db"), csv = tmp.file("t.csv");
  write_file(csv, "1,-,x\n2,5,-\n");
  CommandResult r = run_raydb("load csv --db " + db + " --table t --schema 'id INT NOT NULL, a INT, s VARCHAR' --null - " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_raydb(cli::query(db, "SELECT id, coalesce(a, -9) AS a, coalesce(s, 'null') AS s FROM t ORDER BY id",
                           "--format csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,a,s\n1,-9,x\n2,5,null\n");
  write_file(csv, "1,,x\n,5,y\n");
  r = run_raydb("load csv --db " + db + " --table u --schema 'id INT NOT NULL, a INT, s VARCHAR' " + csv);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("t.csv:2: column id (INTEGER): expected an INTEGER, found an empty field"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace raydb::test
