#pragma once
// The grammar of the differential SQL fuzzer (e2e/sql_fuzz_test.cpp against SQLite,
// gpu/gpu_sql_fuzz_test.cpp CUDA against CPU): seeded SELECTs within raydb's SQL
// (filters of comparisons, BETWEEN, IN, LIKE, AND/OR/NOT, CASE; joins on keys and comma
// joins; GROUP BY with HAVING; DISTINCT; ORDER BY with LIMIT) over one of two schemas:
// the hand-made CSV tables (every type, unicode, quotes, an empty table, one row) or
// SSB (lineorder joined with its dimensions, as star queries are). It leaves out what
// the oracle cannot judge: division (SQLite's NULL for x/0), products that overflow 64
// bits, date arithmetic. ORDER BY lists every selected column, so LIMIT cuts a
// deterministic prefix.
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace raydb::test::fuzz {

enum class K { kInt, kBig, kDec, kDbl, kStr, kDate };

struct Col {
  std::string name;
  K kind;
  std::vector<std::string> literals = {};  // values worth comparing with; empty: by kind
};
struct Tab {
  std::string name;
  std::vector<Col> cols;
};
// A FROM clause the grammar may pick: tables with aliases and the equi-join
// conditions that keep the result small (empty for a cross join with a tiny table).
struct FromShape {
  std::vector<std::pair<std::string, std::string>> tables;  // (table, alias)
  std::vector<std::string> joins;
};
struct Schema {
  std::vector<Tab> tables;
  std::vector<FromShape> froms;
  bool always_limit = false;  // plain SELECTs always ORDER BY ... LIMIT (large tables)
};

// emp, dept, proj, one, empty (support/fixtures.h csv_tables()).
const Schema& csv_schema();
// The SSB tables (support/fixtures.h ssb_fixture()), FROMs of lineorder alone and
// joined with one, two or three dimensions on their keys.
const Schema& ssb_schema();

class Gen {
 public:
  Gen(const Schema& schema, uint64_t seed) : schema_(schema), rng_(seed), nulls_rng_(seed ^ 0x9E3779B97F4A7C15ull) {}
  std::string query();

 private:
  struct From {
    std::vector<std::pair<const Tab*, std::string>> items;  // (table, alias)
    std::string text;
    std::vector<std::string> join_conditions;  // still to go into WHERE
  };

  int pick(int n) { return int(std::uniform_int_distribution<int>(0, n - 1)(rng_)); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <typename T>
  const T& one_of(const std::vector<T>& v) { return v[size_t(pick(int(v.size())))]; }

  From pick_from();
  const Col* column_of(bool (*ok)(K), std::string& qualified);
  std::pair<std::string, K> column(bool (*ok)(K));
  std::string literal(K k);
  std::string literal_for(const Col& c);
  std::string num_expr(int depth);
  std::string predicate(int depth);
  std::string where();
  std::string plain_query();
  std::string aggregate();
  std::string aggregate_query();
  // "", " NULLS FIRST" or " NULLS LAST" after an ORDER BY key, drawn from a stream of
  // its own so that a seed's queries stay what they were apart from this clause.
  std::string nulls_order();

  const Schema& schema_;
  std::mt19937_64 rng_;
  std::mt19937_64 nulls_rng_;
  From from_;
};

}  // namespace raydb::test::fuzz
