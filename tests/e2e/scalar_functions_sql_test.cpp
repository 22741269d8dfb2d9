// Scalar functions in SQL (issue 12) on the CPU backend against DuckDB, the oracle for
// what SQLite lacks or defines differently: extract/date_part/year(), date_trunc,
// DATE +- INTERVAL with month-end clamping and leap years, floor/ceil/round of every
// numeric type, UTF-8 length/upper/lower/strpos, substring forms, ILIKE, concat, casts
// between text and numbers/dates. NULLs come from nullif/CASE (stored columns hold
// none). Where raydb follows PostgreSQL and DuckDB differs (substring with a start
// below 1; DATE results where DuckDB answers TIMESTAMP), the DuckDB side of the pair
// computes PostgreSQL's answer from its own functions. The SQLite-checked cases are
// in tests/sqllogictest/sql/scalar_functions.test. DuckDB runs in a python3
// subprocess (tests/support/duckdb_oracle.py; `pip install duckdb`); without it the
// tests report Skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "raydb/raydb.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

const char* kSchema = "id INTEGER, g INTEGER, i INTEGER, b BIGINT, d DOUBLE, m DECIMAL(12,2), s VARCHAR, dt DATE";
const std::vector<std::pair<std::string, std::string>> kColumns = {
    {"id", "INTEGER"}, {"g", "INTEGER"}, {"i", "INTEGER"}, {"b", "BIGINT"}, {"d", "DOUBLE"},
    {"m", "DECIMAL(12,2)"}, {"s", "VARCHAR"}, {"dt", "DATE"}};

// 600 rows: month ends, leap days and century years among random dates; doubles and
// decimals on .5 boundaries; strings with UTF-8, padding, mixed case and digits.
std::string make_csv() {
  std::mt19937_64 rng(12);
  const char* dates[] = {"2024-01-31", "2024-02-29", "2023-02-28", "2000-02-29", "1900-02-28", "1999-12-31",
                         "2024-03-31", "1995-05-31", "1992-01-01", "1998-12-01", "2023-10-31", "1970-01-01"};
  const char* doubles[] = {"2.5", "-2.5", "0.5", "-0.5", "0.125", "1.005", "1234.5678", "-1234.5678", "15.0",
                           "-0.0", "99.95", "1e15"};
  const char* decimals[] = {"0.05", "-0.05", "12.35", "-12.35", "99.95", "-99.95", "0.00", "15.00", "1234567.89"};
  // No empty string and no commas: DuckDB's CSV reader reads an empty field as NULL.
  const char* words[] = {"héllo wörld", "ÀÉÎ ÕÜ", "Ωmega", "Ärger öl", "MiXeD Case", " pad ", "x_y%z", "42",
                         " -17 ", "3.25", "1995-06-30", "abc", "ABC", "naïve café", "日本語テキスト", "a  b"};
  std::string csv = "id,g,i,b,d,m,s,dt\n";
  char line[512];
  for (int r = 0; r < 600; r++) {
    const long long i = int64_t(rng() % 20001) - 10000;
    const long long b = (int64_t(rng() % 2000001) - 1000000) * 1000003;
    std::string d = rng() % 3 == 0 ? doubles[rng() % 12] : std::to_string(double(int64_t(rng() % 200000) - 100000) / 64);
    std::string m = rng() % 3 == 0 ? decimals[rng() % 9]
                                   : std::to_string(int64_t(rng() % 2000001) - 1000000) ;
    if (m.find('.') == std::string::npos) {  // cents
      long long c = std::stoll(m);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s%lld.%02lld", c < 0 ? "-" : "", std::llabs(c) / 100, std::llabs(c) % 100);
      m = buf;
    }
    std::string dt;
    if (rng() % 3 == 0) {
      dt = dates[rng() % 12];
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", 1990 + int(rng() % 40), 1 + int(rng() % 12), 1 + int(rng() % 28));
      dt = buf;
    }
    std::snprintf(line, sizeof line, "%d,%d,%lld,%lld,%s,%s,%s,%s\n", r, int(rng() % 7), i, b, d.c_str(), m.c_str(),
                  words[rng() % 16], dt.c_str());
    csv += line;
  }
  return csv;
}

// raydb's and DuckDB's text of one value agree: DOUBLE by value (-0.0 equals 0.0, as
// SQL compares them), everything else as text.
bool same_value(const Value& v, const nlohmann::json& oracle) {
  if (v.is_null()) return oracle.is_null();
  if (oracle.is_null()) return false;
  const std::string o = oracle.get<std::string>();
  if (v.type().id != TypeId::kDouble) return v.to_string() == o;
  const double a = v.as_double(), b = std::strtod(o.c_str(), nullptr);
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b;
}

using Pairs = std::vector<std::pair<std::string, std::string>>;
Pairs same(const std::vector<std::string>& sqls) {
  Pairs out;
  for (auto& s : sqls) out.push_back({s, s});
  return out;
}

// The query pairs of each test: (raydb SQL, DuckDB SQL).
Pairs AbsRoundFloorCeil() {
  return same({
      "select id, abs(i), abs(b), abs(d), abs(m) from t order by id",
      "select id, round(d), round(d, 2), round(d, 1), round(d, -1), round(d, -2) from t order by id",
      "select id, round(m), round(m, 1), round(m, 2), round(m, 5), round(m, -1), round(m, -3) from t order by id",
      "select id, round(i), round(i, 2), round(i, -1), round(i, -2), round(b, -3) from t order by id",
      "select id, floor(d), ceil(d), ceiling(d), floor(m), ceil(m), floor(i), ceil(b) from t order by id",
      "select g, sum(round(m, 1)), max(abs(m)), min(floor(m)) from t group by g order by g",
      "select round(-0.5), round(0.5), round(2.5::double), round(-2.5::double), round(1.005::double, 2), "
      "round(12.345, 2), round(-12.345, 2), floor(-0.5), ceil(-0.5), abs(-7), abs(-7.25)",
  });
}

Pairs CoalesceNullifWithNulls() {
  return same({
      "select id, coalesce(nullif(i % 3, 0), nullif(g, 0), -1), nullif(m, 0.05), coalesce(nullif(s, 'abc'), 'was abc') "
      "from t order by id",
      "select g, count(nullif(i % 2, 0)), sum(coalesce(nullif(m, 15.00), 0)), min(nullif(dt, date '2024-02-29')) "
      "from t group by g order by g",
      "select coalesce(nullif(d, 2.5), i), coalesce(null, nullif(b, b), m) from t order by id",
      "select id from t where coalesce(nullif(g, 3), 0) = 0 order by id",
      "select coalesce(nullif(s, s), nullif(s, 'x')) as v, count(*) from t group by v order by v",
  });
}

Pairs ExtractAndDateParts() {
  return same({
      "select id, extract(year from dt), extract(month from dt), extract(day from dt), extract(quarter from dt), "
      "extract(dow from dt), extract(doy from dt) from t order by id",
      "select id, year(dt), month(dt), day(dt), quarter(dt), date_part('year', dt), date_part('doy', dt) from t "
      "order by id",
      "select extract(year from dt) as y, count(*), sum(m) from t group by y order by y",
      "select extract(dow from dt), count(*) from t where extract(month from dt) = 2 group by 1 order by 1",
      "select id, dt - date '1992-01-01', date '2000-03-01' - dt from t order by id",
  });
}

Pairs DateTruncAndIntervals() {
  // DuckDB answers TIMESTAMP where raydb keeps DATE: its side casts back to DATE.
  return {
      {"select id, date_trunc('year', dt), date_trunc('quarter', dt), date_trunc('month', dt), date_trunc('day', dt) "
       "from t order by id",
       "select id, date_trunc('year', dt)::date, date_trunc('quarter', dt)::date, date_trunc('month', dt)::date, "
       "date_trunc('day', dt)::date from t order by id"},
      {"select id, dt + interval '1' month, dt - interval '1' month, dt + interval '13' month, dt + interval '1' year, "
       "dt - interval '4' year, dt + interval '90' day, dt - interval '90' day (3), dt + interval '2 weeks' from t "
       "order by id",
       "select id, (dt + interval 1 month)::date, (dt - interval 1 month)::date, (dt + interval 13 month)::date, "
       "(dt + interval 1 year)::date, (dt - interval 4 year)::date, (dt + interval 90 day)::date, "
       "(dt - interval 90 day)::date, (dt + interval 14 day)::date from t order by id"},
      {"select date '1998-12-01' - interval '90' day (3), date '2024-01-31' + interval '1' month, "
       "date '2023-01-31' + interval '1' month, date '2024-02-29' + interval '1' year, date '2024-03-31' - interval "
       "'1' month, interval '3' month + date '1995-11-30'",
       "select (date '1998-12-01' - interval 90 day)::date, (date '2024-01-31' + interval 1 month)::date, "
       "(date '2023-01-31' + interval 1 month)::date, (date '2024-02-29' + interval 1 year)::date, "
       "(date '2024-03-31' - interval 1 month)::date, (interval 3 month + date '1995-11-30')::date"},
      {"select date_trunc('month', dt) as mo, count(*) from t where dt >= date '1994-01-01' and dt < date "
       "'1994-01-01' + interval '1' year group by mo order by mo",
       "select date_trunc('month', dt)::date as mo, count(*) from t where dt >= date '1994-01-01' and dt < date "
       "'1995-01-01' group by mo order by mo"},
  };
}

Pairs Utf8StringFunctions() {
  return same({
      "select id, s, length(s), upper(s), lower(s), char_length(s) from t order by id",
      "select id, strpos(s, 'ö'), position('é' in s), strpos(s, ''), instr(s, 'a') from t order by id",
      "select id, trim(s), ltrim(s), rtrim(s), trim(both 'a' from s), trim(leading ' -' from s), "
      "trim(trailing 'z%' from s), trim(s, ' é') from t order by id",
      "select id, replace(s, 'a', ''), replace(s, ' ', '_'), replace(s, 'é', 'e') from t order by id",
      "select id, s || '|' || i, concat(s, nullif(i % 2, 0), '#', nullif(s, s)), s || nullif(g, 2) from t order by id",
      "select id from t where s ilike '%mixed%' or s ilike 'ABC' or s not ilike '%a%' order by id",
      "select upper(s) as u, count(*), min(lower(s)), max(s || 'x') from t group by u order by u",
      "select distinct lower(trim(s)) from t order by 1",
      // Fewer rows than the column has distinct strings: computed row by row, not per code.
      "select id, upper(s), length(s), substr(s, 2, 2), strpos(s, 'a'), s || 'x' from t where id < 8 order by id",
  });
}

Pairs SubstringForms() {
  // PostgreSQL's window for starts below 1 (raydb follows it): characters [a, a + n)
  // clipped to the string, so the DuckDB side writes it with start 1.
  return {
      {"select id, substr(s, 1, 2), substr(s, 3), substring(s from 2 for 3), substring(s from 4), substring(s for 2), "
       "substr(s, 50), substr(s, 2, 0) from t order by id",
       "select id, substr(s, 1, 2), substr(s, 3), substring(s, 2, 3), substring(s, 4), substring(s, 1, 2), "
       "substr(s, 50), substr(s, 2, 0) from t order by id"},
      {"select id, substr(s, 0, 3), substr(s, -1, 3), substr(s, -5, 2), substr(s, 0) from t order by id",
       "select id, substr(s, 1, 2), substr(s, 1, 1), '', s from t order by id"},
      {"select substring(s from 1 for 2) as cc, count(*) from t where substring(s from 1 for 2) in ('ab', 'AB', '42', "
       "'Ωm') group by cc order by cc",
       "select substring(s, 1, 2) as cc, count(*) from t where substring(s, 1, 2) in ('ab', 'AB', '42', 'Ωm') "
       "group by cc order by cc"},
  };
}

Pairs CastsBetweenTextAndValues() {
  return {
      {"select id, cast(i as varchar), cast(b as varchar), cast(m as varchar), cast(dt as varchar) from t order by id",
       "select id, cast(i as varchar), cast(b as varchar), cast(m as varchar), cast(dt as varchar) from t order by id"},
      {"select count(*), sum(cast(cast(i as varchar) as integer) - i), sum(cast(cast(b as varchar) as bigint) - b) "
       "from t where cast(cast(m as varchar) as decimal(12,2)) = m and cast(cast(dt as varchar) as date) = dt",
       "select count(*), sum(cast(cast(i as varchar) as integer) - i), sum(cast(cast(b as varchar) as bigint) - b) "
       "from t where cast(cast(m as varchar) as decimal(12,2)) = m and cast(cast(dt as varchar) as date) = dt"},
      {"select s, cast(s as integer) + 1, cast(s as double) * 2, cast(s as decimal(6,2)) from t where s in ('42', ' -17 "
       "', '3.25') and s <> '3.25' order by id",
       "select s, cast(s as integer) + 1, cast(s as double) * 2, cast(s as decimal(6,2)) from t where s in ('42', ' -17 "
       "', '3.25') and s <> '3.25' order by id"},
      {"select cast(s as date) + 1 from t where s = '1995-06-30' order by id",
       "select cast(s as date) + 1 from t where s = '1995-06-30' order by id"},
      {"select cast(s as double), cast(s as decimal(6,1)) from t where s = '3.25' order by id",
       "select cast(s as double), cast(s as decimal(6,1)) from t where s = '3.25' order by id"},
  };
}

// NULL in, NULL out (concat skips NULLs); empty strings stay strings.
Pairs NullsAndEmptyStrings() {
  return {
      {"select id, abs(nullif(i, i)), round(nullif(m, m), 1), floor(nullif(d, d)), extract(year from nullif(dt, dt)), "
       "date_trunc('month', nullif(dt, dt)), nullif(dt, dt) + interval '1' month, substr(nullif(s, s), 1, 2), "
       "substr(s, nullif(1, 1)), length(nullif(s, s)), upper(nullif(s, s)), replace(s, nullif('a', 'a'), 'x'), "
       "strpos(nullif(s, s), 'a'), trim(nullif(s, s)), cast(nullif(s, s) as integer), s || nullif(s, s) from t "
       "where id < 50 order by id",
       "select id, abs(nullif(i, i)), round(nullif(m, m), 1), floor(nullif(d, d)), extract(year from nullif(dt, dt)), "
       "date_trunc('month', nullif(dt, dt))::date, (nullif(dt, dt) + interval 1 month)::date, "
       "substr(nullif(s, s), 1, 2), substr(s, nullif(1, 1)), length(nullif(s, s)), upper(nullif(s, s)), "
       "replace(s, nullif('a', 'a'), 'x'), strpos(nullif(s, s), 'a'), trim(nullif(s, s)), "
       "cast(nullif(s, s) as integer), s || nullif(s, s) from t where id < 50 order by id"},
      {"select upper(null), abs(null), substr(null, 1), length(null), null || 'a', coalesce(null, null), "
       "nullif(null, 1), round(null, 1), extract(year from null::date)",
       "select upper(null), abs(null), substr(null, 1), length(null), null || 'a', coalesce(null, null), "
       "nullif(null, 1), round(null, 1), extract(year from null::date)"},
      {"select replace('abc', '', 'x'), trim(''), substr('', 1, 2), strpos('', 'a'), upper(''), length(''), "
       "concat(null, null), concat('', null, 'a'), length(trim(s, s)), substr(s, 1, 0) || '' from t where id = 0",
       "select replace('abc', '', 'x'), trim(''), substr('', 1, 2), strpos('', 'a'), upper(''), length(''), "
       "concat(null, null), concat('', null, 'a'), length(trim(s, s)), substr(s, 1, 0) || '' from t where id = 0"},
      {"select count(*), count(upper(nullif(s, 'abc'))), count(distinct substr(nullif(s, 'abc'), 1, 1)) from t",
       "select count(*), count(upper(nullif(s, 'abc'))), count(distinct substr(nullif(s, 'abc'), 1, 1)) from t"},
  };
}

const std::vector<Pairs (*)()> kAllPairs = {AbsRoundFloorCeil, CoalesceNullifWithNulls, ExtractAndDateParts, DateTruncAndIntervals, Utf8StringFunctions, SubstringForms, CastsBetweenTextAndValues, NullsAndEmptyStrings};

// Loads the table into raydb and runs every DuckDB query of every test in ONE python3
// process (starting DuckDB costs most of the time), keeping the rows by query text.
class ScalarFunctionsSql : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    write_file(dir_->file("t.csv"), make_csv());
    CommandResult r = run_raydb(cli::load_csv(dir_->file("db"), "t", kSchema, dir_->file("t.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    db_ = Database::open(dir_->file("db")).release();
    if (std::system("python3 -c 'import duckdb' >/dev/null 2>&1") != 0) return;
    nlohmann::json req;
    nlohmann::json cols = nlohmann::json::array();
    for (auto& [n, t] : kColumns) cols.push_back({n, t});
    req["tables"] = {{{"name", "t"}, {"csv", dir_->file("t.csv")}, {"columns", cols}}};
    std::vector<std::string> sqls;
    for (auto pairs : kAllPairs)
      for (auto& q : pairs()) sqls.push_back(q.second);
    req["queries"] = sqls;
    write_file(dir_->file("req.json"), req.dump());
    const std::string cmd = "python3 " + source_dir() + "/tests/support/duckdb_oracle.py < " + dir_->file("req.json") +
                            " > " + dir_->file("out.json");
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    const nlohmann::json out = nlohmann::json::parse(read_file(dir_->file("out.json")));
    oracle_ = new std::map<std::string, nlohmann::json>();
    for (size_t k = 0; k < sqls.size(); k++) (*oracle_)[sqls[k]] = out[k];
  }
  static void TearDownTestSuite() {
    delete oracle_;
    delete db_;
    delete dir_;
  }

  // Runs each raydb query and compares its rows, in order, with DuckDB's.
  void check(const Pairs& queries) {
    if (!oracle_) GTEST_SKIP() << "python3 with duckdb is not available (pip install duckdb)";
    for (auto& [sql, duck] : queries) {
      const nlohmann::json& o = oracle_->at(duck);
      ASSERT_FALSE(o.contains("error")) << duck << ": " << o["error"];
      const nlohmann::json& rows = o["rows"];
      QueryResult r = db_->query(sql, QueryOptions{Backend::kCpu});
      ASSERT_EQ(r.row_count(), rows.size()) << sql;
      for (size_t i = 0; i < r.row_count(); i++)
        for (size_t c = 0; c < r.column_count(); c++)
          EXPECT_TRUE(same_value(r.get(i, c), rows[i][c]))
              << sql << "\n row " << i << " column " << c << ": raydb " << r.get(i, c).to_string() << ", DuckDB "
              << rows[i][c].dump();
    }
  }

  static TempDir* dir_;
  static Database* db_;
  static std::map<std::string, nlohmann::json>* oracle_;
};
TempDir* ScalarFunctionsSql::dir_ = nullptr;
Database* ScalarFunctionsSql::db_ = nullptr;
std::map<std::string, nlohmann::json>* ScalarFunctionsSql::oracle_ = nullptr;

TEST_F(ScalarFunctionsSql, AbsRoundFloorCeil) { check(AbsRoundFloorCeil()); }
TEST_F(ScalarFunctionsSql, CoalesceNullifWithNulls) { check(CoalesceNullifWithNulls()); }
TEST_F(ScalarFunctionsSql, ExtractAndDateParts) { check(ExtractAndDateParts()); }
TEST_F(ScalarFunctionsSql, DateTruncAndIntervals) { check(DateTruncAndIntervals()); }
TEST_F(ScalarFunctionsSql, Utf8StringFunctions) { check(Utf8StringFunctions()); }
TEST_F(ScalarFunctionsSql, SubstringForms) { check(SubstringForms()); }
TEST_F(ScalarFunctionsSql, CastsBetweenTextAndValues) { check(CastsBetweenTextAndValues()); }
TEST_F(ScalarFunctionsSql, NullsAndEmptyStrings) { check(NullsAndEmptyStrings()); }

// Each bad call stops with one line naming the problem (and the value, for casts), a
// non-zero exit and nothing on stdout.
TEST(ScalarFunctionsCli, BadArgumentsAreOneLineErrors) {
  TempDir dir;
  write_file(dir.file("t.csv"), "i,s,dt,m\n1,abc,2024-01-31,1.50\n-2147483648,x9,1999-12-31,2.25\n");
  ASSERT_EQ(run_raydb(cli::load_csv(dir.file("db"), "t", "i INTEGER, s VARCHAR, dt DATE, m DECIMAL(6,2)",
                                    dir.file("t.csv"))).exit_code, 0);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"select substr(s, 1, -1) from t", "negative substring length not allowed"},
      {"select cast(s as integer) from t", "cannot convert VARCHAR 'abc' to INTEGER"},
      {"select cast(s as date) from t where i = 1", "cannot convert VARCHAR 'abc' to DATE"},
      {"select cast(s || '.5' as decimal(4,1)) from t where i < 0", "cannot convert VARCHAR 'x9.5' to DECIMAL(4,1)"},
      {"select abs(i) from t", "INTEGER out of range in abs("},
      {"select round(m, i) from t", "the digits of round must be an integer constant"},
      {"select extract(week from dt) from t", "unsupported field 'week'"},
      {"select date_trunc('hour', dt) from t", "unsupported date_trunc unit 'hour'"},
      {"select dt + interval '1' millisecond from t", "unit 'millisecond'"},
      {"select dt + interval 'x' day from t", "is not a whole number of days"},
      {"select interval '1' day from t", "an INTERVAL can only be added to or subtracted from a DATE"},
      {"select i + interval '1' day from t", "cannot apply '+' to INTEGER and INTERVAL"},
      {"select abs(s) from t", "abs needs a numeric argument, not VARCHAR"},
      {"select 1 || 2 from t", "one operand must be VARCHAR"},
      {"select length(i) from t", "argument 1 of length must be VARCHAR, not INTEGER"},
      {"select substr(s) from t", "substr takes 2 or 3 arguments, got 1"},
      {"select upper(s, s) from t", "upper takes 1 argument, got 2"},
      {"select substr(s, 'a') from t", "argument 2 of substr must be an integer"},
      {"select extract(year from s) from t", "argument 2 of extract must be DATE, not VARCHAR"},
      {"select dt + interval '1' month from t where dt > date '2024-01-01' + interval '2147483647' year",
       "date out of range"},
      {"select nullif(s, 1) from t", "cannot compare VARCHAR and INTEGER"},
      {"select coalesce(s, 1) from t", "coalesce types VARCHAR and INTEGER cannot be matched"},
  };
  for (auto& [sql, want] : cases) {
    CommandResult r = run_raydb(cli::query(dir.file("db"), sql));
    EXPECT_NE(r.exit_code, 0) << sql;
    EXPECT_NE(r.err.find(want), std::string::npos) << sql << " -> " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << sql << " -> " << r.err;
    EXPECT_EQ(r.out, "") << sql;
  }
}

// The text table pads computed non-ASCII strings by characters, so its lines align.
TEST(ScalarFunctionsCli, TextTableAlignsUtf8) {
  TempDir dir;
  write_file(dir.file("t.csv"), "i,s\n1,abc\n2,Zoë\n");
  ASSERT_EQ(run_raydb(cli::load_csv(dir.file("db"), "t", "i INTEGER, s VARCHAR", dir.file("t.csv"))).exit_code, 0);
  CommandResult r = run_raydb(cli::query(dir.file("db"), "select upper(s) || 'é' as 日本, i from t order by i"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto chars = [](const std::string& line) {
    return std::count_if(line.begin(), line.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
  };
  std::vector<std::string> lines;
  for (size_t b = 0, e; (e = r.out.find('\n', b)) != std::string::npos; b = e + 1) lines.push_back(r.out.substr(b, e - b));
  ASSERT_EQ(lines.size(), 7u) << r.out;  // 3 rules, header, 2 rows, row count
  for (size_t k = 1; k < 6; k++) EXPECT_EQ(chars(lines[k]), chars(lines[0])) << r.out;
  EXPECT_NE(r.out.find("| ZOËé "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace raydb::test
