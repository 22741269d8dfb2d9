// RT views behind SQL: CREATE RT VIEW / DROP VIEW, the catalog (persisted rows,
// reopen, rebuild after a base table is replaced, DDL errors that leave the directory
// byte-identical), the planner's matching (the 13 SSB queries forced through views
// with --backend rt equal the CPU backend row for row; partial matches fall back;
// auto keeps the star path unless calibrated), and `raydb advise rt-views`.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <optional>

#include "plan/physical/cost_model.h"
#include "raydb/admin.h"
#include "raydb/raydb.h"
#include "storage/column.h"
#include "storage/persist/database_directory.h"
#include "storage/persist/manifest.h"
#include "storage/table.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

const char* const kSsbQueries[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                   "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};

// One view per SSB flight, as a user would write them.
const char* const kFlightViews[] = {
    "CREATE RT VIEW f1 AS SELECT * FROM lineorder JOIN date ON lo_orderdate = d_datekey "
    "WITH (filter = (d_year, d_weeknuminyear, lo_discount, lo_quantity, d_yearmonthnum), group = (), "
    "aggregate = (lo_extendedprice * lo_discount))",
    "CREATE RT VIEW f2 AS SELECT * FROM lineorder JOIN date ON lo_orderdate = d_datekey JOIN part ON lo_partkey = "
    "p_partkey JOIN supplier s ON s.s_suppkey = lineorder.lo_suppkey "
    "WITH (filter = (s_region, p_category, p_brand1), group = (d_year, p_brand1), aggregate = (lo_revenue))",
    "CREATE RT VIEW f3 AS SELECT * FROM lineorder JOIN date ON lo_orderdate = d_datekey JOIN customer ON lo_custkey = "
    "c_custkey JOIN supplier ON lo_suppkey = s_suppkey WITH (filter = (d_year, c_region, s_region, c_nation, "
    "s_nation, c_city, s_city, d_yearmonth), group = (d_year, c_nation, s_nation, c_city, s_city), "
    "aggregate = (lo_revenue))",
    "CREATE RT VIEW f4 AS SELECT * FROM lineorder JOIN date ON lo_orderdate = d_datekey JOIN customer ON lo_custkey = "
    "c_custkey JOIN supplier ON lo_suppkey = s_suppkey JOIN part ON lo_partkey = p_partkey WITH (filter = "
    "(c_region, s_region, d_year, p_mfgr, s_nation, p_category), group = (d_year, c_nation, s_nation, s_city, "
    "p_category, p_brand1), aggregate = (lo_revenue - lo_supplycost))"};

std::string ssb_sql(const std::string& q) { return read_file(source_dir() + "/ssb/queries/" + q + ".sql"); }

std::vector<std::string> lines(const QueryResult& r) {
  std::vector<std::string> out;
  for (size_t i = 0; i < r.row_count(); ++i) {
    std::string s;
    for (size_t c = 0; c < r.column_count(); ++c) s += r.get(i, c).to_string() + "|";
    out.push_back(s);
  }
  return out;
}

QueryOptions with(Backend b) {
  QueryOptions o;
  o.backend = b;
  return o;
}

std::string explain(Database& db, const std::string& sql, Backend b) {
  return db.query("EXPLAIN " + sql, with(b)).explain;
}

// A writable copy of the shared SSB SF 0.01 database.
class RtViewSqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    const std::string shared = shared_ssb_database("0.01", error);
    ASSERT_TRUE(error.empty()) << error;
    path_ = dir_.file("db");
    copy_tree(shared, path_);
    db_ = Database::open(path_);
  }
  // The query through a view (forced) equals the CPU backend row for row; the plan
  // names `view`.
  // Returns the result's row count (several SSB queries select nothing at SF 0.01).
  size_t expect_view_equals_cpu(const std::string& sql, const std::string& view, bool need_rows = true) {
    const std::string plan = explain(*db_, sql, Backend::kRt);
    EXPECT_NE(plan.find("rt view " + view + " (forced"), std::string::npos) << sql << "\n" << plan;
    const QueryResult cpu = db_->query(sql, with(Backend::kCpu));
    const QueryResult rt = db_->query(sql, with(Backend::kRt));
    if (need_rows) EXPECT_GT(cpu.row_count(), 0u) << sql;
    EXPECT_EQ(lines(rt), lines(cpu)) << sql << "\n" << plan;
    for (size_t c = 0; c < cpu.column_count() && c < rt.column_count(); ++c)
      EXPECT_EQ(rt.column_name(c), cpu.column_name(c));
    return cpu.row_count();
  }
  // Not through a view: the plan says why, and the result is still the CPU's.
  void expect_fallback(const std::string& sql, const std::string& reason) {
    const std::string plan = explain(*db_, sql, Backend::kRt);
    EXPECT_EQ(plan.find("rt view f"), plan.find("not rt view f") + 4) << sql << "\n" << plan;  // no view chosen
    EXPECT_NE(plan.find(reason), std::string::npos) << sql << "\n" << plan;
    EXPECT_EQ(lines(db_->query(sql, with(Backend::kRt))), lines(db_->query(sql, with(Backend::kCpu)))) << sql;
  }
  void create_flight_views() {
    for (const char* v : kFlightViews) db_->query(v);
  }

  TempDir dir_;
  std::string path_;
  std::unique_ptr<Database> db_;
};

TEST_F(RtViewSqlTest, SsbQueriesThroughSqlViewsEqualCpu) {
  create_flight_views();
  int checked = 0, with_rows = 0;
  for (const char* q : kSsbQueries) {
    with_rows += expect_view_equals_cpu(ssb_sql(q), std::string("f") + q[1], false) > 0;
    ++checked;
  }
  EXPECT_EQ(checked, 13);
  EXPECT_GE(with_rows, 9);  // SF 0.01: q3.3, q3.4 and q4.3 may select nothing
}

TEST_F(RtViewSqlTest, ShapesAFlightViewAnswers) {
  create_flight_views();
  // Aggregates, subsets of the groups, IN / OR / BETWEEN / <>, HAVING, ORDER BY, LIMIT.
  const std::vector<std::string> queries = {
      "select count(*), sum(lo_revenue), min(lo_revenue), max(lo_revenue), avg(lo_revenue) from lineorder, date, part, "
      "supplier where lo_orderdate = d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey and s_region = "
      "'ASIA'",
      "select d_year, count(*) from lineorder join date on lo_orderdate = d_datekey join part on lo_partkey = p_partkey "
      "join supplier on lo_suppkey = s_suppkey where p_category in ('MFGR#12', 'MFGR#33') or p_category = 'MFGR#41' "
      "group by d_year having count(*) > 10 order by count(*) desc limit 3",
      "select p_brand1, sum(lo_revenue) as r from lineorder, date, part, supplier where lo_orderdate = d_datekey and "
      "lo_partkey = p_partkey and lo_suppkey = s_suppkey and p_brand1 between 'MFGR#2221' and 'MFGR#2230' and "
      "s_region <> 'ASIA' group by p_brand1 order by r desc, p_brand1 limit 5 offset 1",
      "select c_nation, d_year, sum(lo_revenue) from customer, lineorder, supplier, date where lo_custkey = c_custkey "
      "and lo_suppkey = s_suppkey and lo_orderdate = d_datekey and (d_year = 1993 or d_year >= 1996) and c_region = "
      "'EUROPE' and s_nation not in ('FRANCE', 'GERMANY') group by c_nation, d_year order by d_year, c_nation",
      "select sum(lo_extendedprice * lo_discount) from lineorder, date where lo_orderdate = d_datekey and d_year = "
      "1900",  // selects nothing: one row, NULL
      "select sum(lo_discount * lo_extendedprice), count(lo_quantity) from lineorder, date where d_datekey = "
      "lo_orderdate and lo_quantity < 10 and lo_quantity > 20",
  };
  const char* views[] = {"f2", "f2", "f2", "f3", "f1", "f1"};
  for (size_t i = 0; i < queries.size(); ++i) expect_view_equals_cpu(queries[i], views[i]);
}

TEST_F(RtViewSqlTest, PartialMatchesFallBack) {
  create_flight_views();
  const std::string from1 = " from lineorder, date where lo_orderdate = d_datekey";
  expect_fallback("select sum(lo_tax)" + from1 + " and d_year = 1993", "not an aggregate input");
  expect_fallback("select sum(lo_extendedprice * lo_discount)" + from1 + " and lo_tax = 1",
                  "is not on a filter attribute");
  expect_fallback("select d_month, sum(lo_extendedprice * lo_discount)" + from1 + " group by d_month",
                  "is not a group attribute");
  expect_fallback("select sum(lo_extendedprice * lo_discount)" + from1 + " and lo_quantity < lo_discount",
                  "is not a view join or a predicate on one column");
  expect_fallback("select count(distinct d_year)" + from1, "DISTINCT");
  expect_fallback("select lo_orderkey from lineorder, date where lo_orderdate = d_datekey and d_year = 1993 limit 3",
                  "does not aggregate");
  expect_fallback("select count(*) from lineorder, date where lo_commitdate = d_datekey", "is not a view join");
  expect_fallback("select count(*) from lineorder, date, part where lo_orderdate = d_datekey and lo_partkey = p_partkey "
                  "and p_color = 'red'",
                  "table part is not in the view");
}

TEST_F(RtViewSqlTest, AutoKeepsTheStarPathUnlessCalibrated) {
  create_flight_views();
  const std::string q = ssb_sql("q2.1");
  std::string plan = explain(*db_, q, Backend::kAuto);
  EXPECT_EQ(plan.find("\nrt view "), std::string::npos) << plan;
  EXPECT_NE(plan.find("not rt view f2: views are not calibrated"), std::string::npos) << plan;
  plan = explain(*db_, q, Backend::kCpu);
  EXPECT_NE(plan.find("not rt view f2: --backend cpu"), std::string::npos) << plan;
  // A calibration that models RT cores (cheap rays and hits) makes auto take the view,
  // on whichever device auto picks (the GPU where there is one).
  plan::Calibration c;
  for (plan::ExecDevice d : {plan::ExecDevice::kCpu, plan::ExecDevice::kGpu}) {
    c.view_ray_ns[size_t(d)] = 1e-3;
    c.view_hit_ns[size_t(d)] = 1e-3;
  }
  plan::use_calibration(std::make_shared<const plan::Calibration>(c));
  plan = explain(*db_, q, Backend::kAuto);
  const QueryResult rt = db_->query(q, with(Backend::kAuto));
  plan::use_calibration(nullptr);
  EXPECT_NE(plan.find("rt view f2 (cost"), std::string::npos) << plan;
  EXPECT_EQ(lines(rt), lines(db_->query(q, with(Backend::kCpu))));
  // And one that prices it above the star path keeps auto off it.
  for (plan::ExecDevice d : {plan::ExecDevice::kCpu, plan::ExecDevice::kGpu}) c.view_ray_ns[size_t(d)] = 1e9;
  plan::use_calibration(std::make_shared<const plan::Calibration>(c));
  plan = explain(*db_, q, Backend::kAuto);
  plan::use_calibration(nullptr);
  EXPECT_NE(plan.find("not rt view f2: cost"), std::string::npos) << plan;
}

// The model files of calibration/ (README there): the RT-core model makes auto take
// views, the H100 one (fitted to measurements, where the star path won) never does.
// They hold GPU constants; this test plans on the CPU backend, so the same constants
// are applied to the device it plans on.
TEST_F(RtViewSqlTest, ModelCalibrationsPreferViewsOnlyWithRtCores) {
  create_flight_views();
  auto load = [](const char* name) {
    std::string error;
    std::optional<plan::Calibration> c = plan::Calibration::load(source_dir() + "/calibration/" + name, &error);
    EXPECT_TRUE(c.has_value()) << name << ": " << error;
    plan::Calibration m = c.value_or(plan::Calibration{});
    const size_t g = size_t(plan::ExecDevice::kGpu), cpu = size_t(plan::ExecDevice::kCpu);
    m.view_ray_ns[cpu] = m.view_ray_ns[g];
    m.view_hit_ns[cpu] = m.view_hit_ns[g];
    m.view_group_ns[cpu] = m.view_group_ns[g];
    m.view_launch_ns[cpu] = m.view_launch_ns[g];
    m.view_star_scale[cpu] = m.view_star_scale[g];
    m.view_star_fixed_ns[cpu] = m.view_star_fixed_ns[g];
    return std::make_shared<const plan::Calibration>(m);
  };
  int rt_views = 0, h100_views = 0;
  for (const char* q : kSsbQueries) {
    const std::string sql = ssb_sql(q);
    plan::use_calibration(load("rtx-rtcores-model.json"));
    const std::string rt_plan = explain(*db_, sql, Backend::kAuto);
    const QueryResult rt = db_->query(sql, with(Backend::kAuto));
    plan::use_calibration(load("h100-sf20-model.json"));
    const std::string h100_plan = explain(*db_, sql, Backend::kAuto);
    plan::use_calibration(nullptr);
    const bool rt_view = rt_plan.find("\nrt view ") != std::string::npos;
    rt_views += rt_view;
    h100_views += h100_plan.find("\nrt view ") != std::string::npos;
    EXPECT_NE(h100_plan.find("vs star path"), std::string::npos) << q << "\n" << h100_plan;  // both costs shown
    EXPECT_EQ(h100_plan.find("\nrt view "), std::string::npos) << q << "\n" << h100_plan;
    EXPECT_EQ(lines(rt), lines(db_->query(sql, with(Backend::kCpu)))) << q;
  }
  EXPECT_EQ(h100_views, 0);
  EXPECT_GE(rt_views, 7) << "the RT-core model takes a view for most SSB queries";
}

TEST_F(RtViewSqlTest, ExplainShowsIntervalsAndGrid) {
  create_flight_views();
  const std::string plan = explain(*db_, ssb_sql("q3.3"), Backend::kRt);
  EXPECT_NE(plan.find("Z intervals"), std::string::npos) << plan;
  EXPECT_NE(plan.find("ray grid"), std::string::npos) << plan;
  EXPECT_NE(plan.find("not rt view f2: table customer is not in the view"), std::string::npos) << plan;
}

TEST_F(RtViewSqlTest, DropView) {
  db_->query(kFlightViews[0]);
  ASSERT_EQ(db_->directory().rt_views().size(), 1u);
  const std::string rows_dir = path_ + "/" + db_->directory().rt_views()[0].dir;
  EXPECT_TRUE(std::filesystem::exists(rows_dir + "/view.json"));
  EXPECT_EQ(db_->query("DROP VIEW f1").get(0, 0).to_string(), "DROP VIEW");
  EXPECT_TRUE(db_->directory().rt_views().empty());
  EXPECT_FALSE(std::filesystem::exists(rows_dir));
  EXPECT_EQ(explain(*db_, ssb_sql("q1.1"), Backend::kRt).find("rt view"), std::string::npos);
  try {
    db_->query("DROP RT VIEW f1");
    ADD_FAILURE() << "dropping a missing view must fail";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("view f1 does not exist"), std::string::npos) << e.what();
  }
  EXPECT_EQ(db_->query("DROP VIEW IF EXISTS f1").get(0, 0).to_string(), "DROP VIEW (no such view, skipped)");
}

TEST_F(RtViewSqlTest, PersistsAcrossReopen) {
  db_->query(kFlightViews[1]);
  const std::string cpu = lines(db_->query(ssb_sql("q2.2"), with(Backend::kCpu))).at(0);
  db_.reset();
  db_ = Database::open(path_);
  ASSERT_EQ(db_->directory().rt_views().size(), 1u);
  EXPECT_EQ(db_->directory().rt_views()[0].name, "f2");
  expect_view_equals_cpu(ssb_sql("q2.2"), "f2");
  EXPECT_EQ(lines(db_->query(ssb_sql("q2.2"), with(Backend::kRt))).at(0), cpu);
  // The manifest names it (format version 3) and a leftover rows directory is removed on open.
  std::filesystem::create_directories(path_ + "/rt_views/leftover.g99");
  db_.reset();
  db_ = Database::open(path_);
  EXPECT_FALSE(std::filesystem::exists(path_ + "/rt_views/leftover.g99"));
  EXPECT_NE(read_file(path_ + "/manifest.json").find("\"format_version\": 3"), std::string::npos);
}

TEST_F(RtViewSqlTest, CorruptedViewEntriesAreRejected) {
  db_->query(kFlightViews[0]);
  db_.reset();
  const std::string m = path_ + "/manifest.json";
  const std::string good = read_file(m);
  auto expect_open_fails = [&](const std::string& from, const std::string& to, const std::string& want) {
    std::string text = good;
    ASSERT_NE(text.find(from), std::string::npos) << from;
    text.replace(text.find(from), from.size(), to);
    write_file(m, persist::Manifest::reseal(text));  // past the checksum, to the entry checks
    try {
      Database::open(path_);
      ADD_FAILURE() << "opened with " << to;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  expect_open_fails("\"dir\": \"rt_views/", "\"dir\": \"../", "is not under rt_views/");
  expect_open_fails("\"format_version\": 3", "\"format_version\": 2", "have no \"rt_views\"");
  expect_open_fails("\"tables\": [\n    \"lineorder\"", "\"tables\": [\n    \"nosuch\"", "names table 'nosuch'");
  write_file(m, good);
  db_ = Database::open(path_);
  EXPECT_EQ(db_->directory().rt_views().size(), 1u);
}

// Every row of `t` whose row number passes `keep`.
TablePtr filtered_copy(const Table& t, bool (*keep)(uint64_t)) {
  std::vector<ColumnPtr> cols;
  for (size_t c = 0; c < t.column_count(); ++c) {
    const Column& src = t.column(c);
    ColumnBuilder b(src.name(), src.type());
    for (uint64_t r = 0; r < src.size(); ++r) {
      if (!keep(r)) continue;
      if (src.type().id == TypeId::kVarchar) b.append_string(src.dictionary()->at(uint32_t(src.get_int(r))));
      else b.append_int(src.get_int(r));
    }
    cols.push_back(b.finish());
  }
  return std::make_shared<const Table>(t.name(), std::move(cols));
}

TEST_F(RtViewSqlTest, ReplacedBaseTableRebuildsTheView) {
  db_->query(kFlightViews[0]);
  const std::string q = ssb_sql("q1.1");
  const std::vector<std::string> before = lines(db_->query(q, with(Backend::kRt)));
  const RtViewEntry old = db_->directory().rt_views().at(0);
  // Replace lineorder by every third row (another process could do this with raydb load).
  db_->directory().commit({filtered_copy(*db_->directory().table("lineorder"), [](uint64_t r) { return r % 3 == 0; })},
                          true);
  ASSERT_EQ(db_->directory().rt_views().size(), 1u);  // replacing a table keeps its views
  EXPECT_TRUE(describe_rt_views(path_).at(0).stale);
  EXPECT_NE(run_raydb("describe --db " + shell_quote(path_)).out.find("rt view f1: " + std::to_string(old.rows) + " rows over lineorder, date"),
            std::string::npos);
  expect_view_equals_cpu(q, "f1");
  const std::vector<std::string> after = lines(db_->query(q, with(Backend::kRt)));
  EXPECT_NE(after, before);  // a stale view would still answer `before`
  const RtViewEntry now = db_->directory().rt_views().at(0);
  EXPECT_NE(now.versions[0], old.versions[0]);
  EXPECT_NE(now.dir, old.dir);
  EXPECT_LT(now.rows, old.rows);
  EXPECT_FALSE(describe_rt_views(path_).at(0).stale);
  EXPECT_FALSE(std::filesystem::exists(path_ + "/" + old.dir));
  // A replacement the view no longer fits (no d_year): reported, unused, queries still run.
  {
    const Table& date = *db_->directory().table("date");
    std::vector<ColumnPtr> cols;
    for (size_t c = 0; c < date.column_count(); ++c)
      if (date.column(c).name() != "d_year") cols.push_back(db_->directory().table("date")->column_ptr(c));
    db_->directory().commit({std::make_shared<const Table>("date", std::move(cols))}, true);
  }
  const std::string q2 = "select sum(lo_extendedprice * lo_discount) from lineorder, date where lo_orderdate = "
                         "d_datekey and d_weeknuminyear = 6";
  EXPECT_EQ(explain(*db_, q2, Backend::kRt).find("rt view f1"), std::string::npos);
  EXPECT_EQ(lines(db_->query(q2, with(Backend::kRt))), lines(db_->query(q2, with(Backend::kCpu))));
  // A dropped base table drops the view.
  db_->directory().drop_table("date");
  EXPECT_TRUE(db_->directory().rt_views().empty());
}

TEST_F(RtViewSqlTest, FewerDimensionsOnlyWhenTheViewKeptEveryFactRow) {
  db_->query(kFlightViews[1]);  // f2: lineorder, date, part, supplier
  const std::string q = "select d_year, sum(lo_revenue), count(*) from lineorder, date where lo_orderdate = d_datekey "
                        "group by d_year order by d_year";
  expect_view_equals_cpu(q, "f2");  // every lineorder row has its part and supplier
  // Drop every other part: the view's inner join now loses fact rows, so a query
  // without part must not read it (its sums would miss those rows).
  db_->directory().commit({filtered_copy(*db_->directory().table("part"), [](uint64_t r) { return r % 2 == 0; })},
                          true);
  expect_fallback(q, "the view dropped fact rows without partners");
  // With all of the view's dimensions the inner joins agree: the rebuilt view answers.
  expect_view_equals_cpu("select d_year, sum(lo_revenue) from lineorder, date, part, supplier where lo_orderdate = "
                         "d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey group by d_year order by d_year",
                         "f2");
}

TEST_F(RtViewSqlTest, BadDdlFailsWithOneLineAndWritesNothing) {
  db_->query(kFlightViews[0]);
  const auto snapshot = snapshot_tree(path_);
  const std::string j = " FROM lineorder JOIN date ON lo_orderdate = d_datekey";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"CREATE RT VIEW v AS SELECT lo_revenue" + j + " WITH (filter = (d_year))", "select list is *"},
      {"CREATE RT VIEW v AS SELECT *" + j, "expected WITH"},
      {"CREATE RT VIEW v AS SELECT *" + j + " WHERE d_year = 1993 WITH (filter = (d_year))", "takes no WHERE"},
      {"CREATE RT VIEW v AS SELECT *" + j + " WITH (filters = (d_year))", "expected FILTER, GROUP or AGGREGATE"},
      {"CREATE RT VIEW v AS SELECT *" + j + " WITH (filter = (d_year), filter = (d_month))", "given twice"},
      {"CREATE RT VIEW v AS SELECT * FROM lineorder JOIN nosuch ON lo_orderdate = d_datekey WITH (filter = (d_year))",
       "unknown table 'nosuch'"},
      {"CREATE RT VIEW v AS SELECT *" + j + " WITH (filter = (d_nosuch))", "unknown column d_nosuch"},
      {"CREATE RT VIEW v AS SELECT *" + j + " WITH (filter = (d_year + 1))", "is not a column"},
      {"CREATE RT VIEW v AS SELECT *" + j + " WITH (filter = (d_year, d_year))", "names d_year twice"},
      {"CREATE RT VIEW v AS SELECT *" + j + " WITH (filter = (d_year), aggregate = (lo_revenue / 2))",
       "not an integer expression"},
      {"CREATE RT VIEW v AS SELECT * FROM lineorder, date WITH (filter = (d_year))", "a star join"},
      {"CREATE RT VIEW v AS SELECT * FROM lineorder JOIN date ON lo_orderdate < d_datekey WITH (filter = (d_year))",
       "ON fact_key = date_key"},
      {"CREATE RT VIEW v AS SELECT * FROM lineorder JOIN date ON lo_quantity = d_year WITH (filter = (d_month))",
       "is not unique"},
      {"CREATE RT VIEW v AS SELECT * FROM lineorder WITH (filter = (lo_tax))", "at least one dimension"},
      {"CREATE RT VIEW v AS SELECT *" + j + " WITH (aggregate = (lo_revenue))", "name its roles"},
      {"CREATE RT VIEW f1 AS SELECT *" + j + " WITH (filter = (d_year))", "view f1 already exists"},
      {"CREATE VIEW v AS SELECT * FROM nosuch", "unknown table 'nosuch'"},
      {"DROP VIEW nosuch", "view nosuch does not exist"},
  };
  for (const auto& [sql, want] : cases) {
    try {
      db_->query(sql);
      ADD_FAILURE() << "accepted: " << sql;
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(want), std::string::npos) << sql << "\n  got: " << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
  }
  EXPECT_EQ(snapshot_tree(path_), snapshot);
  // The CLI: one line on stderr, non-zero exit.
  const CommandResult r = run_raydb("query --db " + shell_quote(path_) + " " +
                                    shell_quote("CREATE RT VIEW v AS SELECT *" + j + " WITH (filter = (d_nosuch))"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(snapshot_tree(path_), snapshot);
}

TEST_F(RtViewSqlTest, AdviseCoversTheSsbWorkload) {
  std::string workload;
  for (const char* q : kSsbQueries) workload += std::string("-- ") + q + "\n" + ssb_sql(q) + "\n";
  const RtViewAdvise advice = advise_rt_views(*db_, workload);
  EXPECT_TRUE(advice.not_covered.empty()) << advice.not_covered.at(0);
  EXPECT_EQ(advice.views.size(), 4u);  // one per flight: the dimension sets differ
  size_t served = 0;
  for (const RtViewAdvice& v : advice.views) {
    served += v.queries.size();
    EXPECT_GT(v.row_bytes, 0u);
    db_->query(v.create_sql);
  }
  EXPECT_EQ(served, 13u);
  for (const RtViewAdvice& v : advice.views)
    for (const std::string& q : v.queries) expect_view_equals_cpu(ssb_sql(q), v.name, false);
  // The CLI prints the statements and a non-star query as not covered.
  write_file(dir_.file("w.sql"), workload + "select count(*) from part;");
  const CommandResult r = run_raydb("advise rt-views --db " + shell_quote(path_) + " -f " + shell_quote(dir_.file("w.sql")));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  size_t creates = 0;
  for (const std::string& l : split_lines(r.out)) creates += l.rfind("CREATE RT VIEW", 0) == 0;
  EXPECT_EQ(creates, 4u) << r.out;
  EXPECT_NE(r.out.find("-- not covered: #14: not a join"), std::string::npos) << r.out;
}

}  // namespace

// Below a lowered group-tuple limit advise splits a family or leaves a query out (with
// the reason), never proposes a view over the limit, and every view it proposes is
// created and answers its queries like the CPU backend.
TEST_F(RtViewSqlTest, AdviseProposesOnlyBuildableViews) {
  std::string workload;
  for (const char* q : kSsbQueries) workload += std::string("-- ") + q + "\n" + ssb_sql(q) + "\n";
  const uint64_t limit = 5000;
  const RtViewAdvise advice = advise_rt_views(*db_, workload, "lim", limit);
  size_t served = 0;
  for (const RtViewAdvice& v : advice.views) {
    served += v.queries.size();
    EXPECT_LT(v.group_bound, limit) << v.create_sql;
    EXPECT_GT(v.group_bound, 0u) << v.create_sql;
    db_->query(v.create_sql);
  }
  for (const std::string& n : advice.not_covered) EXPECT_NE(n.find("group tuples"), std::string::npos) << n;
  EXPECT_EQ(served + advice.not_covered.size(), 13u);
  // q4.1 (d_year, c_nation: 175 tuples) and q4.2 (d_year, s_nation, p_category: 4375)
  // fit alone but not together: the flight-4 family splits. q4.3 does not fit at all.
  auto view_of = [&](const std::string& q) {
    for (const RtViewAdvice& v : advice.views)
      if (std::find(v.queries.begin(), v.queries.end(), q) != v.queries.end()) return v.name;
    return std::string();
  };
  EXPECT_FALSE(view_of("q4.1").empty());
  EXPECT_FALSE(view_of("q4.2").empty());
  EXPECT_NE(view_of("q4.1"), view_of("q4.2"));
  EXPECT_TRUE(view_of("q4.3").empty());
  for (const RtViewAdvice& v : advice.views) {
    for (const std::string& q : v.queries) expect_view_equals_cpu(ssb_sql(q), v.name, false);
    // The bound is an upper bound of what materializing found.
    for (const RtViewInfo& info : describe_rt_views(path_))
      if (info.name == v.name) EXPECT_GT(info.rows, 0u);
  }
  // The CLI takes the limit and says why a query is not covered.
  write_file(dir_.file("w.sql"), workload);
  const CommandResult r = run_raydb("advise rt-views --group-limit 5000 --db " + shell_quote(path_) + " -f " +
                                    shell_quote(dir_.file("w.sql")));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("-- not covered: q4.3: its own view would have up to"), std::string::npos) << r.out;
}

// `raydb bench views`: creates the advised views, reports each build, and times the 13
// queries through views against the star path, answers checked (JSON lines).
TEST_F(RtViewSqlTest, BenchViewsRunsTheSsbQueriesThroughViews) {
  const std::string json = dir_.file("views.jsonl");
  const CommandResult r = run_raydb("bench views --db " + shell_quote(path_) + " --reps 1 --warmup 0 --json " +
                                    shell_quote(json));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  size_t views = 0, queries = 0, through_views = 0, with_rays = 0;
  for (const std::string& l : split_lines(read_file(json))) {
    const auto j = nlohmann::json::parse(l);
    if (j.at("record") == "view") {
      ++views;
      EXPECT_GT(j.at("rows").get<uint64_t>(), 0u);
      EXPECT_GE(j.at("create_ms").get<double>(), 0.0);
      EXPECT_GT(j.at("bytes_per_row").get<double>(), 0.0);
      EXPECT_GT(j.at("primitives").get<uint64_t>(), 0u);
      EXPECT_LE(j.at("primitives").get<uint64_t>(), j.at("rows").get<uint64_t>());
      EXPECT_NEAR(j.at("array_bytes_per_row").get<double>() + j.at("bvh_bytes_per_row").get<double>(),
                  j.at("view_bytes_per_row").get<double>(), 1e-9);
      continue;
    }
    ++queries;
    EXPECT_TRUE(j.at("verified").get<bool>()) << l;
    if (j.at("view").get<std::string>().empty()) continue;
    ++through_views;
    // Pruning can leave no group to trace (SF 0.01: q3.3, q3.4, q4.3 select nothing).
    if (j.at("rays").get<uint64_t>() == 0) EXPECT_EQ(j.at("hits").get<uint64_t>(), 0u) << l;
    with_rays += j.at("rays").get<uint64_t>() > 0 && j.at("hits").get<uint64_t>() > 0;
    EXPECT_LE(j.at("accumulator_flushes").get<uint64_t>(), j.at("hits").get<uint64_t>()) << l;
    EXPECT_LE(j.at("groups_traced").get<uint64_t>(), j.at("view_groups").get<uint64_t>()) << l;
  }
  EXPECT_EQ(views, 4u);
  EXPECT_EQ(queries, 13u);
  EXPECT_EQ(through_views, 13u);
  EXPECT_GE(with_rays, 9u);
  for (const std::string& l : split_lines(read_file(json))) {  // per-hit atomics timed too, same answers
    const auto j = nlohmann::json::parse(l);
    if (j.at("record") == "query") EXPECT_GT(j.at("view_per_hit_ms").get<double>(), 0.0) << l;
  }
  // `raydb calibrate --views-only` on the same database (its views exist): the view
  // constants of this device (Embree here) stored, and which path auto would take.
  const std::string cal = dir_.file("calibration.json");
  const char* old = std::getenv("RAYDB_CALIBRATION");
  const std::string saved = old ? old : "";
  setenv("RAYDB_CALIBRATION", cal.c_str(), 1);
  const CommandResult c = run_raydb("calibrate --views-only --reps 1 --view-db " + shell_quote(path_));
  if (old) setenv("RAYDB_CALIBRATION", saved.c_str(), 1);
  else unsetenv("RAYDB_CALIBRATION");
  ASSERT_EQ(c.exit_code, 0) << c.err << c.out;
  EXPECT_NE(c.out.find("rt view constants (cpu)"), std::string::npos) << c.out;
  EXPECT_EQ(c.out.find("WRONG"), std::string::npos) << c.out;  // no star-faster query picks a view
  std::string error;
  const std::optional<plan::Calibration> stored = plan::Calibration::load(cal, &error);
  ASSERT_TRUE(stored) << error;
  const size_t cpu = size_t(plan::ExecDevice::kCpu);
  EXPECT_GT(stored->view_ray_ns[cpu] + stored->view_hit_ns[cpu], 0.0);
  EXPECT_GT(stored->view_star_scale[cpu], 0.0);
  EXPECT_NE(stored->view_source.find("Embree"), std::string::npos);
  // A bad setting value is one line.
  const CommandResult bad = run_raydb("query --db " + shell_quote(path_) + " --set rt_view_accumulate=sometimes \"SELECT 1\"");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("invalid value 'sometimes' for setting rt_view_accumulate"), std::string::npos) << bad.err;
}

}  // namespace raydb::test
