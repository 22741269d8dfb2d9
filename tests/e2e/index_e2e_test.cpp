// Indexes in SQL: CREATE/DROP INDEX, the catalog (manifest, reopen, DDL errors that
// leave the directory byte-identical), and the access paths (index scans, index
// joins) compared with SQLite under --backend rt, auto and cpu. The RT path must
// never change a result.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include <nlohmann/json.hpp>

#include "raydb/raydb.h"
#include "storage/persist/database_directory.h"
#include "storage/column.h"
#include "storage/table.h"
#include "support/sqlite_oracle.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

// t (40000 rows: the probe root, large enough that the cost model prefers indexes
// for selective predicates), u (300, unique uk), w (400, duplicate wk).
std::vector<TablePtr> make_tables() {
  std::mt19937_64 rng(7);
  auto big = [](int j) -> int64_t {
    if (j == 0) return std::numeric_limits<int64_t>::min() + 1;
    if (j == 1) return std::numeric_limits<int64_t>::max();
    return int64_t(j - 150) * 30000000007LL;  // crosses 2^32 and 2^46
  };
  ColumnBuilder id("id", Type::integer()), k("k", Type::integer()), b("b", Type::bigint()), d("d", Type::date()),
      s("s", Type::varchar()), m("m", Type::decimal(10, 2)), f("f", Type::float64());
  const int32_t day0 = days_from_civil(1992, 1, 1);
  for (int i = 0; i < 40000; i++) {
    id.append_int(i);
    k.append_int(int64_t(rng() % 200) - 50);
    b.append_int(big(int(rng() % 300)));
    d.append_int(day0 + int32_t(rng() % 400));
    int sv = int(rng() % 150);
    s.append_string((sv % 7 == 0 ? "é" : "s") + std::to_string(sv));
    m.append_int(int64_t(rng() % 1000) * 25);
    f.append_double(i * 0.5);
  }
  ColumnBuilder uk("uk", Type::integer()), name("name", Type::varchar()), ub("ub", Type::bigint());
  for (int j = 0; j < 300; j++) {
    uk.append_int(j - 60);
    name.append_string("s" + std::to_string(j % 180));
    ub.append_int(big(j));
  }
  ColumnBuilder wk("wk", Type::integer()), tag("tag", Type::varchar());
  for (int j = 0; j < 400; j++) {
    wk.append_int(j % 100);
    tag.append_string("tag" + std::to_string(j % 13));
  }
  return {std::make_shared<const Table>("t", std::vector<ColumnPtr>{id.finish(), k.finish(), b.finish(), d.finish(),
                                                                      s.finish(), m.finish(), f.finish()}),
          std::make_shared<const Table>("u", std::vector<ColumnPtr>{uk.finish(), name.finish(), ub.finish()}),
          std::make_shared<const Table>("w", std::vector<ColumnPtr>{wk.finish(), tag.finish()})};
}

const char* const kIndexes[] = {
    "create index idx_t_k on t (k) using rt",
    "create index idx_t_k_hash on t (k) using hash",
    "create index idx_t_b on t (b) using rt with (bucket_size = 8)",
    "create index idx_t_d on t (d) using rt with (compress_duplicates = false)",
    "create index idx_t_s on t (s) using rt",
    "create index idx_t_m on t (m) using rt with (primitive = box)",
    "create index idx_t_id on t (id) using sorted",
    "create index idx_u_uk on u (uk) using rt",
    "create index idx_u_name on u (name) using rt",
    "create index idx_u_ub on u (ub) using sorted",
    "create index idx_w_wk on w (wk) using rt with (sort_keys = false)",
};

struct IndexedDb {
  TempDir dir;
  std::string path;
  std::unique_ptr<Database> db;
  SqliteOracle oracle;
};

IndexedDb& indexed_db() {
  static IndexedDb* f = [] {
    auto* x = new IndexedDb;
    x->path = x->dir.file("db");
    auto dir = DatabaseDirectory::open_or_create(x->path);
    dir->commit(make_tables(), false);
    x->db = std::make_unique<Database>(dir);
    x->oracle.load_database(*dir);
    for (const char* sql : kIndexes) x->db->query(sql);
    return x;
  }();
  return *f;
}

const char* const kQueries[] = {
    // points
    "select count(*), sum(id) from t where k = 5",
    "select id, k, s from t where k = -50",
    "select id from t where k = 1000",  // empty
    "select count(*) from t where id = 39999",
    "select id, b from t where b = 30000000007",
    "select id from t where b = 9223372036854775807",
    "select id from t where b = -9223372036854775807",
    "select id, d from t where d = DATE '1992-03-01'",
    "select id, s from t where s = 's8'",
    "select id, s from t where s = 'é14'",
    "select id from t where s = 'nope'",  // not in the dictionary
    "select id, m from t where m = 12.50",
    "select id from t where m = 12.501",  // never equal at scale 2
    // IN
    "select id, k from t where k in (1, 3, 5, 149, 7000)",
    "select id from t where s in ('s1', 's2', 'zz', 'é7')",
    "select id, d from t where d in (DATE '1992-01-01', DATE '1993-02-03', DATE '2000-01-01')",
    "select id from t where b in (0, 30000000007, -30000000007, 5)",
    // ranges
    "select count(*), sum(id) from t where k between 10 and 12",
    "select id, k from t where k < -45",
    "select count(*) from t where k > 140",
    "select id, b from t where b > 4000000000000",
    "select count(*) from t where b between -60000000014 and 60000000014",
    "select id, d from t where d >= DATE '1992-06-01' and d < DATE '1992-06-04'",
    "select count(*) from t where d > DATE '2001-01-01'",  // empty
    "select id, s from t where s < 's11'",
    "select count(*) from t where s like 's1%'",
    "select id, m from t where m between 1 and 2.5",
    "select count(*) from t where k <> 5",
    "select id from t where id between 100 and 120 and k > 0",
    "select id from t where id < 10 or k = 3",  // OR over two columns: not an index predicate
    // several indexed predicates, projection order, aggregates
    "select k, count(*), sum(m) from t where k in (1, 2, 3) and d < DATE '1992-08-01' group by k order by k",
    "select id, s from t where s >= 's140' order by id limit 7",
    "select distinct k from t where k between 20 and 25 order by k",
    // joins through an index (build side's key column is indexed)
    "select u.name, count(*) from t join u on t.k = u.uk where t.id < 200 group by u.name",
    "select t.id, u.uk, u.name from t join u on t.k = u.uk where t.k = 7",
    "select t.id, u.uk from t join u on t.k = u.uk where t.d = DATE '1992-02-02' and u.name < 's5'",
    "select t.id, u.name from t join u on t.s = u.name where t.id < 300",  // VARCHAR, other dictionaries
    "select count(*) from t join u on t.b = u.ub",                            // BIGINT
    "select count(*) from t join u on t.b = u.uk",                            // BIGINT probe, INTEGER build
    "select count(*) from t join u on t.k = u.ub",                            // INTEGER probe, BIGINT build
    "select t.id, w.tag from t join w on t.k = w.wk where t.id between 10 and 60",  // duplicate build keys
    "select w.tag, count(*) from t join w on t.k = w.wk join u on t.k = u.uk where t.k in (4, 5, 6) group by w.tag",
    "select count(*) from t join u on t.k = u.uk where u.uk = 1000",  // empty
};

class IndexQueries : public ::testing::TestWithParam<Backend> {};

TEST_P(IndexQueries, MatchSqlite) {
  IndexedDb& f = indexed_db();
  QueryOptions opts;
  opts.backend = GetParam();
  int index_paths = 0;
  for (const char* sql : kQueries) {
    EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, sql, opts));
    std::string e = f.db->query(std::string("explain ") + sql, opts).explain;
    index_paths += e.find("index scan") != std::string::npos || e.find("index join") != std::string::npos;
  }
  // The comparison means something only if the index paths ran: under --backend rt
  // all but those without an indexable predicate (or with one that is always false)
  // take one.
  if (GetParam() == Backend::kRt) EXPECT_GE(index_paths, 34);
  if (GetParam() == Backend::kAuto) EXPECT_GE(index_paths, 15);
}

INSTANTIATE_TEST_SUITE_P(Backends, IndexQueries, ::testing::Values(Backend::kRt, Backend::kAuto, Backend::kCpu),
                         [](const auto& info) { return std::string(backend_name(info.param)); });

std::string explain(Database& db, const std::string& sql, Backend b) {
  QueryOptions o;
  o.backend = b;
  return db.query("explain " + sql, o).explain;
}

TEST(IndexExplain, RtBackendShowsIndexPaths) {
  Database& db = *indexed_db().db;
  std::string e = explain(db, "select count(*) from t where k = 5", Backend::kRt);
  EXPECT_NE(e.find("index scan t via idx_t_k (rt, point;"), std::string::npos) << e;
  e = explain(db, "select count(*) from t where k in (1, 5)", Backend::kRt);
  EXPECT_NE(e.find("index scan t via idx_t_k (rt, in;"), std::string::npos) << e;
  e = explain(db, "select count(*) from t where d between DATE '1992-01-01' and DATE '1992-01-09'", Backend::kRt);
  EXPECT_NE(e.find("index scan t via idx_t_d (rt, range;"), std::string::npos) << e;
  e = explain(db, "select count(*) from t join u on t.k = u.uk where t.id = 5", Backend::kRt);
  EXPECT_NE(e.find("index join u via idx_u_uk (rt;"), std::string::npos) << e;
  // No RT index on t.id: the cost model decides (a sorted index exists).
  e = explain(db, "select count(*) from t where id = 5", Backend::kRt);
  EXPECT_NE(e.find("index scan t via idx_t_id (sorted, point; 1 of 40000 rows"), std::string::npos) << e;
}

TEST(IndexExplain, CostModelChoices) {
  Database& db = *indexed_db().db;
  // A point on k: the hash index has the cheapest lookups; cpu never uses RT.
  std::string e = explain(db, "select count(*) from t where k = 5", Backend::kAuto);
  EXPECT_NE(e.find("via idx_t_k_hash (hash, point;"), std::string::npos) << e;
  // A selective range on d: only an RT index exists; auto takes it, cpu never uses RT.
  const std::string days = "select count(*) from t where d between DATE '1992-01-01' and DATE '1992-01-03'";
  e = explain(db, days, Backend::kAuto);
  EXPECT_NE(e.find("index scan t via idx_t_d (rt, range;"), std::string::npos) << e;
  e = explain(db, days, Backend::kCpu);
  EXPECT_EQ(e.find("index scan"), std::string::npos) << e;
  // Nearly every row: scanning is cheaper than fetching them through an index.
  e = explain(db, "select count(*) from t where k <> 5", Backend::kAuto);
  EXPECT_EQ(e.find("index scan"), std::string::npos) << e;
  EXPECT_NE(e.find("scan t (40000 rows)"), std::string::npos) << e;
  // No predicate on an indexed column: plain scan and hash join.
  e = explain(db, "select count(*) from t join u on t.k = u.uk", Backend::kCpu);
  EXPECT_EQ(e.find("index "), std::string::npos) << e;
}

// ---- catalog: round trips and errors ----

std::unique_ptr<Database> small_db(TempDir& tmp) {
  auto dir = DatabaseDirectory::open_or_create(tmp.file("db"));
  dir->commit(make_tables(), false);
  return std::make_unique<Database>(dir);
}

nlohmann::json manifest(const std::string& db) { return nlohmann::json::parse(read_file(db + "/manifest.json")); }

TEST(IndexCatalog, CreateDropRoundTripThroughReopen) {
  TempDir tmp;
  const std::string path = tmp.file("db");
  {
    auto db = small_db(tmp);
    EXPECT_EQ(manifest(path)["format_version"], 1);  // no indexes: still version 1
    db->query("CREATE INDEX Idx_K ON T (K) USING RT WITH (Bucket_Size = 4, compress_duplicates = off)");
    db->query("create index idx_s on t (s) using sorted with (sorted_probes = true)");
    db->query("create index idx_uk on u (uk) using hash");
  }
  nlohmann::json m = manifest(path);
  EXPECT_EQ(m["format_version"], 2);
  ASSERT_EQ(m["indexes"].size(), 3u);
  EXPECT_EQ(m["indexes"][0]["name"], "idx_k");  // unquoted names fold to lower case
  EXPECT_EQ(m["indexes"][0]["table"], "t");   // catalog names, not as written
  EXPECT_EQ(m["indexes"][0]["column"], "k");
  EXPECT_EQ(m["indexes"][0]["kind"], "rt");
  EXPECT_EQ(m["indexes"][0]["options"]["bucket_size"], "4");
  {
    auto db = Database::open(path);
    auto defs = db->directory().indexes();
    ASSERT_EQ(defs.size(), 3u);
    EXPECT_EQ(defs[1].name, "idx_s");
    EXPECT_EQ(defs[2].kind, "hash");
    QueryOptions rt{Backend::kRt};
    EXPECT_NE(db->query("explain select count(*) from t where k = 3", rt).explain.find("via idx_k (rt, point"),
              std::string::npos);
    // Same answer as a scan.
    QueryResult a = db->query("select count(*), sum(id) from t where k between 3 and 9", rt);
    QueryResult b = db->query("select count(*), sum(f) from t where k + 0 between 3 and 9", rt);
    EXPECT_EQ(a.get(0, 0).to_string(), b.get(0, 0).to_string());
    db->query("drop index IDX_K");
    db->query("drop index if exists idx_k");  // gone: a no-op
  }
  {
    auto db = Database::open(path);
    ASSERT_EQ(db->directory().indexes().size(), 2u);
    db->query("drop index idx_s");
    db->query("drop index idx_uk");
  }
  EXPECT_EQ(manifest(path)["format_version"], 1);
  EXPECT_FALSE(manifest(path).contains("indexes"));
}

TEST(IndexCatalog, ReplacedOrDroppedTableLosesItsIndexes) {
  TempDir tmp;
  auto db = small_db(tmp);
  db->query("create index idx_k on t (k)");
  db->query("create index idx_uk on u (uk)");
  auto tables = make_tables();
  db->directory().commit({tables[0]}, true);  // replace t
  auto defs = db->directory().indexes();
  ASSERT_EQ(defs.size(), 1u);
  EXPECT_EQ(defs[0].name, "idx_uk");
  db->directory().drop_table("u");
  EXPECT_TRUE(db->directory().indexes().empty());
  // The name is free again.
  db->query("create index idx_k on t (k) using sorted");
  EXPECT_EQ(db->directory().indexes().size(), 1u);
}

TEST(IndexCatalog, DdlErrorsChangeNothingOnDisk) {
  TempDir tmp;
  auto db = small_db(tmp);
  db->query("create index idx_k on t (k)");
  const std::string path = tmp.file("db");
  const auto before = snapshot_tree(path);
  struct Case {
    const char* sql;
    const char* message;
  };
  const Case cases[] = {
      {"create index x on nope (k)", "unknown table 'nope'"},
      {"create index x on t (nope)", "table 't' has no column 'nope'"},
      {"create index idx_k on t (id)", "index idx_k already exists"},
      {"create index IDX_K on u (uk)", "index idx_k already exists"},
      {"create index x on t (f)", "type DOUBLE"},
      {"create index x on t (k) using rt with (bucket = 4)", "unknown option 'bucket'"},
      {"create index x on t (k) using rt with (bucket_size = 0)", "bucket_size takes an integer from 1"},
      {"create index x on t (k) using rt with (bucket_size = x)", "bucket_size takes an integer"},
      {"create index x on t (k) using rt with (compress_duplicates = maybe)", "takes true or false"},
      {"create index x on t (k) using rt with (sort_keys = false, bucket_size = 4)", "needs sort_keys = true"},
      {"create index x on t (k) using rt with (bucket_size = 2, bucket_size = 4)", "given twice"},
      {"create index x on t (k) using hash with (bucket_size = 4)", "unknown option 'bucket_size' for a hash index"},
      {"create index x on t (k) using btree", "unknown index kind 'btree'"},
      {"create index x on t (k, id)", "several columns"},
      {"create index x on t k", "expected '('"},
      {"create unique index x on t (k)", "UNIQUE"},
      {"drop index nope", "index nope does not exist"},
      {"drop index", "index name"},
  };
  for (const Case& c : cases) {
    try {
      db->query(c.sql);
      ADD_FAILURE() << c.sql << ": no error";
    } catch (const Error& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find(c.message), std::string::npos) << c.sql << ": " << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << c.sql << ": " << msg;
    }
    EXPECT_EQ(snapshot_tree(path), before) << c.sql;
  }
  db->query("drop index if exists nope");
  EXPECT_EQ(snapshot_tree(path), before);
  EXPECT_EQ(db->directory().indexes().size(), 1u);
}

TEST(IndexCatalog, CliCreateQueryDrop) {
  TempDir tmp;
  small_db(tmp);
  const std::string path = tmp.file("db");
  CommandResult r = run_raydb(cli::query(path, "create index idx_d on t (d) using rt"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("CREATE INDEX"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("index idx_d: built 40000 keys in"), std::string::npos) << r.err;
  r = run_raydb(cli::query(path, "explain select count(*) from t where d = DATE '1992-01-05'", "--backend rt"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("index scan t via idx_d (rt, point;"), std::string::npos) << r.out;
  const auto before = snapshot_tree(path);
  r = run_raydb(cli::query(path, "create index idx_d on t (k)"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("error: index idx_d already exists"), std::string::npos) << r.err;
  EXPECT_EQ(snapshot_tree(path), before);
  r = run_raydb(cli::query(path, "drop index idx_d"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_raydb(cli::query(path, "select 1", "--backend nope"));
  EXPECT_NE(r.err.find("expected auto, cpu, cuda or rt"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace raydb::test
