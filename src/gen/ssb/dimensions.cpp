// customer, supplier, part and date: the dimension tables of SSB.
#include <fmt/format.h>

#include <string_view>

#include "gen/ssb/columns.h"
#include "gen/ssb/domains.h"
#include "gen/ssb/random.h"
#include "gen/ssb/tables.h"
#include "raydb/types.h"

namespace raydb::ssb {

namespace d = domains;

namespace {

template <size_t N>
std::vector<std::string> to_strings(const std::array<std::string_view, N>& a) {
  return std::vector<std::string>(a.begin(), a.end());
}

// dbgen's address: 6..24 characters (0.4x..1.6x of 15) from a 64-letter alphabet.
std::string random_address(RowRandom& rng) {
  static constexpr std::string_view kAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,";
  const int len = int(rng.uniform(6, 24));
  std::string s(size_t(len), ' ');
  uint64_t bits = 0;
  for (int i = 0; i < len; i++) {
    if (i % 10 == 0) bits = rng.next();  // 6 bits per letter, 10 letters per draw
    s[size_t(i)] = kAlphabet[bits & 63];
    bits >>= 6;
  }
  return s;
}

// "CC-AAA-EEE-NNNN" with country code 10 + nation, as dbgen formats phones.
std::string random_phone(RowRandom& rng, int nation) {
  int area = int(rng.uniform(100, 999)), exchange = int(rng.uniform(100, 999)), number = int(rng.uniform(1000, 9999));
  return fmt::format("{:02d}-{:03d}-{:03d}-{:04d}", 10 + nation, area, exchange, number);
}

std::vector<std::string> city_domain() {
  std::vector<std::string> v;
  for (int n = 0; n < d::kNations; n++)
    for (int digit = 0; digit < d::kCitiesPerNation; digit++) v.push_back(d::city_name(n, digit));
  return v;
}

// The columns customer and supplier share: key, name, address, city, nation,
// region, phone (named <prefix><column>, the key <prefix><key>). `extra(row, rng)`
// draws a table's own columns from the same stream.
template <typename Extra>
std::vector<ColumnPtr> party_columns(const TableJob& job, uint64_t rows, Stream stream, std::string_view prefix,
                                     std::string_view key, std::string_view name_tag, Extra&& extra) {
  Int32Array keys(rows), city(rows), nation(rows), region(rows);
  std::vector<std::string> name(rows), address(rows), phone(rows);
#pragma omp parallel for schedule(static) num_threads(job.threads)
  for (uint64_t r = 0; r < rows; r++) {
    RowRandom rng(job.seed, stream, r);
    keys[r] = int32_t(r + 1);
    name[r] = fmt::format("{}{:09d}", name_tag, r + 1);
    address[r] = random_address(rng);
    const int n = int(rng.uniform(0, d::kNations - 1));
    nation[r] = n;
    region[r] = d::kNationRegion[size_t(n)];
    city[r] = n * d::kCitiesPerNation + int(rng.uniform(0, d::kCitiesPerNation - 1));
    phone[r] = random_phone(rng, n);
    extra(r, rng);
  }
  auto col = [&](std::string_view suffix) { return fmt::format("{}{}", prefix, suffix); };
  std::vector<ColumnPtr> cols;
  cols.push_back(integer_column(col(key), std::move(keys)));
  cols.push_back(varchar_from_strings(col("name"), name));
  cols.push_back(varchar_from_strings(col("address"), address));
  cols.push_back(varchar_from_domain(col("city"), city_domain(), std::move(city), job.threads));
  cols.push_back(varchar_from_domain(col("nation"), to_strings(d::kNationNames), std::move(nation), job.threads));
  cols.push_back(varchar_from_domain(col("region"), to_strings(d::kRegionNames), std::move(region), job.threads));
  cols.push_back(varchar_from_strings(col("phone"), phone));
  return cols;
}

}  // namespace

TablePtr generate_customer(const TableJob& job) {
  const uint64_t rows = job.counts.customer;
  Int32Array segment(rows);
  auto cols = party_columns(job, rows, Stream::kCustomer, "c_", "custkey", "Customer#",
                            [&](uint64_t r, RowRandom& rng) { segment[r] = int32_t(rng.uniform(0, 4)); });
  cols.push_back(varchar_from_domain("c_mktsegment", to_strings(d::kMktSegments), std::move(segment), job.threads));
  return assemble_table("customer", std::move(cols));
}

TablePtr generate_supplier(const TableJob& job) {
  auto cols = party_columns(job, job.counts.supplier, Stream::kSupplier, "s_", "suppkey", "Supplier#",
                            [](uint64_t, RowRandom&) {});
  return assemble_table("supplier", std::move(cols));
}

TablePtr generate_part(const TableJob& job) {
  const uint64_t rows = job.counts.part;
  Int32Array key(rows), name(rows), mfgr(rows), category(rows), brand(rows), color(rows), type(rows), size(rows),
      container(rows);
#pragma omp parallel for schedule(static) num_threads(job.threads)
  for (uint64_t r = 0; r < rows; r++) {
    RowRandom rng(job.seed, Stream::kPart, r);
    key[r] = int32_t(r + 1);
    // Three distinct color words: the first is p_color, the other two form p_name.
    int c0 = int(rng.uniform(0, d::kColors - 1));
    int c1 = int(rng.uniform(0, d::kColors - 2));
    c1 += c1 >= c0;
    int c2 = int(rng.uniform(0, d::kColors - 3));
    for (int taken : {std::min(c0, c1), std::max(c0, c1)}) c2 += c2 >= taken;
    color[r] = c0;
    name[r] = c1 * d::kColors + c2;
    const int m = int(rng.uniform(0, d::kMfgrs - 1));
    const int c = int(rng.uniform(0, d::kCategoriesPerMfgr - 1));
    const int b = int(rng.uniform(0, d::kBrandsPerCategory - 1));
    mfgr[r] = m;
    category[r] = m * d::kCategoriesPerMfgr + c;
    brand[r] = (m * d::kCategoriesPerMfgr + c) * d::kBrandsPerCategory + b;
    type[r] = int32_t(rng.uniform(0, d::kTypes - 1));
    size[r] = int32_t(rng.uniform(1, 50));
    container[r] = int32_t(rng.uniform(0, d::kContainers - 1));
  }

  std::vector<std::string> names, mfgrs, categories, brands, types, containers;
  for (int a = 0; a < d::kColors; a++)
    for (int b = 0; b < d::kColors; b++) names.push_back(fmt::format("{} {}", d::kColorNames[a], d::kColorNames[b]));
  for (int m = 1; m <= d::kMfgrs; m++) {
    mfgrs.push_back(fmt::format("MFGR#{}", m));
    for (int c = 1; c <= d::kCategoriesPerMfgr; c++) {
      categories.push_back(fmt::format("MFGR#{}{}", m, c));
      for (int b = 1; b <= d::kBrandsPerCategory; b++) brands.push_back(fmt::format("MFGR#{}{}{}", m, c, b));
    }
  }
  for (int t = 0; t < d::kTypes; t++) types.push_back(d::type_name(t));
  for (int k = 0; k < d::kContainers; k++) containers.push_back(d::container_name(k));

  const int T = job.threads;
  std::vector<ColumnPtr> cols;
  cols.push_back(integer_column("p_partkey", std::move(key)));
  cols.push_back(varchar_from_domain("p_name", names, std::move(name), T));
  cols.push_back(varchar_from_domain("p_mfgr", mfgrs, std::move(mfgr), T));
  cols.push_back(varchar_from_domain("p_category", categories, std::move(category), T));
  cols.push_back(varchar_from_domain("p_brand1", brands, std::move(brand), T));
  cols.push_back(varchar_from_domain("p_color", to_strings(d::kColorNames), std::move(color), T));
  cols.push_back(varchar_from_domain("p_type", types, std::move(type), T));
  cols.push_back(integer_column("p_size", std::move(size)));
  cols.push_back(varchar_from_domain("p_container", containers, std::move(container), T));
  return assemble_table("part", std::move(cols));
}

namespace {

bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int y, int m) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return kDays[m - 1] + (m == 2 && is_leap(y));
}

const std::vector<std::string> kSeasons = {"Christmas", "Fall", "Spring", "Summer", "Winter"};
// dbgen's selling seasons by month (index into kSeasons): Christmas Nov-Dec, Summer
// May-Aug, Winter Jan-Mar, Spring Apr, Fall Sep-Oct.
int selling_season(int month) {
  if (month >= 11) return 0;
  if (month >= 9) return 1;
  if (month >= 5) return 3;
  if (month == 4) return 2;
  return 4;
}

// dbgen's ten holidays (month, day).
bool is_holiday(int month, int day) {
  static constexpr int kHolidays[10][2] = {{12, 24}, {1, 1},  {2, 20}, {4, 20},  {5, 20},
                                           {7, 20},  {8, 20}, {9, 20}, {10, 20}, {11, 20}};
  for (auto& h : kHolidays)
    if (h[0] == month && h[1] == day) return true;
  return false;
}

}  // namespace

// The calendar as the specification describes it. dbgen's date table has bugs that
// are not reproduced: month names "Augest" and "Octorber", weekday names shifted by
// one day, and d_lastdayinmonthfl inverted. Its week number (day of year / 7 + 1)
// and selling seasons are kept, as queries select on them.
TablePtr generate_date() {
  const uint64_t rows = d::kDateTableDays;
  Int32Array datekey(rows), date(rows), dayofweek(rows), month(rows), year(rows), yearmonthnum(rows), yearmonth(rows),
      daynuminweek(rows), daynuminmonth(rows), daynuminyear(rows), monthnuminyear(rows), weeknuminyear(rows),
      season(rows), lastdayinweek(rows), lastdayinmonth(rows), holiday(rows), weekday(rows);
  std::vector<std::string> date_text(rows);
  const int32_t first = days_from_civil(1992, 1, 1);
  for (uint64_t r = 0; r < rows; r++) {
    const int32_t day = first + int32_t(r);
    int y;
    unsigned m, dd;
    civil_from_days(day, y, m, dd);
    const int wday = int((day % 7 + 11) % 7);  // 1970-01-01 was a Thursday; 0 = Sunday
    datekey[r] = int32_t(y * 10000 + int(m) * 100 + int(dd));
    date_text[r] = fmt::format("{} {}, {}", d::kMonthNames[m - 1], dd, y);
    dayofweek[r] = wday;
    month[r] = int32_t(m - 1);
    year[r] = y;
    yearmonthnum[r] = y * 100 + int(m);
    yearmonth[r] = int32_t((y - 1992) * 12 + int(m) - 1);
    daynuminweek[r] = wday + 1;
    daynuminmonth[r] = int32_t(dd);
    daynuminyear[r] = day - days_from_civil(y, 1, 1) + 1;
    monthnuminyear[r] = int32_t(m);
    weeknuminyear[r] = daynuminyear[r] / 7 + 1;  // dbgen's week number: day of year / 7 + 1
    season[r] = selling_season(int(m));
    lastdayinweek[r] = wday == 6;
    lastdayinmonth[r] = int(dd) == days_in_month(y, int(m));
    holiday[r] = is_holiday(int(m), int(dd));
    weekday[r] = wday != 0 && wday != 6;
  }

  std::vector<std::string> yearmonths, flags{"0", "1"};
  for (int y = 1992; y <= 1998; y++)
    for (int m = 0; m < 12; m++) yearmonths.push_back(fmt::format("{}{}", d::kMonthNames[m].substr(0, 3), y));

  std::vector<ColumnPtr> cols;
  cols.push_back(integer_column("d_datekey", std::move(datekey)));
  cols.push_back(varchar_from_strings("d_date", date_text));
  cols.push_back(varchar_from_domain("d_dayofweek", to_strings(d::kWeekdayNames), std::move(dayofweek), 1));
  cols.push_back(varchar_from_domain("d_month", to_strings(d::kMonthNames), std::move(month), 1));
  cols.push_back(integer_column("d_year", std::move(year)));
  cols.push_back(integer_column("d_yearmonthnum", std::move(yearmonthnum)));
  cols.push_back(varchar_from_domain("d_yearmonth", yearmonths, std::move(yearmonth), 1));
  cols.push_back(integer_column("d_daynuminweek", std::move(daynuminweek)));
  cols.push_back(integer_column("d_daynuminmonth", std::move(daynuminmonth)));
  cols.push_back(integer_column("d_daynuminyear", std::move(daynuminyear)));
  cols.push_back(integer_column("d_monthnuminyear", std::move(monthnuminyear)));
  cols.push_back(integer_column("d_weeknuminyear", std::move(weeknuminyear)));
  cols.push_back(varchar_from_domain("d_sellingseason", kSeasons, std::move(season), 1));
  cols.push_back(varchar_from_domain("d_lastdayinweekfl", flags, std::move(lastdayinweek), 1));
  cols.push_back(varchar_from_domain("d_lastdayinmonthfl", flags, std::move(lastdayinmonth), 1));
  cols.push_back(varchar_from_domain("d_holidayfl", flags, std::move(holiday), 1));
  cols.push_back(varchar_from_domain("d_weekdayfl", flags, std::move(weekday), 1));
  return assemble_table("date", std::move(cols));
}

}  // namespace raydb::ssb
