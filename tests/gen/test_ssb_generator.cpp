// Row counts, determinism, value domains, key integrity and derived formulas of
// raydb's SSB generator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <regex>
#include <set>

#include "common/error.h"
#include "gen/ssb/domains.h"
#include "gen/ssb/generator.h"
#include "gen/ssb_oracle.h"
#include "storage/loaders/ssb_schema.h"
#include "raydb/types.h"

namespace raydb::ssb {
namespace {

using oracle::column;
using oracle::ints;
using oracle::str;
using oracle::table;

const std::vector<TablePtr>& sf001() { return oracle::cached(0.01); }
const std::vector<TablePtr>& sf01() { return oracle::cached(0.1); }

std::set<std::string> distinct(const Table& t, const std::string& col) {
  std::set<std::string> s;
  for (uint64_t r = 0; r < t.row_count(); r++) s.insert(str(t, col, r));
  return s;
}

TEST(SsbRowCounts, FollowTheSpecification) {
  RowCounts c = row_counts(1);
  EXPECT_EQ(c.customer, 30000u);
  EXPECT_EQ(c.supplier, 2000u);
  EXPECT_EQ(c.part, 200000u);
  EXPECT_EQ(c.date, 2556u);
  EXPECT_EQ(c.orders, 1500000u);
  EXPECT_EQ(row_counts(2).part, 400000u);
  EXPECT_EQ(row_counts(4).part, 600000u);
  EXPECT_EQ(row_counts(20).part, 1000000u);  // 1 + floor(log2 20) = 5
  EXPECT_EQ(row_counts(20).orders, 30000000u);
  RowCounts small = row_counts(0.01);
  EXPECT_EQ(small.customer, 300u);
  EXPECT_EQ(small.supplier, 20u);
  EXPECT_EQ(small.part, 2000u);  // below SF 1 dbgen scales part linearly
  EXPECT_EQ(small.orders, 15000u);
  EXPECT_EQ(row_counts(0.07).customer, 2100u);
  EXPECT_EQ(row_counts(1e-9).supplier, 1u);
}

TEST(SsbRowCounts, RejectBadScaleFactors) {
  for (double sf : {0.0, -1.0, std::nan(""), double(INFINITY), 1e6}) {
    try {
      row_counts(sf);
      FAIL() << "SF " << sf << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInvalidInput) << e.what();
    }
  }
}

TEST(SsbGenerator, TablesFollowTheSchema) {
  const auto& db = sf001();
  ASSERT_EQ(db.size(), schema().size());
  for (size_t i = 0; i < db.size(); i++) {
    EXPECT_EQ(db[i]->name(), schema()[i].name);
    ASSERT_EQ(db[i]->column_count(), schema()[i].columns.size());
    for (size_t c = 0; c < db[i]->column_count(); c++) {
      EXPECT_EQ(db[i]->column(c).name(), schema()[i].columns[c].name);
      EXPECT_TRUE(db[i]->column(c).type() == schema()[i].columns[c].type) << db[i]->column(c).name();
    }
  }
}

void expect_row_counts(double sf) {
  const auto& db = oracle::cached(sf);
  RowCounts c = row_counts(sf);
  EXPECT_EQ(table(db, "customer").row_count(), c.customer);
  EXPECT_EQ(table(db, "supplier").row_count(), c.supplier);
  EXPECT_EQ(table(db, "part").row_count(), c.part);
  EXPECT_EQ(table(db, "date").row_count(), c.date);
  const Table& lo = table(db, "lineorder");
  // 1..7 lines per order, uniformly: about 4 per order.
  EXPECT_NEAR(double(lo.row_count()) / double(c.orders), 4.0, 0.05) << "SF " << sf;
  // Lines of an order are consecutive rows numbered 1..n; orders are counted exactly.
  const int32_t *ok = ints(lo, "lo_orderkey"), *ln = ints(lo, "lo_linenumber");
  uint64_t orders = 0;
  for (uint64_t r = 0; r < lo.row_count(); r++) {
    if (ln[r] == 1) {
      orders++;
      if (r > 0) {
        ASSERT_GT(ok[r], ok[r - 1]);
      }
    } else {
      ASSERT_EQ(ok[r], ok[r - 1]);
      ASSERT_EQ(ln[r], ln[r - 1] + 1);
    }
    ASSERT_GE(ln[r], 1);
    ASSERT_LE(ln[r], 7);
  }
  EXPECT_EQ(orders, c.orders);
}

TEST(SsbGenerator, RowCountsAtSf001) { expect_row_counts(0.01); }
TEST(SsbGenerator, RowCountsAtSf01) { expect_row_counts(0.1); }

bool same_column(const Column& a, const Column& b) {
  if (a.size() != b.size() || !(a.type() == b.type())) return false;
  if (std::memcmp(a.buffer()->data(), b.buffer()->data(), a.size() * size_t(a.type().physical_width())) != 0)
    return false;
  if (!a.dictionary()) return !b.dictionary();
  return b.dictionary() && a.dictionary()->chars() == b.dictionary()->chars() &&
         std::ranges::equal(a.dictionary()->offsets(), b.dictionary()->offsets());
}

std::vector<TablePtr> generate_with(double sf, uint64_t seed, int threads) {
  GenOptions o;
  o.scale_factor = sf;
  o.seed = seed;
  o.threads = threads;
  o.progress = false;
  return generate(o);
}

TEST(SsbGenerator, SameSeedSameDataWhateverTheThreadCount) {
  auto one = generate_with(0.02, 7, 1);
  for (int threads : {2, 3}) {
    auto other = generate_with(0.02, 7, threads);
    ASSERT_EQ(one.size(), other.size());
    for (size_t t = 0; t < one.size(); t++)
      for (size_t c = 0; c < one[t]->column_count(); c++)
        EXPECT_TRUE(same_column(one[t]->column(c), other[t]->column(c)))
            << one[t]->column(c).name() << " differs with " << threads << " threads";
  }
}

TEST(SsbGenerator, DifferentSeedsDifferentData) {
  auto a = generate_with(0.01, 1, 2), b = generate_with(0.01, 2, 2);
  for (const char* name : {"lineorder", "customer", "part"}) {
    const Table &ta = table(a, name), &tb = table(b, name);
    int differing = 0;
    for (size_t c = 0; c < ta.column_count(); c++) differing += !same_column(ta.column(c), tb.column(c));
    EXPECT_GT(differing, 3) << name;
  }
}

TEST(SsbDomains, Customer) {
  const Table& c = table(sf01(), "customer");
  std::regex name_re("Customer#[0-9]{9}"), phone_re("[0-9]{2}-[0-9]{3}-[0-9]{3}-[0-9]{4}");
  const int32_t* key = ints(c, "c_custkey");
  for (uint64_t r = 0; r < c.row_count(); r++) {
    ASSERT_EQ(key[r], int32_t(r + 1));
    std::string name = str(c, "c_name", r), phone = str(c, "c_phone", r), nation = str(c, "c_nation", r),
                city = str(c, "c_city", r), addr = str(c, "c_address", r);
    ASSERT_TRUE(std::regex_match(name, name_re)) << name;
    ASSERT_EQ(std::stoi(name.substr(9)), key[r]);
    ASSERT_TRUE(std::regex_match(phone, phone_re)) << phone;
    auto n = std::find(domains::kNationNames.begin(), domains::kNationNames.end(), nation);
    ASSERT_NE(n, domains::kNationNames.end()) << nation;
    const int ni = int(n - domains::kNationNames.begin());
    ASSERT_EQ(std::stoi(phone.substr(0, 2)), 10 + ni);
    ASSERT_EQ(str(c, "c_region", r), domains::kRegionNames[size_t(domains::kNationRegion[size_t(ni)])]);
    ASSERT_EQ(city.size(), 10u) << city;
    std::string prefix = nation.substr(0, 9);
    prefix.resize(9, ' ');
    ASSERT_EQ(city.substr(0, 9), prefix);
    ASSERT_TRUE(city[9] >= '0' && city[9] <= '9');
    ASSERT_GE(addr.size(), 6u);
    ASSERT_LE(addr.size(), 24u);
    ASSERT_EQ(addr.find_first_of("|\n"), std::string::npos);
  }
  EXPECT_EQ(distinct(c, "c_nation").size(), 25u);
  EXPECT_EQ(distinct(c, "c_region"), (std::set<std::string>{"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"}));
  EXPECT_EQ(distinct(c, "c_city").size(), 250u);
  EXPECT_TRUE(distinct(c, "c_city").count("UNITED KI1"));
  EXPECT_TRUE(distinct(c, "c_city").count("UNITED ST9"));
  EXPECT_EQ(distinct(c, "c_mktsegment"),
            (std::set<std::string>{"AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY"}));
  // Every dictionary holds exactly the values that occur.
  for (const char* col : {"c_city", "c_nation", "c_region", "c_mktsegment", "c_address", "c_phone"})
    EXPECT_EQ(column(c, col).dictionary()->size(), distinct(c, col).size()) << col;
}

TEST(SsbDomains, NationsAndRegions) {
  std::map<std::string, std::set<std::string>> by_region;
  for (int n = 0; n < domains::kNations; n++)
    by_region[std::string(domains::kRegionNames[size_t(domains::kNationRegion[size_t(n)])])].insert(
        std::string(domains::kNationNames[size_t(n)]));
  ASSERT_EQ(by_region.size(), 5u);
  for (auto& [region, nations] : by_region) EXPECT_EQ(nations.size(), 5u) << region;
  EXPECT_TRUE(by_region["AMERICA"].count("UNITED STATES"));
  EXPECT_TRUE(by_region["ASIA"].count("CHINA"));
  EXPECT_TRUE(by_region["EUROPE"].count("UNITED KINGDOM"));
  EXPECT_TRUE(by_region["MIDDLE EAST"].count("EGYPT"));
  EXPECT_TRUE(by_region["AFRICA"].count("KENYA"));
}

TEST(SsbDomains, Supplier) {
  const Table& s = table(sf01(), "supplier");
  std::regex name_re("Supplier#[0-9]{9}");
  for (uint64_t r = 0; r < s.row_count(); r++) {
    ASSERT_EQ(ints(s, "s_suppkey")[r], int32_t(r + 1));
    ASSERT_TRUE(std::regex_match(str(s, "s_name", r), name_re));
    ASSERT_EQ(str(s, "s_city", r).size(), 10u);
    std::string prefix = str(s, "s_nation", r).substr(0, 9);
    prefix.resize(9, ' ');
    ASSERT_EQ(str(s, "s_city", r).substr(0, 9), prefix);
  }
  EXPECT_EQ(distinct(s, "s_region").size(), 5u);
}

TEST(SsbDomains, Part) {
  const Table& p = table(sf01(), "part");
  std::set<std::string> colors(domains::kColorNames.begin(), domains::kColorNames.end());
  std::set<std::string> types, containers;
  for (int t = 0; t < domains::kTypes; t++) types.insert(domains::type_name(t));
  for (int k = 0; k < domains::kContainers; k++) containers.insert(domains::container_name(k));
  ASSERT_EQ(types.size(), 150u);
  ASSERT_EQ(containers.size(), 40u);
  std::regex brand_re("MFGR#([1-5])([1-5])([0-9]+)");
  for (uint64_t r = 0; r < p.row_count(); r++) {
    ASSERT_EQ(ints(p, "p_partkey")[r], int32_t(r + 1));
    std::string mfgr = str(p, "p_mfgr", r), cat = str(p, "p_category", r), brand = str(p, "p_brand1", r);
    std::smatch m;
    ASSERT_TRUE(std::regex_match(brand, m, brand_re)) << brand;
    ASSERT_EQ(mfgr, "MFGR#" + m[1].str());
    ASSERT_EQ(cat, "MFGR#" + m[1].str() + m[2].str());
    int b = std::stoi(m[3].str());
    ASSERT_TRUE(b >= 1 && b <= 40) << brand;
    std::string color = str(p, "p_color", r), name = str(p, "p_name", r);
    ASSERT_TRUE(colors.count(color)) << color;
    auto space = name.find(' ');
    ASSERT_NE(space, std::string::npos) << name;
    std::string w1 = name.substr(0, space), w2 = name.substr(space + 1);
    ASSERT_TRUE(colors.count(w1) && colors.count(w2)) << name;
    ASSERT_TRUE(w1 != w2 && w1 != color && w2 != color) << name << " / " << color;
    ASSERT_TRUE(types.count(str(p, "p_type", r)));
    ASSERT_TRUE(containers.count(str(p, "p_container", r)));
    ASSERT_GE(ints(p, "p_size")[r], 1);
    ASSERT_LE(ints(p, "p_size")[r], 50);
  }
  EXPECT_EQ(distinct(p, "p_mfgr").size(), 5u);
  EXPECT_EQ(distinct(p, "p_category").size(), 25u);
  EXPECT_EQ(distinct(p, "p_brand1").size(), 1000u);
  EXPECT_EQ(distinct(p, "p_color").size(), 92u);
  EXPECT_EQ(distinct(p, "p_type").size(), 150u);
  EXPECT_EQ(distinct(p, "p_container").size(), 40u);
  EXPECT_TRUE(distinct(p, "p_brand1").count("MFGR#2221"));
  EXPECT_EQ(column(p, "p_size").stats().min, 1);
  EXPECT_EQ(column(p, "p_size").stats().max, 50);
}

TEST(SsbDomains, Date) {
  const Table& d = table(sf001(), "date");
  ASSERT_EQ(d.row_count(), 2556u);
  auto at = [&](const char* col, uint64_t r) { return column(d, col).get(r).to_string(); };
  // 1992-01-01 was a Wednesday.
  EXPECT_EQ(at("d_datekey", 0), "19920101");
  EXPECT_EQ(at("d_date", 0), "January 1, 1992");
  EXPECT_EQ(at("d_dayofweek", 0), "Wednesday");
  EXPECT_EQ(at("d_daynuminweek", 0), "4");
  EXPECT_EQ(at("d_month", 0), "January");
  EXPECT_EQ(at("d_year", 0), "1992");
  EXPECT_EQ(at("d_yearmonthnum", 0), "199201");
  EXPECT_EQ(at("d_yearmonth", 0), "Jan1992");
  EXPECT_EQ(at("d_weeknuminyear", 0), "1");
  EXPECT_EQ(at("d_sellingseason", 0), "Winter");
  EXPECT_EQ(at("d_holidayfl", 0), "1");
  EXPECT_EQ(at("d_weekdayfl", 0), "1");
  EXPECT_EQ(at("d_datekey", 2555), "19981230");
  // 1992-02-29: leap day, last day of its month, a Saturday.
  EXPECT_EQ(at("d_datekey", 59), "19920229");
  EXPECT_EQ(at("d_lastdayinmonthfl", 59), "1");
  EXPECT_EQ(at("d_lastdayinweekfl", 59), "1");
  EXPECT_EQ(at("d_weekdayfl", 59), "0");
  EXPECT_EQ(at("d_daynuminyear", 59), "60");
  EXPECT_EQ(at("d_weeknuminyear", 59), "9");
  // 1997-12-24: holiday, Christmas season.
  const int32_t* key = ints(d, "d_datekey");
  uint64_t xmas = uint64_t(std::find(key, key + d.row_count(), 19971224) - key);
  ASSERT_LT(xmas, d.row_count());
  EXPECT_EQ(at("d_holidayfl", xmas), "1");
  EXPECT_EQ(at("d_sellingseason", xmas), "Christmas");
  EXPECT_EQ(at("d_yearmonth", xmas), "Dec1997");
  EXPECT_EQ(at("d_date", xmas), "December 24, 1997");

  EXPECT_EQ(distinct(d, "d_yearmonth").size(), 84u);
  EXPECT_EQ(distinct(d, "d_dayofweek").size(), 7u);
  EXPECT_EQ(distinct(d, "d_sellingseason"), (std::set<std::string>{"Christmas", "Fall", "Spring", "Summer", "Winter"}));
  EXPECT_EQ(distinct(d, "d_date").size(), 2556u);
  int holidays = 0, last_in_month = 0, weekdays = 0;
  for (uint64_t r = 0; r < d.row_count(); r++) {
    holidays += at("d_holidayfl", r) == "1";
    last_in_month += at("d_lastdayinmonthfl", r) == "1";
    weekdays += at("d_weekdayfl", r) == "1";
    int dk = key[r];
    ASSERT_EQ(column(d, "d_year").get_int(r), dk / 10000);
    ASSERT_EQ(column(d, "d_yearmonthnum").get_int(r), dk / 100);
    ASSERT_EQ(column(d, "d_monthnuminyear").get_int(r), dk / 100 % 100);
    ASSERT_EQ(column(d, "d_daynuminmonth").get_int(r), dk % 100);
    ASSERT_EQ(column(d, "d_weeknuminyear").get_int(r), column(d, "d_daynuminyear").get_int(r) / 7 + 1);
    if (r > 0) {  // days of the week follow each other, 1..7
      int64_t today = column(d, "d_daynuminweek").get_int(r), yesterday = column(d, "d_daynuminweek").get_int(r - 1);
      ASSERT_EQ(today, yesterday % 7 + 1);
    }
  }
  EXPECT_EQ(holidays, 70);             // 10 a year
  EXPECT_EQ(last_in_month, 83);        // the calendar ends on Dec 30, 1998
  EXPECT_NEAR(weekdays, 2556 * 5 / 7, 2);
}

TEST(SsbDomains, Lineorder) {
  const auto& db = sf01();
  const Table& lo = table(db, "lineorder");
  auto check_range = [&](const char* col, int64_t lo_v, int64_t hi_v) {
    EXPECT_EQ(column(lo, col).stats().min, lo_v) << col;
    EXPECT_EQ(column(lo, col).stats().max, hi_v) << col;
  };
  check_range("lo_quantity", 1, 50);
  check_range("lo_discount", 0, 10);
  check_range("lo_tax", 0, 8);
  check_range("lo_linenumber", 1, 7);
  EXPECT_EQ(column(lo, "lo_orderdate").stats().min, 19920101);
  EXPECT_EQ(column(lo, "lo_orderdate").stats().max, 19980802);  // dbgen: last 151 days hold no orders
  EXPECT_EQ(distinct(lo, "lo_orderpriority"),
            (std::set<std::string>{"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"}));
  EXPECT_EQ(distinct(lo, "lo_shippriority"), (std::set<std::string>{"0"}));
  EXPECT_EQ(distinct(lo, "lo_shipmode"), (std::set<std::string>{"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"}));
  // Commit dates are 30..90 days after the order date.
  const int32_t *od = ints(lo, "lo_orderdate"), *cd = ints(lo, "lo_commitdate");
  auto days = [](int32_t yyyymmdd) {
    return days_from_civil(yyyymmdd / 10000, unsigned(yyyymmdd / 100 % 100), unsigned(yyyymmdd % 100));
  };
  int lo_gap = 1000, hi_gap = -1000;
  for (uint64_t r = 0; r < lo.row_count(); r++) {
    int gap = days(cd[r]) - days(od[r]);
    lo_gap = std::min(lo_gap, gap);
    hi_gap = std::max(hi_gap, gap);
  }
  EXPECT_EQ(lo_gap, 30);
  EXPECT_EQ(hi_gap, 90);
}

TEST(SsbIntegrity, EveryForeignKeyExists) {
  for (double sf : {0.01, 0.1}) {
    const auto& db = oracle::cached(sf);
    const Table& lo = table(db, "lineorder");
    auto keys = [&](const char* t, const char* col) {
      const Table& dim = table(db, t);
      return std::set<int32_t>(ints(dim, col), ints(dim, col) + dim.row_count());
    };
    auto cust = keys("customer", "c_custkey"), part = keys("part", "p_partkey"), supp = keys("supplier", "s_suppkey"),
         date = keys("date", "d_datekey");
    const int32_t *ck = ints(lo, "lo_custkey"), *pk = ints(lo, "lo_partkey"), *sk = ints(lo, "lo_suppkey"),
                  *od = ints(lo, "lo_orderdate"), *cd = ints(lo, "lo_commitdate");
    for (uint64_t r = 0; r < lo.row_count(); r++) {
      ASSERT_TRUE(cust.count(ck[r])) << "lo_custkey " << ck[r];
      ASSERT_TRUE(part.count(pk[r])) << "lo_partkey " << pk[r];
      ASSERT_TRUE(supp.count(sk[r])) << "lo_suppkey " << sk[r];
      ASSERT_TRUE(date.count(od[r])) << "lo_orderdate " << od[r];
      ASSERT_TRUE(date.count(cd[r])) << "lo_commitdate " << cd[r];
      ASSERT_NE(ck[r] % 3, 0) << "dbgen gives no orders to customers whose key is divisible by 3";
    }
    // Every part, supplier and non-skipped customer is referenced at SF 0.1.
    if (sf == 0.1) {
      std::set<int32_t> used_parts(pk, pk + lo.row_count()), used_cust(ck, ck + lo.row_count());
      EXPECT_EQ(used_parts.size(), part.size());
      EXPECT_EQ(used_cust.size(), cust.size() - cust.size() / 3);
    }
  }
}

TEST(SsbFormulas, PricesFollowDbgen) {
  const Table& lo = table(sf01(), "lineorder");
  const int32_t *pk = ints(lo, "lo_partkey"), *qty = ints(lo, "lo_quantity"), *ext = ints(lo, "lo_extendedprice"),
                *disc = ints(lo, "lo_discount"), *rev = ints(lo, "lo_revenue"), *cost = ints(lo, "lo_supplycost"),
                *tax = ints(lo, "lo_tax"), *total = ints(lo, "lo_ordtotalprice"), *ln = ints(lo, "lo_linenumber");
  // Written out here again on purpose: an independent statement of dbgen's formulas.
  auto retail = [](int64_t p) { return 90000 + (p / 10) % 20001 + 100 * (p % 1000); };
  EXPECT_EQ(retail(1), 90100);
  EXPECT_EQ(retail(200000), 110000);
  uint64_t order_start = 0;
  int64_t order_total = 0;
  for (uint64_t r = 0; r <= lo.row_count(); r++) {
    if (r == lo.row_count() || ln[r] == 1) {
      for (uint64_t k = order_start; k < r; k++) ASSERT_EQ(total[k], order_total) << "row " << k;
      order_start = r;
      order_total = 0;
      if (r == lo.row_count()) break;
    }
    int64_t price = retail(pk[r]);
    ASSERT_EQ(ext[r], price * qty[r]);
    ASSERT_EQ(rev[r], int64_t(ext[r]) * (100 - disc[r]) / 100);
    ASSERT_EQ(cost[r], 6 * price / 10);
    order_total += int64_t(rev[r]) * (100 + tax[r]) / 100;
  }
}

}  // namespace
}  // namespace raydb::ssb
