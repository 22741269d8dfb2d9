// Data skipping (zone maps and sort keys): per-block min/max written at every commit,
// checksummed and verified like the other files; skipping never drops a matching row
// (SQLite and brute force on adversarial data: block boundaries, NULLs, all-NULL and
// all-equal blocks, negative numbers, DECIMAL, DATE, BIGINT extremes, DOUBLE with NaN);
// EXPLAIN ANALYZE reports blocks scanned and skipped; INSERT, UPDATE, DELETE and CREATE
// TABLE AS leave true zone maps; databases without zone maps run without skipping;
// --sort-by reorders whole rows and the catalog records the key.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <regex>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "raydb/raydb.h"
#include "storage/persist/database_check.h"
#include "storage/persist/database_directory.h"
#include "storage/persist/manifest.h"
#include "storage/table_sort.h"
#include "storage/zone_map.h"
#include "storage_test_util.h"
#include "support/sqlite_oracle.h"

namespace raydb::test {
namespace {

constexpr uint64_t kB = ZoneMap::kBlockRows;
constexpr uint64_t kRows = 5 * kB + 1234;  // five whole blocks and a partial one

QueryOptions cpu() { return QueryOptions{Backend::kCpu}; }

// Blocks of different shapes: block 0 ascending from negative values, block 1 all
// equal, block 2 all NULL in `n`, block 3 wide random, block 4 descending, the last
// partial block near the types' extremes.
TablePtr adversarial_table() {
  ColumnBuilder k("k", Type::integer()), big("big", Type::bigint()), dec("dec", Type::decimal(12, 2)),
      day("day", Type::date()), n("n", Type::integer(), true), s("s", Type::varchar());
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (uint64_t i = 0; i < kRows; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const uint64_t b = i / kB, r = i % kB;
    int64_t v;
    switch (b) {
      case 0: v = -70000 + int64_t(r); break;
      case 1: v = 42; break;
      case 2: v = int64_t(r % 1000) + 100000; break;
      case 3: v = int64_t(x % 1000001) * 2 - 1000001; break;  // odd: never 42 or -70000
      case 4: v = 500000 - int64_t(r); break;
      default: v = r % 2 ? std::numeric_limits<int32_t>::max() - int64_t(r) : std::numeric_limits<int32_t>::min() + int64_t(r);
    }
    k.append_int(v);
    big.append_int(b == 5 ? (r % 2 ? std::numeric_limits<int64_t>::max() - int64_t(r) : std::numeric_limits<int64_t>::min() + int64_t(r))
                          : v * 1000003);
    dec.append_int(v * 7);  // cents: -4900.00 .. 
    day.append_int(9000 + (v / 1000) % 20000);  // 1915 .. 2049
    if (b == 2 || (b == 3 && x % 5 == 0)) n.append_null();
    else n.append_int(v / 3);
    s.append_string("s" + std::to_string(1000000 + v / 100));
  }
  return std::make_shared<const Table>(
      "t", std::vector<ColumnPtr>{k.finish(), big.finish(), dec.finish(), day.finish(), n.finish(), s.finish()});
}

// DOUBLE blocks: block 0 negative, block 1 holds NaNs among positives, block 2 only
// NaN, block 3 infinities and signed zeros, block 4 with NULLs.
TablePtr double_table() {
  ColumnBuilder d("d", Type::float64(), true);
  uint64_t x = 1234567;
  for (uint64_t i = 0; i < kRows; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const uint64_t b = i / kB, r = i % kB;
    if (b == 4 && r % 3 == 0) {
      d.append_null();
      continue;
    }
    double v;
    switch (b) {
      case 0: v = -double(r) / 4 - 1; break;
      case 1: v = r % 100 == 7 ? std::nan("") : double(r) / 8; break;
      case 2: v = std::nan(""); break;
      case 3: v = r % 4 == 0 ? INFINITY : r % 4 == 1 ? -INFINITY : r % 4 == 2 ? -0.0 : 0.0; break;
      default: v = double(x % 100000) / 16 + 10000;
    }
    d.append_double(v);
  }
  return std::make_shared<const Table>("dt", std::vector<ColumnPtr>{d.finish()});
}

// A dimension joined on t.k: keys in the blocks' ranges and between them, tagged so
// that filters on `tag` select key sets of different spans.
TablePtr dim_table() {
  const std::vector<int32_t> keys = {42, -70000, -4465, 500000, 434465, 100500, 7, -1, 100999, 2147483000};
  const std::vector<int32_t> tags = {1, 2, 2, 3, 3, 4, 5, 5, 6, 7};
  return std::make_shared<const Table>(
      "dim", std::vector<ColumnPtr>{make_column("key", Type::integer(), keys), make_column("tag", Type::integer(), tags)});
}

int64_t number_after(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stoll(m[1].str());
}

struct Fixture {
  TempDir dir;
  std::unique_ptr<Database> db;
  SqliteOracle oracle;
  Fixture() {
    DatabaseDirectory::open_or_create(dir.path())->commit({adversarial_table(), dim_table()}, false);
    db = Database::open(dir.path());
    oracle.load_table(*DatabaseDirectory::open(dir.path())->table("t"));
    oracle.load_table(*DatabaseDirectory::open(dir.path())->table("dim"));
  }
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

TEST(ZoneMaps, BuildKeepsNonNullMinMaxPerBlockAndRoundTrips) {
  std::vector<int32_t> v(kB + 3);
  for (size_t i = 0; i < v.size(); i++) v[i] = int32_t(i) - 5;
  std::vector<uint8_t> valid(validity_bytes(v.size()), 0xff);
  valid[0] = 0xfe;                                  // row 0 NULL: the first min is row 1's
  for (size_t i = kB; i < v.size(); i++) valid[i >> 3] &= uint8_t(~(1u << (i & 7)));  // last block all NULL
  ZoneMap z = ZoneMap::build(Type::integer(), v.data(), v.size(), valid.data());
  ASSERT_EQ(z.block_count(), 2u);
  EXPECT_EQ(z.block(0).min, -4);
  EXPECT_EQ(z.block(0).max, int64_t(kB) - 6);
  EXPECT_EQ(z.block(0).nulls, 1u);
  EXPECT_EQ(z.block(1).nulls, 3u);
  EXPECT_GT(z.block(1).min, z.block(1).max);  // no value
  using R = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_TRUE(z.may_match(0, R{{-4, -4}}));
  EXPECT_FALSE(z.may_match(0, R{{-5, -5}}));  // only the NULL row holds -5
  EXPECT_TRUE(z.may_match(0, R{{-100, -50}, {int64_t(kB) - 6, int64_t(kB)}}));
  EXPECT_FALSE(z.may_match(0, R{{-100, -5}, {int64_t(kB) - 5, int64_t(kB)}}));
  EXPECT_FALSE(z.may_match(1, R{{std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}}));
  ZoneMap back = ZoneMap::parse(Type::integer(), z.bytes(), v.size(), kB, "t.c");
  EXPECT_EQ(back.bytes(), z.bytes());
  // A file that cannot describe the rows is a one-line error.
  expect_error([&] { ZoneMap::parse(Type::integer(), z.bytes() + "x", v.size(), kB, "t.c"); }, ErrorKind::kCatalog,
               {"zone map of t.c has"});
  std::string bad = z.bytes();
  const uint32_t too_many = uint32_t(kB) + 1;
  std::memcpy(bad.data() + 16, &too_many, 4);
  expect_error([&] { ZoneMap::parse(Type::integer(), bad, v.size(), kB, "t.c"); }, ErrorKind::kCatalog,
               {"corrupted at block 0"});
}

TEST(ZoneMaps, DoubleBlocksFlagNaNAndKeepThem) {
  std::vector<double> v = {1.5, std::nan(""), -2.0, -0.0};
  ZoneMap z = ZoneMap::build(Type::float64(), v.data(), v.size(), nullptr);
  EXPECT_TRUE(z.block(0).flags & ZoneMap::kHasNaN);
  EXPECT_TRUE(z.may_match_double(0, 100, false, 200, false));  // NaN sorts above 100: kept
  std::vector<double> w = {1.5, -2.0, -0.0};
  ZoneMap y = ZoneMap::build(Type::float64(), w.data(), w.size(), nullptr);
  EXPECT_FALSE(y.may_match_double(0, 1.5, true, INFINITY, false));   // x > 1.5
  EXPECT_TRUE(y.may_match_double(0, 1.5, false, INFINITY, false));   // x >= 1.5
  EXPECT_TRUE(y.may_match_double(0, 0.0, false, 0.0, false));        // x = 0 holds on -0.0
  EXPECT_FALSE(y.may_match_double(0, -INFINITY, false, -2.0, true));  // x < -2
  std::vector<double> only_nan = {std::nan(""), std::nan("")};
  ZoneMap n = ZoneMap::build(Type::float64(), only_nan.data(), 2, nullptr);
  EXPECT_EQ(ZoneMap::parse(Type::float64(), n.bytes(), 2, kB, "x").bytes(), n.bytes());
}

// Predicates at and around block boundaries on every type; each must give SQLite's
// answer, and the selective ones must skip blocks.
TEST(ZoneMaps, SkippingGivesSqlitesAnswerOnAdversarialBlocks) {
  Fixture& f = fixture();
  const std::vector<std::string> preds = {
      "k = 42", "k = 41", "k between -70000 and -69999", "k < -70000", "k <= -70000", "k > 500000",
      "k >= 500000", "k in (42, 100500, -5)", "k in (-70001, 500001)", "k not in (42)", "k <> 42",
      "not (k between -1000000 and 1000000)", "k between 1 and 0", "k >= 2147483000",
      "k <= -2147483000", "big > 9223372036854775000", "big < -9223372036854775000", "big = 42000126",
      "dec between 294.00 and 294.00", "dec < -489999.99", "dec >= 3500000.01", "dec = 294.01",
      "day = date '1994-08-23'", "day < date '1994-08-22'", "day between date '1995-01-01' and date '1996-01-01'",
      "n = 14", "n < -23000", "n > 33366", "n between 33334 and 33400", "n in (14, 33400)", "not (n > 0)",
      "n <> 14", "s = 's1000000'", "s < 's0'", "s like 's1005%'", "s >= 's1000420'",
      "k = 42 and n = 14", "k > 100000 or k < -69990", "(k = 42 or k = 100999) and dec > 0"};
  for (const std::string& p : preds) {
    const std::string sql = "select count(*), sum(k), min(n), max(big) from t where " + p;
    EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, sql, cpu()));
  }
  // Selective predicates read only their blocks.
  // k = 42: the all-42 block 1, and blocks 3 and 5 whose [min, max] span 42.
  QueryResult r = f.db->query("explain analyze select count(*) from t where k = 42", cpu());
  EXPECT_EQ(number_after(r.explain, "blocks: (\\d+) scanned"), 3) << r.explain;
  EXPECT_EQ(number_after(r.explain, "(\\d+) skipped"), 3) << r.explain;
  EXPECT_EQ(number_after(r.explain, "scan t: (\\d+) rows"), int64_t(2 * kB + kRows % kB)) << r.explain;
  // n's values of 33334..33400 lie in block 2, all NULL there: only blocks 3 and 5 span them.
  r = f.db->query("explain analyze select count(*) from t where n between 33334 and 33400", cpu());
  EXPECT_EQ(number_after(r.explain, "blocks: (\\d+) scanned"), 2) << r.explain;
  r = f.db->query("explain analyze select count(*) from t where k between 1 and 0", cpu());
  EXPECT_EQ(r.get(0, 0).as_int(), 0);
  r = f.db->query("explain analyze select count(*) from t where k <> 42", cpu());
  EXPECT_EQ(number_after(r.explain, "(\\d+) skipped"), 1) << r.explain;  // the all-42 block
}

// A join's build keys bound the fact column it probes: blocks outside their [min, max]
// are skipped, and the answers stay SQLite's.
TEST(ZoneMaps, JoinKeyRangesSkipProbeBlocksExactly) {
  Fixture& f = fixture();
  for (const std::string& p : {"d.tag = 1", "d.tag = 2", "d.tag = 3", "d.tag in (4, 6)", "d.tag = 5", "d.tag = 7",
                               "d.tag > 100", "d.tag < 3 and t.k > -5000", "d.tag >= 1"})
    EXPECT_TRUE(matches_sqlite(*f.db, f.oracle,
                               "select count(*), sum(t.k), min(t.n) from t, dim d where t.k = d.key and " + p, cpu()));
  // tag 2 keys -70000 and -4465: block 0, and blocks 3 and 5 whose ranges span them.
  QueryResult r = f.db->query("explain analyze select count(*) from t, dim d where t.k = d.key and d.tag = 2", cpu());
  EXPECT_EQ(number_after(r.explain, "scan t: \\d+ rows, \\d+ passed filters, blocks: (\\d+) scanned"), 3) << r.explain;
  r = f.db->query("explain analyze select count(*) from t, dim d where t.k = d.key and d.tag > 100", cpu());
  EXPECT_EQ(number_after(r.explain, "scan t: (\\d+) rows"), 0) << r.explain;  // no build key: nothing to read
}

// SQLite stores NaN as NULL, so DOUBLE is checked by brute force with raydb's rule
// (PostgreSQL's: NaN equals NaN and sorts above every value).
TEST(ZoneMaps, DoublePredicatesMatchBruteForceWithNaN) {
  TempDir dir;
  TablePtr t = double_table();
  DatabaseDirectory::open_or_create(dir.path())->commit({t}, false);
  auto db = Database::open(dir.path());
  const Column& c = *t->column_ptr(0);
  auto cmp = [](double v, const std::string& op, double k) {
    const bool nv = std::isnan(v);
    const int s = nv ? 1 : (v < k ? -1 : (v > k ? 1 : 0));
    if (op == "<") return s < 0;
    if (op == "<=") return s <= 0;
    if (op == ">") return s > 0;
    if (op == ">=") return s >= 0;
    return s == 0;
  };
  const std::vector<double> ks = {-8193.0, -1.0, -0.0, 0.0, 0.125, 8191.875, 8192.0, 10000.0, 16249.9375, 1e300};
  for (const std::string op : {"<", "<=", ">", ">=", "="})
    for (double k : ks) {
      int64_t want = 0;
      for (uint64_t i = 0; i < c.size(); i++)
        if (!c.is_null(i) && cmp(c.data<double>()[i], op, k)) want++;
      const std::string sql = fmt::format("select count(*) from dt where d {} {}", op, fmt::format("{:.17g}", k));
      EXPECT_EQ(db->query(sql, cpu()).get(0, 0).as_int(), want) << sql;
    }
  int64_t want = 0;
  for (uint64_t i = 0; i < c.size(); i++) {
    const double v = c.data<double>()[i];
    if (!c.is_null(i) && !std::isnan(v) && v >= -2 && v <= 0.5) want++;
  }
  EXPECT_EQ(db->query("select count(*) from dt where d between -2 and 0.5", cpu()).get(0, 0).as_int(), want);
  // x > 1e300 holds only on NaN and +inf: the NaN blocks and the infinities' block stay.
  QueryResult r = db->query("explain analyze select count(*) from dt where d > 1e300", cpu());
  EXPECT_EQ(number_after(r.explain, "blocks: (\\d+) scanned"), 3) << r.explain;
}

TEST(ZoneMaps, AreWrittenChecksummedAndVerifiedAtOpen) {
  TempDir dir;
  DatabaseDirectory::open_or_create(dir.path())->commit({adversarial_table()}, false);
  auto j = nlohmann::json::parse(read_file(dir.file("manifest.json")));
  std::string zmp;
  for (auto& c : j["tables"][0]["columns"]) {
    ASSERT_TRUE(c.contains("zonemap")) << c.dump();
    EXPECT_EQ(c["zonemap"]["block_rows"], kB);
    EXPECT_EQ(c["zonemap"]["bytes"], 6 * ZoneMap::kEntryBytes);
    zmp = c["zonemap"]["file"];
  }
  EXPECT_TRUE(persist::check_database_files(dir.path()).problems.empty());
  // A flipped byte: the checksum catches it at open, in one line naming the file.
  std::string bytes = read_file(dir.file(zmp));
  bytes[3] ^= 1;
  write_file(dir.file(zmp), bytes);
  const auto before = snapshot_dir(dir.path());
  expect_error([&] { DatabaseDirectory::open(dir.path()); }, ErrorKind::kCatalog, {zmp, "checksum"});
  EXPECT_EQ(snapshot_dir(dir.path()), before);
}

TEST(ZoneMaps, DatabasesWithoutThemRunWithoutSkipping) {
  TempDir dir;
  DatabaseDirectory::open_or_create(dir.path())->commit({adversarial_table()}, false);
  const std::string sql = "select count(*), sum(k) from t where k between -69000 and 42";
  auto want = Database::open(dir.path())->query(sql, cpu());
  auto j = nlohmann::json::parse(read_file(dir.file("manifest.json")));
  for (auto& c : j["tables"][0]["columns"]) c.erase("zonemap");  // as an older build wrote it
  write_file(dir.file("manifest.json"), persist::Manifest::reseal(j.dump()));
  auto dd = DatabaseDirectory::open(dir.path());
  EXPECT_EQ(dd->table("t")->column(0).zone_map(), nullptr);
  auto db = Database::open(dir.path());
  auto got = db->query(sql, cpu());
  EXPECT_EQ(got.get(0, 0).to_string(), want.get(0, 0).to_string());
  EXPECT_EQ(got.get(0, 1).to_string(), want.get(0, 1).to_string());
  QueryResult r = db->query("explain analyze " + sql, cpu());
  EXPECT_EQ(r.explain.find("blocks:"), std::string::npos) << r.explain;
  // A manifest whose checksum is gone is not trusted: no zone maps either.
  DatabaseDirectory::open_or_create(dir.path())->commit({adversarial_table()}, true);
  auto k = nlohmann::json::parse(read_file(dir.file("manifest.json")));
  k.erase(persist::Manifest::kChecksumKey);
  write_file(dir.file("manifest.json"), k.dump());
  EXPECT_EQ(DatabaseDirectory::open(dir.path())->table("t")->column(0).zone_map(), nullptr);
}

// Every writer recomputes the zone maps from the rows it writes: rows that INSERT,
// UPDATE and CREATE TABLE AS bring outside the old ranges are found, and DELETE leaves
// maps that still match.
TEST(ZoneMaps, WritersKeepThemTrue) {
  TempDir dir;
  DatabaseDirectory::open_or_create(dir.path())->commit({adversarial_table()}, false);
  auto db = Database::open(dir.path());
  auto count = [&](const std::string& sql) { return db->query(sql, cpu()).get(0, 0).as_int(); };
  db->query("insert into t values (7777777, 1, 1.00, date '2001-01-01', 5, 'zz')");
  EXPECT_EQ(count("select count(*) from t where k = 7777777"), 1);
  db->query("update t set k = -9999999 where k = 7777777");
  EXPECT_EQ(count("select count(*) from t where k = -9999999"), 1);
  EXPECT_EQ(count("select count(*) from t where k = 42"), int64_t(kB));
  db->query("delete from t where k = 42");
  EXPECT_EQ(count("select count(*) from t where k = 42"), 0);
  EXPECT_EQ(count("select count(*) from t where k = 7777777"), 0);
  db->query("create table u as select k * 2 as k2 from t where k < 0");
  EXPECT_EQ(count("select count(*) from u where k2 = -19999998"), 1);
  EXPECT_EQ(count("select count(*) from u where k2 = -140000"), 1);
  EXPECT_NE(DatabaseDirectory::open(dir.path())->table("u")->column(0).zone_map(), nullptr);
  EXPECT_TRUE(persist::check_database_files(dir.path()).problems.empty());
}

TEST(SortKey, ReordersWholeRowsNullsFirstAndIsRecorded) {
  TempDir dir;
  TablePtr t = adversarial_table();
  TablePtr s = sort_table(t, {"N", "k"});
  ASSERT_EQ(s->row_count(), t->row_count());
  EXPECT_EQ(s->sort_key(), (std::vector<std::string>{"n", "k"}));
  const Column& n = s->column(4);
  const Column& k = s->column(0);
  for (uint64_t i = 1; i < s->row_count(); i++) {
    const bool a = n.is_null(i - 1), b = n.is_null(i);
    ASSERT_TRUE(a || !b) << i;  // NULLs first
    if (!a && !b) {
      ASSERT_LE(n.get_int(i - 1), n.get_int(i)) << i;
      if (n.get_int(i - 1) == n.get_int(i)) ASSERT_LE(k.get_int(i - 1), k.get_int(i)) << i;
    } else if (a && b) {
      ASSERT_LE(k.get_int(i - 1), k.get_int(i)) << i;
    }
  }
  DatabaseDirectory::open_or_create(dir.path())->commit({s}, false);
  EXPECT_EQ(DatabaseDirectory::open(dir.path())->table("t")->sort_key(), (std::vector<std::string>{"n", "k"}));
  // Same rows as before (as multisets), per SQLite over both.
  SqliteOracle o;
  o.load_table(*t);
  auto db = Database::open(dir.path());
  EXPECT_TRUE(matches_sqlite(*db, o, "select k, big, dec, day, n, s from t", cpu()));
  // An INSERT's rows are not in order: the key is dropped, not kept false.
  db->query("insert into t values (1, 1, 1.00, date '2001-01-01', null, 'a')");
  EXPECT_TRUE(DatabaseDirectory::open(dir.path())->table("t")->sort_key().empty());
  expect_error([&] { sort_table(t, {"k", "nope"}); }, ErrorKind::kInvalidInput, {"unknown sort key column 'nope'"});
  expect_error([&] { sort_table(t, {"k", "K"}); }, ErrorKind::kInvalidInput, {"named twice"});
  expect_error([&] { parse_sort_key("k,,n"); }, ErrorKind::kInvalidInput, {"empty column name"});
}

// raydb gen ssb --sort-by lo_orderdate: lineorder sorted, the other tables as they were,
// and the SSB date-range query skips blocks with the answer of the unsorted database.
TEST(SortKey, GenSsbSortByOrdersLineorderAndSkips) {
  TempDir plain, sorted;
  ASSERT_EQ(run_raydb(cli::gen_ssb(plain.path(), "0.05")).exit_code, 0);
  CommandResult g = run_raydb(cli::gen_ssb(sorted.path(), "0.05") + " --sort-by lo_orderdate");
  ASSERT_EQ(g.exit_code, 0) << g.err;
  auto dd = DatabaseDirectory::open(sorted.path());
  EXPECT_EQ(dd->table("lineorder")->sort_key(), std::vector<std::string>{"lo_orderdate"});
  EXPECT_TRUE(dd->table("customer")->sort_key().empty());
  const Column& od = dd->table("lineorder")->column(size_t(dd->table("lineorder")->find_column("lo_orderdate")));
  for (uint64_t i = 1; i < od.size(); i++) ASSERT_LE(od.get_int(i - 1), od.get_int(i));
  const std::string q = "select sum(lo_extendedprice * lo_discount) from lineorder where lo_orderdate >= 19940101 "
                        "and lo_orderdate <= 19940131 and lo_discount between 4 and 6 and lo_quantity between 26 and 35";
  auto a = Database::open(plain.path())->query(q, cpu());
  auto sdb = Database::open(sorted.path());
  auto b = sdb->query(q, cpu());
  EXPECT_EQ(a.get(0, 0).to_string(), b.get(0, 0).to_string());
  QueryResult r = sdb->query("explain analyze " + q, cpu());
  EXPECT_GT(number_after(r.explain, "(\\d+) skipped"), 0) << r.explain;
  // q1.1's shape: the year filter is on the date dimension; its keys bound lo_orderdate.
  const std::string j = "select sum(lo_extendedprice * lo_discount) from lineorder, date where lo_orderdate = "
                        "d_datekey and d_year = 1994 and lo_discount between 1 and 3 and lo_quantity < 25";
  EXPECT_EQ(Database::open(plain.path())->query(j, cpu()).get(0, 0).to_string(), sdb->query(j, cpu()).get(0, 0).to_string());
  r = sdb->query("explain analyze " + j, cpu());
  EXPECT_GT(number_after(r.explain, "scan lineorder: \\d+ rows, \\d+ passed filters, blocks: \\d+ scanned, (\\d+) skipped"), 0)
      << r.explain;
  // A column no table has: one line, and nothing created.
  TempDir none;
  const std::string fresh = none.file("db");
  CommandResult bad = run_raydb(cli::gen_ssb(fresh, "0.01") + " --sort-by no_such_col");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_TRUE(is_one_line(bad.err)) << bad.err;
  EXPECT_NE(bad.err.find("error: --sort-by no_such_col"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(fresh));
}

// raydb load csv --sort-by: rows ordered (NULLs first), the key in the catalog; with
// --append or an unknown column a one-line error and the database unchanged.
TEST(SortKey, LoadCsvSortBy) {
  TempDir dir;
  const std::string db = dir.file("db"), csv = dir.file("t.csv");
  write_file(csv, "a,b\n3,x\n,y\n1,z\n2,w\n1,v\n");
  CommandResult r = run_raydb(cli::load_csv(db, "t", "a INTEGER, b VARCHAR", csv) + " --sort-by a");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto q = Database::open(db)->query("select a, b from t", cpu());
  std::string got;
  for (size_t i = 0; i < q.row_count(); i++) got += q.get(i, 0).to_string() + q.get(i, 1).to_string() + " ";
  EXPECT_EQ(got, "NULLy 1z 1v 2w 3x ");  // stable: ties keep the file's order
  EXPECT_EQ(DatabaseDirectory::open(db)->table("t")->sort_key(), std::vector<std::string>{"a"});
  const auto before = snapshot_dir(db);
  for (const std::string& extra : {std::string(" --sort-by a --append"), std::string(" --sort-by c --replace")}) {
    CommandResult bad = run_raydb("load csv --header --db " + shell_quote(db) + " --table t " + shell_quote(csv) + extra);
    EXPECT_NE(bad.exit_code, 0) << extra;
    EXPECT_TRUE(is_one_line(bad.err)) << bad.err;
    EXPECT_EQ(bad.err.rfind("error: ", 0), 0u) << bad.err;
    EXPECT_EQ(snapshot_dir(db), before) << extra;
  }
}

}  // namespace
}  // namespace raydb::test
