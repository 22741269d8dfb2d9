#pragma once
// The 13 SSB queries as RT view requests (built by hand: SQL matching comes with the
// planner), on four views (one per flight), against the CPU backend's SQL results.
#include "access/rt_view/rt_view.h"
#include "raydb/raydb.h"
#include "rt/rt_view_cases.h"
#include "storage/persist/database_directory.h"
#include "support/fixtures.h"

namespace raydb::rtview_cases {

// Filters by attribute name and value (through the view's domains).
class RequestBuilder {
 public:
  explicit RequestBuilder(const ViewRows& v) : v_(v) {}
  RequestBuilder& ints(const std::string& name, std::vector<std::pair<int64_t, int64_t>> ranges) {
    ViewFilter& f = filter(name);
    for (auto [lo, hi] : ranges)
      if (auto c = v_.filter_domains[f.attr].int_range(lo, hi)) f.allowed.push_back({c->first, c->second});
    return *this;
  }
  RequestBuilder& strs(const std::string& name, std::vector<std::string> values) {
    ViewFilter& f = filter(name);
    for (const std::string& s : values)
      if (auto c = v_.filter_domains[f.attr].string_code(s)) f.allowed.push_back({*c, *c});
    return *this;
  }
  RequestBuilder& str_range(const std::string& name, const std::string& lo, const std::string& hi) {
    ViewFilter& f = filter(name);
    const Dictionary& d = *v_.filter_domains[f.attr].dict;
    const uint32_t a = d.lower_bound(lo), b = d.upper_bound(hi);
    if (a < b) f.allowed.push_back({a, b - 1});
    return *this;
  }
  RequestBuilder& group_by(std::vector<std::string> names) {
    for (const std::string& n : names) {
      uint32_t g = 0;
      while (g < v_.group_domains.size() && v_.group_domains[g].name != n) ++g;
      EXPECT_LT(g, v_.group_domains.size()) << n;
      r_.group_by.push_back(g);
    }
    return *this;
  }
  ViewRequest sum_of(uint32_t input) {
    r_.aggregates = {{AggKind::kSum, input}};
    return r_;
  }

 private:
  ViewFilter& filter(const std::string& name) {
    uint32_t a = 0;
    while (a < v_.filter_domains.size() && v_.filter_domains[a].name != name) ++a;
    EXPECT_LT(a, v_.filter_domains.size()) << name;
    r_.filters.push_back({a, {}});
    return r_.filters.back();
  }
  const ViewRows& v_;
  ViewRequest r_;
};

// group values | sum, sorted: the CPU result and the view result in one shape.
// The group columns in select order, then the aggregate (the one column that is not a
// group attribute: SSB's flight 2 selects it first).
inline std::vector<std::string> cpu_lines(Database& db, const std::string& sql, const ViewRows& v) {
  QueryOptions o;
  o.backend = Backend::kCpu;
  const QueryResult r = db.query(sql, o);
  size_t agg = 0;
  for (size_t c = 0; c < r.column_count(); ++c) {
    bool group = false;
    for (const AttrDomain& d : v.group_domains) group = group || d.name == r.column_name(c);
    if (!group) agg = c;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < r.row_count(); ++i) {
    std::string s;
    for (size_t c = 0; c < r.column_count(); ++c)
      if (c != agg) s += r.get(i, c).to_string() + "|";
    out.push_back(s + r.get(i, agg).to_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::vector<std::string> view_lines(const ViewRows& v, const ViewResult& r) {
  std::vector<std::string> out;
  for (const ViewResultRow& row : r.rows) {
    std::string s;
    for (size_t k = 0; k < row.group_codes.size(); ++k)
      s += v.group_domains[r.group_by[k]].decode(row.group_codes[k]).to_string() + "|";
    s += row.values[0].null ? "NULL" : i128_string(row.values[0].i);
    out.push_back(s);
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct SsbCase {
  std::string query;  // ssb/queries/<query>.sql
  ViewRequest request;
};

inline std::string ssb_sql(const std::string& q) {
  std::ifstream in(std::string(RAYDB_SOURCE_DIR) + "/ssb/queries/" + q + ".sql");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline ViewDefinition ssb_view(int flight) {
  ViewDefinition d;
  d.fact = "lineorder";
  d.name = "ssb_flight" + std::to_string(flight);
  using Op = AggExpr::Op;
  const ViewJoin date{"date", "lo_orderdate", "d_datekey"}, part{"part", "lo_partkey", "p_partkey"},
      supp{"supplier", "lo_suppkey", "s_suppkey"}, cust{"customer", "lo_custkey", "c_custkey"};
  if (flight == 1) {
    d.joins = {date};
    d.filters = {{"", "d_year"}, {"", "d_weeknuminyear"}, {"", "lo_discount"}, {"", "lo_quantity"}, {"", "d_yearmonthnum"}};
    d.inputs = {{"revenue", AggExpr::binary(Op::kMul, AggExpr::col("lo_extendedprice"), AggExpr::col("lo_discount"))}};
  } else if (flight == 2) {
    d.joins = {date, part, supp};
    d.filters = {{"", "s_region"}, {"", "p_category"}, {"", "p_brand1"}};
    d.groups = {{"", "d_year"}, {"", "p_brand1"}};
    d.inputs = {{"lo_revenue", AggExpr::col("lo_revenue")}};
  } else if (flight == 3) {
    d.joins = {date, cust, supp};
    d.filters = {{"", "d_year"}, {"", "c_region"}, {"", "s_region"}, {"", "c_nation"}, {"", "s_nation"},
                 {"", "c_city"}, {"", "s_city"}, {"", "d_yearmonth"}};
    d.groups = {{"", "d_year"}, {"", "c_nation"}, {"", "s_nation"}, {"", "c_city"}, {"", "s_city"}};
    d.inputs = {{"lo_revenue", AggExpr::col("lo_revenue")}};
  } else if (flight == 4) {  // q4.1 and q4.2
    d.joins = {date, cust, supp, part};
    d.filters = {{"", "c_region"}, {"", "s_region"}, {"", "d_year"}, {"", "p_mfgr"}};
    d.groups = {{"", "d_year"}, {"", "c_nation"}, {"", "s_nation"}, {"", "p_category"}};
    d.inputs = {{"profit", AggExpr::binary(Op::kSub, AggExpr::col("lo_revenue"), AggExpr::col("lo_supplycost"))}};
  } else {  // "flight 5": q4.3 alone, as `raydb advise rt-views` splits flight 4 (one view
            // grouping by all six attributes has 5.5 M group tuples at SF 1, more than a view takes)
    d.joins = {date, cust, supp, part};
    d.filters = {{"", "s_nation"}, {"", "p_category"}, {"", "c_region"}, {"", "d_year"}};
    d.groups = {{"", "d_year"}, {"", "s_city"}, {"", "p_brand1"}};
    d.inputs = {{"profit", AggExpr::binary(Op::kSub, AggExpr::col("lo_revenue"), AggExpr::col("lo_supplycost"))}};
  }
  return d;
}

inline std::vector<SsbCase> ssb_cases(int flight, const ViewRows& v) {
  auto b = [&] { return RequestBuilder(v); };
  const std::vector<std::string> years = {"d_year"};
  if (flight == 1)
    return {{"q1.1", b().ints("d_year", {{1993, 1993}}).ints("lo_discount", {{1, 3}}).ints("lo_quantity", {{INT32_MIN, 24}}).sum_of(0)},
            {"q1.2", b().ints("d_yearmonthnum", {{199401, 199401}}).ints("lo_discount", {{4, 6}}).ints("lo_quantity", {{26, 35}}).sum_of(0)},
            {"q1.3", b().ints("d_weeknuminyear", {{6, 6}}).ints("d_year", {{1994, 1994}}).ints("lo_discount", {{5, 7}}).ints("lo_quantity", {{26, 35}}).sum_of(0)}};
  if (flight == 2)
    return {{"q2.1", b().strs("p_category", {"MFGR#12"}).strs("s_region", {"AMERICA"}).group_by({"d_year", "p_brand1"}).sum_of(0)},
            {"q2.2", b().str_range("p_brand1", "MFGR#2221", "MFGR#2228").strs("s_region", {"ASIA"}).group_by({"d_year", "p_brand1"}).sum_of(0)},
            {"q2.3", b().strs("p_brand1", {"MFGR#2239"}).strs("s_region", {"EUROPE"}).group_by({"d_year", "p_brand1"}).sum_of(0)}};
  if (flight == 3)
    return {{"q3.1", b().strs("c_region", {"ASIA"}).strs("s_region", {"ASIA"}).ints("d_year", {{1992, 1997}}).group_by({"c_nation", "s_nation", "d_year"}).sum_of(0)},
            {"q3.2", b().strs("c_nation", {"UNITED STATES"}).strs("s_nation", {"UNITED STATES"}).ints("d_year", {{1992, 1997}}).group_by({"c_city", "s_city", "d_year"}).sum_of(0)},
            {"q3.3", b().strs("c_city", {"UNITED KI1", "UNITED KI5"}).strs("s_city", {"UNITED KI1", "UNITED KI5"}).ints("d_year", {{1992, 1997}}).group_by({"c_city", "s_city", "d_year"}).sum_of(0)},
            {"q3.4", b().strs("c_city", {"UNITED KI1", "UNITED KI5"}).strs("s_city", {"UNITED KI1", "UNITED KI5"}).strs("d_yearmonth", {"Dec1997"}).group_by({"c_city", "s_city", "d_year"}).sum_of(0)}};
  if (flight == 4)
    return {{"q4.1", b().strs("c_region", {"AMERICA"}).strs("s_region", {"AMERICA"}).strs("p_mfgr", {"MFGR#1", "MFGR#2"}).group_by({"d_year", "c_nation"}).sum_of(0)},
            {"q4.2", b().strs("c_region", {"AMERICA"}).strs("s_region", {"AMERICA"}).ints("d_year", {{1997, 1998}}).strs("p_mfgr", {"MFGR#1", "MFGR#2"}).group_by({"d_year", "s_nation", "p_category"}).sum_of(0)}};
  return {{"q4.3", b().strs("c_region", {"AMERICA"}).strs("s_nation", {"UNITED STATES"}).ints("d_year", {{1997, 1998}}).strs("p_category", {"MFGR#14"}).group_by({"d_year", "s_city", "p_brand1"}).sum_of(0)}};
}

// Every SSB query through its flight's view, in encoding mode (merged primitives) and splitting mode (one primitive per row) with group pruning, and in
// encoding mode without it, equal to the CPU backend; `done` counts the runs checked.
inline void run_ssb_flights(rt::Tracer& tracer, const std::string& sf, int* done) {
  test::OracleFixture& fx = test::ssb_fixture(sf);
  ASSERT_TRUE(fx.db != nullptr) << fx.error;
  DatabaseDirectory& dir = fx.db->directory();
  const TableResolver tables = [&dir](std::string_view n) { return dir.table(n); };
  for (int flight = 1; flight <= 5; ++flight) {  // 5: q4.3's view (ssb_view)
    const auto rows = materialize_view(ssb_view(flight), tables);
    for (ZMode mode : {ZMode::kEncode, ZMode::kSplit}) {
      LayoutOptions lo;
      lo.z_mode = mode;
      // Encoding: merged primitives (at SF 0.01 few rows share a tuple, so kAuto would
      // not merge; from SF ~0.1 on every advised view merges); splitting: one primitive
      // per row, as RTCUDB.
      lo.merge = mode == ZMode::kEncode ? MergeMode::kAlways : MergeMode::kNever;
      const RtView view(rows, tracer, lo);
      EXPECT_EQ(view.layout().merged, mode == ZMode::kEncode) << view.stats().layout;
      for (const SsbCase& c : ssb_cases(flight, *rows)) {
        const std::vector<std::string> want = cpu_lines(*fx.db, ssb_sql(c.query), *rows);
        for (bool prune : {true, false}) {  // group pruning on and off (off: encoding only, to stay fast)
          if (!prune && mode == ZMode::kSplit) continue;
          ViewRequest r = c.request;
          r.prune_groups = prune;
          const ViewResult got = view.query(r);
          EXPECT_EQ(view_lines(*rows, got), want) << c.query << (mode == ZMode::kSplit ? " split" : " encode")
                                                  << (prune ? " pruned" : " unpruned") << "\n" << got.stats.plan;
          // Every query of flights 2-4 filters an attribute its groups decide.
          if (prune && flight > 1) EXPECT_GT(got.stats.decided_filters, 0u) << c.query;
          if (prune && flight > 1) EXPECT_LT(got.stats.groups_traced, rows->group_count) << c.query;
          ++*done;
        }
      }
    }
  }
}

}  // namespace raydb::rtview_cases
