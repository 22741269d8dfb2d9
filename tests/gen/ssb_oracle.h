#pragma once
// Brute-force evaluation of the 13 SSB queries over generated tables: plain loops
// over decoded strings, independent of raydb's engine. An oracle for the generator's
// selectivities and group counts (tests/gen and tests/slow).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gen/ssb/generator.h"
#include "storage/table.h"

namespace raydb::ssb::oracle {

inline const Table& table(const std::vector<TablePtr>& tables, const std::string& name) {
  for (auto& t : tables)
    if (t->name() == name) return *t;
  throw std::runtime_error("no table " + name);
}

inline const Column& column(const Table& t, const std::string& name) {
  int i = t.find_column(name);
  if (i < 0) throw std::runtime_error("no column " + t.name() + "." + name);
  return t.column(size_t(i));
}

inline const int32_t* ints(const Table& t, const std::string& name) { return column(t, name).data<int32_t>(); }

// Decoded string of a VARCHAR cell.
inline std::string str(const Table& t, const std::string& name, uint64_t row) {
  const Column& c = column(t, name);
  return std::string(c.dictionary()->at(uint32_t(c.data<int32_t>()[row])));
}

// Cached generation per (SF, seed), so tests share one data set.
inline const std::vector<TablePtr>& cached(double sf, uint64_t seed = GenOptions{}.seed) {
  static std::map<std::pair<double, uint64_t>, std::vector<TablePtr>> cache;
  auto& v = cache[{sf, seed}];
  if (v.empty()) {
    GenOptions o;
    o.scale_factor = sf;
    o.seed = seed;
    o.progress = false;
    v = generate(o);
  }
  return v;
}

// A dimension evaluated once per row: the group label of rows that pass, or nothing.
struct Dimension {
  std::unordered_map<int32_t, std::optional<std::string>> by_key;
  const std::optional<std::string>* find(int32_t key) const {
    auto it = by_key.find(key);
    return it == by_key.end() ? nullptr : &it->second;
  }
};

using RowLabel = std::function<std::optional<std::string>(const Table&, uint64_t)>;

inline Dimension evaluate(const Table& t, const std::string& key_column, const RowLabel& label) {
  Dimension d;
  const int32_t* key = ints(t, key_column);
  for (uint64_t r = 0; r < t.row_count(); r++) d.by_key[key[r]] = label(t, r);
  return d;
}

// A label from the given columns of a row that passes `pred` (columns joined by '|').
inline RowLabel label_if(std::function<bool(const Table&, uint64_t)> pred, std::vector<std::string> group_columns) {
  return [pred, group_columns](const Table& t, uint64_t r) -> std::optional<std::string> {
    if (!pred(t, r)) return std::nullopt;
    std::string s;
    for (auto& c : group_columns) s += (t.column(size_t(t.find_column(c))).type().id == TypeId::kVarchar
                                            ? str(t, c, r)
                                            : std::to_string(column(t, c).get_int(r))) + "|";
    return s;
  };
}

struct QueryAnswer {
  std::map<std::string, int64_t> groups;  // group label -> sum
  int64_t rows = 0;                       // qualifying lineorder rows
};

// The flight-1 queries: sum(lo_extendedprice * lo_discount) over one date filter.
inline QueryAnswer flight1(const std::vector<TablePtr>& db, const RowLabel& date_label, int dlo, int dhi, int qlo,
                           int qhi) {
  const Table& lo = table(db, "lineorder");
  Dimension date = evaluate(table(db, "date"), "d_datekey", date_label);
  const int32_t *od = ints(lo, "lo_orderdate"), *disc = ints(lo, "lo_discount"), *qty = ints(lo, "lo_quantity"),
                *ext = ints(lo, "lo_extendedprice");
  QueryAnswer a;
  int64_t sum = 0;
  for (uint64_t r = 0; r < lo.row_count(); r++) {
    if (disc[r] < dlo || disc[r] > dhi || qty[r] < qlo || qty[r] > qhi) continue;
    auto* d = date.find(od[r]);
    if (!d || !*d) continue;
    sum += int64_t(ext[r]) * disc[r];
    a.rows++;
  }
  a.groups[""] = sum;
  return a;
}

// Star joins of flights 2-4: every dimension must pass; the group is the
// concatenation of the dimension labels; `measure` sums per lineorder row.
struct StarQuery {
  RowLabel date, customer, supplier, part;  // empty: dimension not restricted, no label
  std::function<int64_t(const Table&, uint64_t)> measure;
};

inline QueryAnswer star(const std::vector<TablePtr>& db, const StarQuery& q) {
  const Table& lo = table(db, "lineorder");
  auto dim = [&](const RowLabel& l, const char* t, const char* key) -> std::optional<Dimension> {
    if (!l) return std::nullopt;
    return evaluate(table(db, t), key, l);
  };
  auto date = dim(q.date, "date", "d_datekey");
  auto cust = dim(q.customer, "customer", "c_custkey");
  auto supp = dim(q.supplier, "supplier", "s_suppkey");
  auto part = dim(q.part, "part", "p_partkey");
  const int32_t *od = ints(lo, "lo_orderdate"), *ck = ints(lo, "lo_custkey"), *sk = ints(lo, "lo_suppkey"),
                *pk = ints(lo, "lo_partkey");
  QueryAnswer a;
  for (uint64_t r = 0; r < lo.row_count(); r++) {
    std::string label;
    bool pass = true;
    for (auto [d, key] : {std::pair{&date, od[r]}, {&supp, sk[r]}, {&part, pk[r]}, {&cust, ck[r]}}) {
      if (!*d) continue;
      auto* v = (*d)->find(key);
      if (!v || !*v) {
        pass = false;
        break;
      }
      label += **v;
    }
    if (!pass) continue;
    a.groups[label] += q.measure(lo, r);
    a.rows++;
  }
  return a;
}

inline bool eq(const Table& t, uint64_t r, const char* col, const char* value) { return str(t, col, r) == value; }
inline int64_t revenue(const Table& lo, uint64_t r) { return ints(lo, "lo_revenue")[r]; }
inline int64_t profit(const Table& lo, uint64_t r) {
  return int64_t(ints(lo, "lo_revenue")[r]) - ints(lo, "lo_supplycost")[r];
}

// All 13 queries by name ("q1.1" .. "q4.3").
inline QueryAnswer run_query(const std::vector<TablePtr>& db, const std::string& name) {
  auto year = [](const Table& t, uint64_t r) { return int(column(t, "d_year").get_int(r)); };
  auto always = [](const Table&, uint64_t) { return true; };
  if (name == "q1.1")
    return flight1(db, label_if([&](auto& t, auto r) { return year(t, r) == 1993; }, {}), 1, 3, 1, 24);
  if (name == "q1.2")
    return flight1(db, label_if([](auto& t, auto r) { return column(t, "d_yearmonthnum").get_int(r) == 199401; }, {}),
                   4, 6, 26, 35);
  if (name == "q1.3")
    return flight1(
        db,
        label_if([&](auto& t, auto r) { return column(t, "d_weeknuminyear").get_int(r) == 6 && year(t, r) == 1994; },
                 {}),
        5, 7, 26, 35);
  StarQuery q;
  if (name[1] == '2') {
    q.date = label_if(always, {"d_year"});
    q.measure = revenue;
    if (name == "q2.1") {
      q.part = label_if([](auto& t, auto r) { return eq(t, r, "p_category", "MFGR#12"); }, {"p_brand1"});
      q.supplier = label_if([](auto& t, auto r) { return eq(t, r, "s_region", "AMERICA"); }, {});
    } else if (name == "q2.2") {
      q.part = label_if(
          [](auto& t, auto r) {
            auto b = str(t, "p_brand1", r);
            return b >= "MFGR#2221" && b <= "MFGR#2228";
          },
          {"p_brand1"});
      q.supplier = label_if([](auto& t, auto r) { return eq(t, r, "s_region", "ASIA"); }, {});
    } else {
      q.part = label_if([](auto& t, auto r) { return eq(t, r, "p_brand1", "MFGR#2239"); }, {"p_brand1"});
      q.supplier = label_if([](auto& t, auto r) { return eq(t, r, "s_region", "EUROPE"); }, {});
    }
    return star(db, q);
  }
  if (name[1] == '3') {
    q.measure = revenue;
    auto years_92_97 = label_if([&](auto& t, auto r) { return year(t, r) >= 1992 && year(t, r) <= 1997; }, {"d_year"});
    auto ki15 = [](const char* col) {
      return [col](const Table& t, uint64_t r) { return eq(t, r, col, "UNITED KI1") || eq(t, r, col, "UNITED KI5"); };
    };
    if (name == "q3.1") {
      q.date = years_92_97;
      q.customer = label_if([](auto& t, auto r) { return eq(t, r, "c_region", "ASIA"); }, {"c_nation"});
      q.supplier = label_if([](auto& t, auto r) { return eq(t, r, "s_region", "ASIA"); }, {"s_nation"});
    } else if (name == "q3.2") {
      q.date = years_92_97;
      q.customer = label_if([](auto& t, auto r) { return eq(t, r, "c_nation", "UNITED STATES"); }, {"c_city"});
      q.supplier = label_if([](auto& t, auto r) { return eq(t, r, "s_nation", "UNITED STATES"); }, {"s_city"});
    } else {
      q.date = name == "q3.3" ? years_92_97
                              : label_if([](auto& t, auto r) { return eq(t, r, "d_yearmonth", "Dec1997"); }, {"d_year"});
      q.customer = label_if(ki15("c_city"), {"c_city"});
      q.supplier = label_if(ki15("s_city"), {"s_city"});
    }
    return star(db, q);
  }
  q.measure = profit;
  auto mfgr12 = [](const Table& t, uint64_t r) { return eq(t, r, "p_mfgr", "MFGR#1") || eq(t, r, "p_mfgr", "MFGR#2"); };
  auto years_97_98 = [&](const Table& t, uint64_t r) { return year(t, r) == 1997 || year(t, r) == 1998; };
  if (name == "q4.1") {
    q.date = label_if(always, {"d_year"});
    q.customer = label_if([](auto& t, auto r) { return eq(t, r, "c_region", "AMERICA"); }, {"c_nation"});
    q.supplier = label_if([](auto& t, auto r) { return eq(t, r, "s_region", "AMERICA"); }, {});
    q.part = label_if(mfgr12, {});
  } else if (name == "q4.2") {
    q.date = label_if(years_97_98, {"d_year"});
    q.customer = label_if([](auto& t, auto r) { return eq(t, r, "c_region", "AMERICA"); }, {});
    q.supplier = label_if([](auto& t, auto r) { return eq(t, r, "s_region", "AMERICA"); }, {"s_nation"});
    q.part = label_if(mfgr12, {"p_category"});
  } else if (name == "q4.3") {
    q.date = label_if(years_97_98, {"d_year"});
    q.supplier = label_if([](auto& t, auto r) { return eq(t, r, "s_nation", "UNITED STATES"); }, {"s_city"});
    q.part = label_if([](auto& t, auto r) { return eq(t, r, "p_category", "MFGR#14"); }, {"p_brand1"});
    q.customer = label_if([](auto& t, auto r) { return eq(t, r, "c_region", "AMERICA"); }, {});
  } else {
    throw std::runtime_error("unknown SSB query " + name);
  }
  return star(db, q);
}

}  // namespace raydb::ssb::oracle
