// Issue 14: a differential SQL fuzzer. A small grammar generates SELECTs within
// raydb's SQL (filters of comparisons, BETWEEN, IN, LIKE, AND/OR/NOT, CASE; joins on
// keys and comma joins; GROUP BY with HAVING; DISTINCT; ORDER BY with LIMIT) over the
// hand-made CSV tables (every type, unicode, quotes, an empty table, one row), runs each
// on raydb's CPU backend and on SQLite (support/sqlite_oracle.h) and compares. The seed
// is fixed (2,000 queries; 500 under ASan), so a run is reproducible; RAYDB_FUZZ_QUERIES and RAYDB_FUZZ_SEED change
// the count and seed (the `fuzz` CTest label runs a longer one). The grammar leaves
// out what the oracle cannot judge: division (SQLite's NULL for x/0), products that
// overflow 64 bits, date arithmetic.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "support/fixtures.h"

namespace raydb::test {
namespace {

enum class K { kInt, kBig, kDec, kDbl, kStr, kDate };

struct Col {
  const char* name;
  K kind;
};
struct Tab {
  const char* name;
  std::vector<Col> cols;
};

const std::vector<Tab>& tables() {
  static const std::vector<Tab> t = {
      {"emp",
       {{"id", K::kInt}, {"name", K::kStr}, {"dept", K::kStr}, {"salary", K::kDec}, {"hired", K::kDate},
        {"boss", K::kInt}, {"rating", K::kDbl}, {"pts", K::kBig}}},
      {"dept", {{"dept", K::kStr}, {"floor", K::kInt}, {"budget", K::kDec}, {"city", K::kStr}}},
      {"proj", {{"pid", K::kInt}, {"lead", K::kInt}, {"title", K::kStr}, {"cost", K::kDec}, {"start", K::kDate}}},
      {"one", {{"x", K::kInt}, {"s", K::kStr}, {"d", K::kDate}, {"m", K::kDec}, {"f", K::kDbl}, {"b", K::kBig}}},
      {"empty", {{"a", K::kInt}, {"s", K::kStr}, {"d", K::kDate}, {"m", K::kDec}}},
  };
  return t;
}

bool numeric(K k) { return k == K::kInt || k == K::kBig || k == K::kDec || k == K::kDbl; }

// A FROM clause: aliases of tables, and the join conditions that keep results small.
struct From {
  std::vector<std::pair<const Tab*, std::string>> items;  // (table, alias)
  std::string text, join_condition;
};

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}

  std::string query() {
    from_ = pick_from();
    const bool aggregate = chance(0.5);
    return aggregate ? aggregate_query() : plain_query();
  }

 private:
  int pick(int n) { return int(std::uniform_int_distribution<int>(0, n - 1)(rng_)); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <typename T>
  const T& one_of(const std::vector<T>& v) { return v[size_t(pick(int(v.size())))]; }

  From pick_from() {
    const auto& t = tables();
    From f;
    switch (pick(6)) {
      case 0: f.items = {{&t[0], "e"}, {&t[1], "d"}}; f.join_condition = "e.dept = d.dept"; break;
      case 1: f.items = {{&t[0], "e"}, {&t[2], "p"}}; f.join_condition = "p.lead = e.id"; break;
      case 2: f.items = {{&t[0], "a"}, {&t[0], "b"}}; f.join_condition = "a.boss = b.id"; break;
      case 3: f.items = {{&t[0], "e"}, {&t[3], "o"}}; break;  // a cross join with one row
      default: f.items = {{&t[size_t(pick(5))], "t"}}; break;
    }
    for (size_t i = 0; i < f.items.size(); i++)
      f.text += (i ? ", " : "") + std::string(f.items[i].first->name) + " " + f.items[i].second;
    if (!f.join_condition.empty() && chance(0.5)) {  // the same join as JOIN ... ON
      f.text = std::string(f.items[0].first->name) + " " + f.items[0].second + " JOIN " + f.items[1].first->name +
               " " + f.items[1].second + " ON " + f.join_condition;
      f.join_condition.clear();
    }
    return f;
  }

  // A column of the FROM clause, of a kind `ok` accepts.
  std::pair<std::string, K> column(bool (*ok)(K)) {
    for (int tries = 0; tries < 50; tries++) {
      const auto& [tab, alias] = from_.items[size_t(pick(int(from_.items.size())))];
      const Col& c = tab->cols[size_t(pick(int(tab->cols.size())))];
      if (ok(c.kind)) return {alias + "." + c.name, c.kind};
    }
    return {from_.items[0].second + "." + from_.items[0].first->cols[0].name, from_.items[0].first->cols[0].kind};
  }

  std::string literal(K k) {
    switch (k) {
      case K::kInt: case K::kBig: return std::to_string(pick(12) - 2);
      case K::kDec: return one_of(std::vector<std::string>{"70000.25", "88000.1", "0.01", "1000", "5000.00", "-1.25"});
      case K::kDbl: return one_of(std::vector<std::string>{"4.5", "3.9", "0.0", "2", "1.25"});
      case K::kStr:
        return one_of(std::vector<std::string>{"'eng'", "'ops'", "'Alice'", "'bob_x'", "'Berlin'", "''", "'Zoë'",
                                               "'Orphan'", "'sales'", "'a'"});
      case K::kDate:
        return one_of(std::vector<std::string>{"DATE '2020-01-01'", "DATE '2019-03-01'", "DATE '2000-02-29'",
                                               "DATE '1999-12-31'", "DATE '2022-02-28'"});
    }
    return "0";
  }

  // A numeric expression: columns, small literals, + and -, products with small
  // constants, CASE.
  std::string num_expr(int depth) {
    switch (depth > 2 ? 0 : pick(7)) {
      case 0: case 1: case 2: return column(numeric).first;
      case 3: return "(" + num_expr(depth + 1) + (chance(0.5) ? " + " : " - ") + num_expr(depth + 1) + ")";
      case 4: return "(" + column(numeric).first + " * " + std::to_string(pick(5) + 1) + ")";
      case 5: return literal(K::kInt);
      default: return "CASE WHEN " + predicate(depth + 1) + " THEN " + num_expr(depth + 1) + " ELSE " + num_expr(depth + 1) + " END";
    }
  }

  std::string predicate(int depth) {
    switch (depth > 2 ? pick(4) : pick(8)) {
      case 0: {
        auto [c, k] = column([](K) { return true; });
        const char* ops[] = {"=", "<>", "<", "<=", ">", ">="};
        return c + " " + ops[pick(6)] + " " + literal(k == K::kBig ? K::kInt : k);
      }
      case 1: {
        auto [c, k] = column([](K k) { return k == K::kStr; });
        const char* pats[] = {"'%a%'", "'A%'", "'_o%'", "'%'", "'e_g'", "'%o'"};
        return c + (chance(0.3) ? " NOT" : "") + " LIKE " + pats[pick(6)];
      }
      case 2: {
        auto [c, k] = column([](K k) { return k != K::kDbl; });
        std::string a = literal(k), b = literal(k);
        return c + (chance(0.3) ? " NOT" : "") + " BETWEEN " + a + " AND " + b;
      }
      case 3: {
        auto [c, k] = column([](K k) { return k == K::kInt || k == K::kStr || k == K::kDate; });
        std::string list = literal(k);
        for (int i = pick(3); i >= 0; i--) list += ", " + literal(k);
        return c + (chance(0.3) ? " NOT" : "") + " IN (" + list + ")";
      }
      case 4: return num_expr(depth + 1) + (chance(0.5) ? " < " : " >= ") + num_expr(depth + 1);
      case 5: return "(" + predicate(depth + 1) + " AND " + predicate(depth + 1) + ")";
      case 6: return "(" + predicate(depth + 1) + " OR " + predicate(depth + 1) + ")";
      default: return "NOT (" + predicate(depth + 1) + ")";
    }
  }

  std::string where() {
    std::vector<std::string> parts;
    if (!from_.join_condition.empty()) parts.push_back(from_.join_condition);
    if (chance(0.7)) parts.push_back(predicate(0));
    std::string w;
    for (auto& p : parts) w += (w.empty() ? " WHERE " : " AND ") + p;
    return w;
  }

  std::string plain_query() {
    const int n = 1 + pick(3);
    std::string select;
    for (int i = 0; i < n; i++)
      select += (i ? ", " : "") + (chance(0.6) ? column([](K) { return true; }).first : num_expr(0)) + " AS c" +
                std::to_string(i);
    std::string q = "SELECT " + std::string(chance(0.2) ? "DISTINCT " : "") + select + " FROM " + from_.text + where();
    if (chance(0.6)) {
      std::string order;
      for (int i = 0; i < n; i++) order += (i ? ", " : "") + std::to_string(i + 1) + (chance(0.3) ? " DESC" : "");
      q += " ORDER BY " + order;
      if (chance(0.5)) q += " LIMIT " + std::to_string(1 + pick(5));
    }
    return q;
  }

  std::string aggregate() {
    switch (pick(7)) {
      case 0: return "count(*)";
      case 1: return "count(" + column([](K) { return true; }).first + ")";
      case 2: return "sum(" + num_expr(1) + ")";
      case 3: return "min(" + column([](K) { return true; }).first + ")";
      case 4: return "max(" + column([](K) { return true; }).first + ")";
      case 5: return "count(DISTINCT " + column([](K) { return true; }).first + ")";
      default: return "avg(" + column(numeric).first + ")";
    }
  }

  std::string aggregate_query() {
    const int groups = pick(3);
    std::string select, group_by;
    for (int i = 0; i < groups; i++) {
      std::string g = column([](K k) { return k != K::kDbl; }).first;
      select += (i ? ", " : "") + g + " AS g" + std::to_string(i);
      group_by += (i ? ", " : "") + g;
    }
    const int aggs = 1 + pick(2);
    for (int i = 0; i < aggs; i++) select += (select.empty() ? "" : ", ") + aggregate() + " AS a" + std::to_string(i);
    std::string q = "SELECT " + select + " FROM " + from_.text + where();
    if (groups > 0) {
      q += " GROUP BY " + group_by;
      if (chance(0.3)) q += " HAVING count(*) " + std::string(chance(0.5) ? ">" : "<=") + " " + std::to_string(pick(3));
      if (chance(0.6)) {
        std::string order;
        for (int i = 0; i < groups; i++) order += (i ? ", " : "") + std::to_string(i + 1);
        q += " ORDER BY " + order;
        if (chance(0.4)) q += " LIMIT " + std::to_string(1 + pick(4));
      }
    }
    return q;
  }

  std::mt19937_64 rng_;
  From from_;
};

uint64_t env_or(const char* name, uint64_t dflt) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : dflt;
}

TEST(SqlFuzz, RandomQueriesMatchSqlite) {
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
#ifdef __SANITIZE_ADDRESS__
  const uint64_t default_queries = 500;  // the sanitizer pass: a Debug build, several times slower
#else
  const uint64_t default_queries = 2000;
#endif
  const uint64_t queries = env_or("RAYDB_FUZZ_QUERIES", default_queries), seed = env_or("RAYDB_FUZZ_SEED", 20261126);
  Gen gen(seed);
  int mismatches = 0;
  uint64_t nonempty = 0;
  for (uint64_t i = 0; i < queries && mismatches < 5; i++) {
    const std::string sql = gen.query();
    if (i < 3) std::printf("example: %s\n", sql.c_str());
    ::testing::AssertionResult r = matches_sqlite(*f.db, *f.oracle, sql, QueryOptions{Backend::kCpu});
    if (!r) {
      mismatches++;
      ADD_FAILURE() << "query " << i << " (seed " << seed << "): " << r.message();
    } else if (!f.oracle->query_raw(sqlite_dialect(sql)).rows.empty()) {
      nonempty++;
    }
  }
  std::printf("%llu queries fuzzed (seed %llu), %llu with rows, %d mismatches\n", (unsigned long long)queries,
              (unsigned long long)seed, (unsigned long long)nonempty, mismatches);
  // Guards against a grammar that only makes empty results.
  EXPECT_GT(nonempty, queries / 2);
}

}  // namespace
}  // namespace raydb::test
