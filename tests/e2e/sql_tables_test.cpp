// Tables in SQL (CREATE TABLE [AS SELECT], INSERT, COPY, DROP TABLE, plain views):
// the same statements run on raydb and on SQLite, then queries over the results are
// compared; errors are one line and leave the directory byte-identical; COPY round
// trips; the catalog survives reopening.
#include <gtest/gtest.h>

#include <filesystem>

#include "raydb/raydb.h"
#include "storage/persist/database_directory.h"
#include "support/sqlite_oracle.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

namespace fs = std::filesystem;

class SqlTablesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = tmp_.file("db");
    db_ = Database::open_or_create(path_);
    conn_ = std::make_unique<Connection>(*db_, QueryOptions{Backend::kCpu});
  }
  // Runs a statement on raydb and (dialect-adjusted) on SQLite.
  void both(const std::string& sql, const std::string& sqlite_sql = "") {
    ASSERT_NO_THROW(conn_->query(sql)) << sql;
    ASSERT_NO_THROW(oracle_.exec(sqlite_sql.empty() ? sqlite_dialect(sql) : sqlite_sql)) << sql;
  }
  ::testing::AssertionResult same(const std::string& sql, const std::string& sqlite_sql = "") {
    return matches_sqlite(*db_, oracle_, sql, QueryOptions{Backend::kCpu}, sqlite_sql);
  }
  // Expects `sql` to fail with a one-line message containing `want`, changing nothing on disk.
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
  std::string scalar(const std::string& sql) { return conn_->query(sql).get(0, 0).to_string(); }

  TempDir tmp_;
  std::string path_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> conn_;
  SqliteOracle oracle_;
};

// Every type, VALUES with several rows, literals read as the column's type, INSERT with
// a column list in another order, INSERT ... SELECT (also from the table itself), CTAS
// with aggregates, all compared with SQLite.
TEST_F(SqlTablesTest, CreateInsertSelectMatchSqlite) {
  both("CREATE TABLE t (id INTEGER NOT NULL, name VARCHAR, price DECIMAL(10,2), day DATE, w DOUBLE, big BIGINT)");
  EXPECT_EQ(scalar("SELECT count(*) FROM t"), "0");
  both("INSERT INTO t VALUES (1, 'apple', 1.25, DATE '2024-01-02', 0.5, 10000000000), "
       "(2, 'pear', 3, '2023-12-31', -2.25, -7), (3, 'fig', 10.5, DATE '2024-02-29', 1e3, 0)");
  both("INSERT INTO t (name, id, big, w, day, price) VALUES ('kiwi', 4, 5, 2, '2020-06-01', 99.99)");
  both("INSERT INTO t SELECT id + 10, name, price * 2, day, w * 3, big - 1 FROM t WHERE id <= 2");
  both("INSERT INTO t SELECT * FROM t WHERE id = 3");  // reads the rows it appends to
  for (const char* q : {"SELECT * FROM t ORDER BY id, name", "SELECT name, count(*), sum(price), min(day), max(w) "
                        "FROM t GROUP BY name ORDER BY name", "SELECT id FROM t WHERE day >= DATE '2024-01-01' "
                        "AND name LIKE '%p%' ORDER BY id", "SELECT sum(big), avg(w) FROM t"})
    EXPECT_TRUE(same(q));
  both("CREATE TABLE agg AS SELECT name, count(*) AS n, sum(id) AS ids FROM t GROUP BY name");
  EXPECT_TRUE(same("SELECT * FROM agg ORDER BY name"));
  both("CREATE TABLE j AS SELECT t.id, agg.n FROM t JOIN agg ON t.name = agg.name WHERE t.id > 1");
  EXPECT_TRUE(same("SELECT * FROM j ORDER BY id"));
  // The stored types of CREATE TABLE AS: SUM over INTEGER (HUGEINT in queries) is BIGINT.
  auto described = db_->directory().table("agg");
  ASSERT_TRUE(described);
  EXPECT_EQ(described->column(1).type().to_string(), "BIGINT");
  EXPECT_EQ(described->column(2).type().to_string(), "BIGINT");
  // Strings appended to a dictionary that already holds some: codes stay in string order.
  both("INSERT INTO t VALUES (20, 'aardvark', 0, '2000-01-01', 0, 0), (21, 'zebra', 0, '2000-01-01', 0, 0)");
  EXPECT_TRUE(same("SELECT name FROM t WHERE name < 'fig' ORDER BY name"));
  EXPECT_TRUE(same("SELECT min(name), max(name) FROM t"));
}

// The data are durable: a new Database over the directory sees the same rows, and
// the manifest names views.
TEST_F(SqlTablesTest, SurvivesReopen) {
  conn_->query("CREATE TABLE t (a INTEGER, s VARCHAR)");
  conn_->query("INSERT INTO t VALUES (1, 'x'), (2, 'y')");
  conn_->query("CREATE VIEW v AS SELECT a * 10 AS a10, s FROM t WHERE a > 1");
  conn_.reset();
  db_.reset();
  auto db = Database::open(path_);
  EXPECT_EQ(db->query("SELECT sum(a) FROM t").get(0, 0).to_string(), "3");
  QueryResult r = db->query("SELECT * FROM v");
  ASSERT_EQ(r.row_count(), 1u);
  EXPECT_EQ(r.get(0, 0).to_string(), "20");
  EXPECT_EQ(r.get(0, 1).to_string(), "y");
}

// PostgreSQL's assignment rules: decimals round half away from zero to the column's
// scale, doubles to integers half to even; strings are parsed as the column's type.
TEST_F(SqlTablesTest, AssignmentRounding) {
  conn_->query("CREATE TABLE r (d DECIMAL(6,2), i INTEGER, b BIGINT, x DOUBLE, s VARCHAR)");
  conn_->query("INSERT INTO r VALUES (1.005, 2.5, 3.5, 7, 42), (-1.005, 3.5, '-12', '0.25', DATE '2024-03-01'), "
               "('4.1', CAST(-2.5 AS DOUBLE), 9223372036854775807, 1, 'x'), (0, -2.5, CAST(2.5 AS DOUBLE), 0, 'y')");
  QueryResult q = conn_->query("SELECT d, i, b, x, s FROM r ORDER BY s");
  std::vector<std::string> got;
  for (size_t row = 0; row < q.row_count(); row++)
    for (size_t c = 0; c < q.column_count(); c++) got.push_back(q.get(row, c).to_string());
  // 2.5 is a NUMERIC literal (rounds away from zero), CAST(.. AS DOUBLE) a float8 (half to even).
  EXPECT_EQ(got, (std::vector<std::string>{"-1.01", "4", "-12", "0.25", "2024-03-01",  //
                                           "1.01", "3", "4", "7", "42",                //
                                           "4.10", "-2", "9223372036854775807", "1", "x",  //
                                           "0.00", "-3", "2", "0", "y"}));
}

TEST_F(SqlTablesTest, ViewsMatchSqlite) {
  both("CREATE TABLE emp (id INTEGER, dept INTEGER, salary INTEGER, name VARCHAR)");
  both("CREATE TABLE dept (id INTEGER, title VARCHAR)");
  both("INSERT INTO emp VALUES (1, 1, 100, 'ann'), (2, 1, 200, 'bob'), (3, 2, 150, 'cy'), (4, 3, 90, 'dee')");
  both("INSERT INTO dept VALUES (1, 'eng'), (2, 'ops')");
  both("CREATE VIEW rich AS SELECT id, name, salary FROM emp WHERE salary >= 100");
  both("CREATE VIEW per_dept AS SELECT dept, count(*) AS n, sum(salary) AS total FROM emp GROUP BY dept");
  both("CREATE VIEW top AS SELECT name FROM rich ORDER BY salary DESC LIMIT 2");  // a view over a view
  for (const char* q : {"SELECT * FROM rich ORDER BY id", "SELECT name FROM rich WHERE salary > 120 ORDER BY name",
                        "SELECT count(*), sum(total) FROM per_dept",
                        "SELECT d.title, p.n, p.total FROM per_dept p JOIN dept d ON p.dept = d.id ORDER BY d.title",
                        "SELECT r.name AS rn, e.dept FROM rich r, emp e WHERE r.id = e.id ORDER BY rn",
                        "SELECT * FROM top ORDER BY name", "SELECT a.name AS x, b.name AS y FROM rich a JOIN rich b "
                        "ON a.salary < b.salary ORDER BY x, y"})
    EXPECT_TRUE(same(q));
  // A view shows the current rows.
  both("INSERT INTO emp VALUES (5, 2, 500, 'eve')");
  EXPECT_TRUE(same("SELECT * FROM per_dept ORDER BY dept"));
  EXPECT_TRUE(same("SELECT * FROM top ORDER BY name"));
  // CREATE TABLE AS and INSERT from a view.
  both("CREATE TABLE snap AS SELECT * FROM per_dept");
  both("INSERT INTO snap SELECT dept + 10, n, total FROM per_dept");
  EXPECT_TRUE(same("SELECT * FROM snap ORDER BY dept"));
  both("DROP VIEW top");
  expect_error("SELECT * FROM top", "unknown table 'top'");
}

TEST_F(SqlTablesTest, CopyRoundTrip) {
  conn_->query("CREATE TABLE t (id INTEGER, s VARCHAR, p DECIMAL(8,3), d DATE, x DOUBLE)");
  conn_->query("INSERT INTO t VALUES (1, 'plain', 1.5, '2024-01-01', 0.1), (2, 'with,comma', -2, '1999-12-31', 1e-7), "
               "(3, 'say \"hi\"', 0.001, '2000-02-29', -3)");
  const std::string out = tmp_.file("t.csv");
  EXPECT_EQ(scalar("COPY t TO '" + out + "' (HEADER)"), "COPY 3");
  EXPECT_EQ(read_file(out), "id,s,p,d,x\n1,plain,1.500,2024-01-01,0.1\n2,\"with,comma\",-2.000,1999-12-31,1e-07\n"
                            "3,\"say \"\"hi\"\"\",0.001,2000-02-29,-3\n");
  conn_->query("CREATE TABLE u (id INTEGER, s VARCHAR, p DECIMAL(8,3), d DATE, x DOUBLE)");
  EXPECT_EQ(scalar("COPY u FROM '" + out + "' (HEADER, DELIMITER ',')"), "COPY 3");
  EXPECT_EQ(scalar("COPY u FROM '" + out + "' WITH (HEADER true)"), "COPY 3");
  QueryResult a = conn_->query("SELECT * FROM t ORDER BY id");
  QueryResult b = conn_->query("SELECT DISTINCT * FROM u ORDER BY id");
  ASSERT_EQ(a.row_count(), b.row_count());
  for (size_t r = 0; r < a.row_count(); r++)
    for (size_t c = 0; c < a.column_count(); c++) EXPECT_EQ(a.get(r, c), b.get(r, c)) << r << "," << c;
  EXPECT_EQ(scalar("SELECT count(*) FROM u"), "6");
  // A query, another delimiter, no header; NULL is an empty field.
  const std::string q = tmp_.file("q.csv");
  conn_->query("COPY (SELECT id, s, CASE WHEN id = 2 THEN NULL ELSE id * 2 END AS k FROM t WHERE id >= 2 ORDER BY id) "
               "TO '" + q + "' (DELIMITER ';')");
  EXPECT_EQ(read_file(q), "2;with,comma;\n3;\"say \"\"hi\"\"\";6\n");
}

// Each bad statement: a one-line error naming the problem, nothing on disk changed.
TEST_F(SqlTablesTest, BadStatementsChangeNothing) {
  conn_->query("CREATE TABLE t (a INTEGER NOT NULL, s VARCHAR, d DATE NOT NULL, m DECIMAL(4,1))");
  conn_->query("INSERT INTO t VALUES (1, 'x', '2024-01-01', 1.5)");
  conn_->query("CREATE VIEW v AS SELECT a FROM t");
  write_file(tmp_.file("bad.csv"), "1,x,2024-01-01,1.5\n2,y,notadate,2\n");
  write_file(tmp_.file("wide.csv"), "1,x,2024-01-01,1.5,9\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"CREATE TABLE t (b INTEGER)", "table t already exists"},
      {"CREATE TABLE T AS SELECT 1 AS x", "table t already exists"},
      {"CREATE TABLE v (b INTEGER)", "v is a view"},
      {"CREATE TABLE n (a INTEGER, A BIGINT)", "is declared twice"},
      {"CREATE TABLE n (a INTEGER DEFAULT 1)", "only NOT NULL"},
      {"CREATE TABLE n (a DECIMAL(20,2))", "DECIMAL"},
      {"CREATE TABLE n (a BLOB)", "unknown type 'blob'"},
      {"CREATE TABLE n AS SELECT a, a FROM t", "two columns are named a"},
      {"CREATE TABLE n AS SELECT NULL AS x FROM t", "column n.x has no type"},
      {"CREATE TABLE n AS SELECT nosuch FROM t", "nosuch"},
      {"DROP TABLE nosuch", "table nosuch does not exist"},
      {"DROP TABLE v", "v is a view, not a table"},
      {"DROP VIEW t", "t is a table, not a view"},
      {"DROP VIEW nosuch", "view nosuch does not exist"},
      {"INSERT INTO nosuch VALUES (1)", "unknown table 'nosuch'"},
      {"INSERT INTO v VALUES (1)", "cannot insert into view v"},
      {"INSERT INTO t VALUES (1, 'x', '2024-01-01')", "fewer expressions than target columns"},
      {"INSERT INTO t VALUES (1, 'x', '2024-01-01', 1, 2)", "more expressions than target columns"},
      {"INSERT INTO t (a, s) VALUES (1, 'x')", "gives no value for NOT NULL column d"},
      {"INSERT INTO t (a, s, d, m, a) VALUES (1, 'x', '2024-01-01', 1, 2)", "column a is given twice"},
      {"INSERT INTO t (a, s, d, zz) VALUES (1, 'x', '2024-01-01', 1)", "table t has no column 'zz'"},
      {"INSERT INTO t VALUES (NULL, 'x', '2024-01-01', 1)", "NULL value in column a of table t violates its NOT NULL"},
      {"INSERT INTO t SELECT a, s, NULL, m FROM t", "NULL value in column d of table t violates its NOT NULL"},
      {"INSERT INTO t VALUES (2147483648, 'x', '2024-01-01', 1)", "out of range for column t.a (INTEGER)"},
      {"INSERT INTO t VALUES (1, 'x', '2024-01-01', 1000)", "out of range for column t.m (DECIMAL(4,1))"},
      {"INSERT INTO t VALUES ('one', 'x', '2024-01-01', 1)", "invalid input for column t.a (INTEGER): 'one'"},
      {"INSERT INTO t VALUES (1, 'x', '2024-02-30', 1)", "invalid input for column t.d (DATE)"},
      {"INSERT INTO t VALUES (1, 'x', 20240101, 1)", "column t.d is of type DATE"},
      {"INSERT INTO t VALUES (1, 'x', DATE '2024-01-01', 1), (2, 'y', DATE '2024-01-01', 1e9)", "out of range"},
      {"INSERT INTO t VALUES (1 / 0, 'x', '2024-01-01', 1)", "division by zero"},
      {"INSERT INTO t SELECT s, s, d, m FROM t", "column t.a is of type INTEGER but the value 'x' is VARCHAR"},
      {"INSERT INTO t SELECT a, s FROM t", "fewer expressions"},
      {"INSERT INTO t VALUES (a, 'x', '2024-01-01', 1)", "a"},
      {"COPY nosuch FROM 'x.csv'", "unknown table 'nosuch'"},
      {"COPY t FROM '" + tmp_.file("missing.csv") + "'", "missing.csv"},
      {"COPY t FROM '" + tmp_.file("bad.csv") + "'", "bad.csv:2"},
      {"COPY t FROM '" + tmp_.file("wide.csv") + "'", "wide.csv:1"},
      {"COPY t FROM 'x.csv' (FORMAT orc)", "not supported"},
      {"COPY t FROM 'x.parquet' (HEADER)", "CSV only"},
      {"COPY t FROM 'x.csv' (DELIMITER ',,')", "one character"},
      {"COPY t FROM 'x.csv' (ESCAPE '\\')", "unknown COPY option"},
      {"COPY (SELECT 1) FROM 'x.csv'", "expected TO"},
      {"COPY t TO '" + tmp_.file("no/such/dir/out.csv") + "'", "out.csv"},
      {"CREATE VIEW v AS SELECT 1 AS one", "view v already exists"},
      {"CREATE VIEW t AS SELECT 1 AS one", "t is a table"},
      {"CREATE VIEW w AS SELECT nosuch FROM t", "nosuch"},
      {"CREATE VIEW w AS SELECT a, a FROM t", "two columns are named a"},
      {"CREATE VIEW w AS SELECT NULL AS x FROM t", "column w.x has no type"},
      {"UPDATE t SET zz = 1", "table t has no column 'zz'"},
      {"UPDATE t SET a = NULL", "NULL value in column a of table t violates its NOT NULL"},
      {"UPDATE t SET a = 1, A = 2", "column a is assigned twice"},
      {"UPDATE t SET a = 'one'", "invalid input for column t.a (INTEGER): 'one'"},
      {"UPDATE t SET a = nosuch", "nosuch"},
      {"UPDATE v SET a = 1", "cannot update view v"},
      {"DELETE FROM v", "cannot delete from view v"},
      {"DELETE FROM nosuch", "unknown table 'nosuch'"},
      {"DELETE FROM t WHERE nosuch = 1", "nosuch"},
      {"DELETE FROM t WHERE a", "must be type BOOLEAN"},
      {"UPDATE t SET a = 1 RETURNING a", "RETURNING is not supported"},
      {"COPY t FROM 'x.csv' (NULL 1)", "the NULL text in single quotes"},
  };
  for (const auto& [sql, want] : cases) expect_error(sql, want);
  EXPECT_FALSE(fs::exists(tmp_.file("no/such/dir")));
  EXPECT_EQ(scalar("SELECT count(*) FROM t"), "1");
}

// Simple views are inlined: the plan reads the base table with the view's and the
// query's filters; views that cannot be inlined (aggregates) are run first. Both give
// SQLite's answers (ViewsMatchSqlite); here the plans say which path was taken.
TEST_F(SqlTablesTest, SimpleViewsAreInlined) {
  both("CREATE TABLE emp (id INTEGER, salary INTEGER, name VARCHAR)");
  both("INSERT INTO emp VALUES (1, 100, 'ann'), (2, 200, 'bob'), (3, 150, 'cy')");
  both("CREATE VIEW rich AS SELECT id, name, salary * 2 AS s2 FROM emp WHERE salary >= 100");
  both("CREATE VIEW per AS SELECT name, count(*) AS n FROM emp GROUP BY name");
  both("CREATE VIEW two AS SELECT 2 AS k, name FROM emp");
  const std::string plan = conn_->query("EXPLAIN SELECT name FROM rich WHERE s2 > 250").explain;
  EXPECT_NE(plan.find("rich.emp.salary * 2) > 250"), std::string::npos) << plan;
  EXPECT_NE(plan.find("rich.emp.salary >= 100"), std::string::npos) << plan;
  const std::string agg = conn_->query("EXPLAIN SELECT n FROM per WHERE n > 0").explain;
  EXPECT_EQ(agg.find("emp"), std::string::npos) << agg;  // the view's rows, computed first
  for (const char* q : {"SELECT name AS n, s2 FROM rich WHERE s2 > 250 ORDER BY n", "SELECT s2 + 1 FROM rich ORDER BY 1",
                        "SELECT r.s2, p.n FROM rich r JOIN per p ON r.name = p.name ORDER BY r.s2",
                        "SELECT count(*), sum(s2) FROM rich", "SELECT * FROM rich ORDER BY id",
                        // an alias that is also a column of the view's table (not of the view)
                        "SELECT name AS salary, count(*) AS n FROM rich GROUP BY salary ORDER BY salary",
                        "SELECT name AS salary FROM rich ORDER BY salary",
                        // a constant column grouped by name, not as ordinal 2
                        "SELECT k, count(*) FROM two GROUP BY k ORDER BY k"})
    EXPECT_TRUE(same(q));
  expect_error("SELECT nosuch FROM rich", "nosuch");
  expect_error("SELECT rich.salary FROM rich", "salary");  // not a column of the view
}

// Simple derived tables (FROM (SELECT ...) alias) are inlined as simple views are: the
// plan reads the base tables with the inner and outer filters; derived tables with
// aggregates, a column list, an outer join or next to another subquery keep the
// materializing path. Every form gives SQLite's answer, NULLs included.
TEST_F(SqlTablesTest, SimpleDerivedTablesAreInlined) {
  both("CREATE TABLE emp (id INTEGER, salary INTEGER, name VARCHAR, dept INTEGER)");
  both("INSERT INTO emp VALUES (1, 100, 'ann', 1), (2, 200, 'bob', 2), (3, 150, 'cy', 1), (4, NULL, 'dee', 2), "
       "(5, 120, NULL, NULL), (6, 300, 'eve', 3)");
  both("CREATE TABLE dept (did INTEGER, dname VARCHAR)");
  both("INSERT INTO dept VALUES (1, 'x'), (2, 'y'), (4, 'z')");
  const std::string plan =
      conn_->query("EXPLAIN SELECT name FROM (SELECT id, name, salary * 2 AS s2 FROM emp WHERE salary >= 100) r "
                   "WHERE s2 > 250")
          .explain;
  EXPECT_NE(plan.find("scan r.emp"), std::string::npos) << plan;  // no derived rows: the table itself
  EXPECT_NE(plan.find("* 2) > 250"), std::string::npos) << plan;
  EXPECT_NE(plan.find(">= 100"), std::string::npos) << plan;
  const std::string agg =
      conn_->query("EXPLAIN SELECT n FROM (SELECT dept, count(*) AS n FROM emp GROUP BY dept) p WHERE n > 1").explain;
  EXPECT_EQ(agg.find("emp"), std::string::npos) << agg;  // the derived rows, computed first
  for (const char* q : {
           "SELECT name, s2 FROM (SELECT id, name, salary * 2 AS s2 FROM emp WHERE salary >= 100) r WHERE s2 > 250",
           // Q9's shape: an aggregate over a join inside the derived table, grouped by its outputs
           "SELECT dn, sum(amount), count(*) FROM (SELECT d.dname AS dn, e.salary - e.id AS amount FROM emp e, dept d "
           "WHERE e.dept = d.did) profit GROUP BY dn ORDER BY dn",
           "SELECT x FROM (SELECT a + 1 AS x FROM (SELECT salary AS a FROM emp WHERE id > 1) i) o ORDER BY x",
           "SELECT a.name, b.name FROM (SELECT name, id FROM emp) a, (SELECT name, id + 1 AS id FROM emp "
           "WHERE salary > 100) b WHERE a.id = b.id ORDER BY a.name",
           "SELECT * FROM (SELECT name, dept FROM emp WHERE dept IS NOT NULL) d ORDER BY name",
           "SELECT d.name, dept.dname FROM (SELECT name, dept FROM emp) d JOIN dept ON d.dept = dept.did ORDER BY 1",
           "SELECT name AS salary, count(*) AS n FROM (SELECT name, salary FROM emp) r GROUP BY name ORDER BY salary",
           // not inlined: a constant column (GROUP BY 2 would name an output), an
           // aggregate, a column list, a LEFT JOIN, a subquery beside it
           "SELECT one, count(*) FROM (SELECT 2 AS one, name FROM emp) d GROUP BY one ORDER BY one",
           "SELECT dept, n FROM (SELECT dept, count(*) AS n FROM emp GROUP BY dept) p WHERE n > 1",
           "SELECT dept.dname, d.name FROM dept LEFT JOIN (SELECT name, dept FROM emp) d ON d.dept = dept.did "
           "ORDER BY 1, 2",
           "SELECT name FROM (SELECT name, salary FROM emp) d WHERE salary > (SELECT avg(salary) FROM emp) ORDER BY 1"})
    EXPECT_TRUE(same(q));
  // SQLite has no column list on a derived table
  EXPECT_TRUE(same("SELECT a, b FROM (SELECT id, name FROM emp) AS r(a, b) WHERE a > 2 ORDER BY a",
                   "SELECT a, b FROM (SELECT id AS a, name AS b FROM emp) AS r WHERE a > 2 ORDER BY a NULLS LAST"));
  expect_error("SELECT nosuch FROM (SELECT name FROM emp) d", "nosuch");
  expect_error("SELECT d.salary FROM (SELECT name FROM emp) d", "salary");  // not a column of the derived table
}

// Views over views nest up to a limit (a clean error past it, never a stack
// overflow); a view whose table was dropped fails with the view's name.
TEST_F(SqlTablesTest, NestedViewsAndDroppedTables) {
  conn_->query("CREATE TABLE t (a INTEGER)");
  conn_->query("INSERT INTO t VALUES (5)");
  conn_->query("CREATE VIEW v1 AS SELECT a FROM t");
  for (int k = 2; k <= 32; k++)
    conn_->query("CREATE VIEW v" + std::to_string(k) + " AS SELECT a + 1 AS a FROM v" + std::to_string(k - 1));
  EXPECT_EQ(scalar("SELECT a FROM v32"), "36");
  expect_error("CREATE VIEW v33 AS SELECT a FROM v32", "nests views more than 32 deep");
  conn_->query("DROP TABLE t");
  expect_error("SELECT * FROM v2", "view v1: unknown table 't'");
}

// Indexes survive INSERT (rebuilt from the new rows), and answers through them stay right.
TEST_F(SqlTablesTest, InsertKeepsIndexes) {
  conn_->query("CREATE TABLE t (k INTEGER, s VARCHAR)");
  conn_->query("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  conn_->query("CREATE INDEX t_k ON t (k) USING SORTED");
  conn_->query("INSERT INTO t VALUES (2, 'bb'), (7, 'g')");
  ASSERT_EQ(db_->directory().indexes().size(), 1u);
  QueryOptions force{Backend::kCpu};
  force.settings.set("index_paths", "force");
  Connection forced(*db_, force);
  QueryResult r = forced.query("SELECT s FROM t WHERE k = 2 ORDER BY s");
  ASSERT_EQ(r.row_count(), 2u);
  EXPECT_EQ(r.get(0, 0).to_string(), "b");
  EXPECT_EQ(r.get(1, 0).to_string(), "bb");
  EXPECT_EQ(forced.query("SELECT count(*) FROM t WHERE k >= 3").get(0, 0).to_string(), "2");
}

// The CLI: --create makes an empty database; errors are one line on stderr.
TEST(SqlTablesCli, CreateFlagAndErrors) {
  TempDir tmp;
  const std::string db = tmp.file("new");
  CommandResult r = run_raydb("query --db " + shell_quote(db) + " " + shell_quote("CREATE TABLE t (a INTEGER)"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(fs::exists(db));
  r = run_raydb("query --create --db " + shell_quote(db) + " --format csv " +
                shell_quote("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (3), (4); SELECT sum(a) AS s FROM t"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("s\n7\n"), std::string::npos) << r.out;
  r = run_raydb("query --db " + shell_quote(db) + " " + shell_quote("CREATE VIEW big AS SELECT a FROM t WHERE a > 3"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_raydb("describe --db " + shell_quote(db));
  EXPECT_NE(r.out.find("view big: SELECT a FROM t WHERE a > 3\n"), std::string::npos) << r.out;
  r = run_raydb("query --db " + shell_quote(db) + " " + shell_quote("INSERT INTO t VALUES (1, 2)"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
}

}  // namespace
}  // namespace raydb::test
