#include "bench/predicate_bench.h"

#include <cstdio>

#include <fmt/format.h>
#include <omp.h>

#include "bench/query_bench.h"
#include "common/error.h"
#include "common/hash_mix.h"
#include "storage/persist/database_directory.h"
#include "storage/table.h"

namespace raydb::bench {

namespace {

constexpr int64_t kDomain = int64_t(1) << 30;  // values in [0, 2^30): a 4-term sum fits easily
constexpr const char* kNames[4] = {"a", "b", "c", "d"};

// Column k's value at row r: a seeded 64-bit mix, so any row can be computed alone
// (parallel, deterministic) and the columns are independent.
int64_t value_at(uint64_t seed, int k, uint64_t r) {
  return int64_t(fmix64(seed * 0x9E3779B97F4A7C15ull + uint64_t(k) * 0xC2B2AE3D27D4EB4Full + r) % uint64_t(kDomain));
}

void ensure_table(const PredicateBenchOptions& o) {
  auto dir = DatabaseDirectory::open_or_create(o.db);
  if (auto t = dir->table("ops"); t && t->row_count() == o.rows) return;
  std::fprintf(stderr, "bench ops: generating ops (%llu rows x 4 INTEGER columns) into %s\n",
               (unsigned long long)o.rows, o.db.c_str());
  std::vector<ColumnPtr> cols;
  for (int k = 0; k < 4; k++) {
    std::vector<int32_t> v(o.rows);
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < int64_t(o.rows); r++) v[size_t(r)] = int32_t(value_at(o.seed, k, uint64_t(r)));
    cols.push_back(make_column(kNames[k], Type::integer(), v));
  }
  dir->commit({std::make_shared<Table>("ops", std::move(cols))}, true);
}

struct Entry {
  std::string name, sql;
  int filter_columns = 0;  // columns the scan reads whole
};

// The threshold t with P(x < t) = s for x uniform in [0, 2^30).
int64_t below(double s) { return int64_t(s * double(kDomain)); }

std::vector<Entry> suite(const PredicateBenchOptions& o) {
  std::vector<Entry> q;
  for (double s : o.selectivities) {
    q.push_back({fmt::format("lt_{}", s), fmt::format("select count(*) from ops where a < {}", below(s)), 1});
    const int64_t lo = below((1 - s) / 2);
    q.push_back({fmt::format("range_{}", s),
                 fmt::format("select count(*) from ops where a between {} and {}", lo, lo + below(s) - 1), 1});
  }
  for (int k = 1; k <= 4; k++) {
    std::string w;
    for (int i = 0; i < k; i++) w += fmt::format("{}{} < {}", i ? " and " : "", kNames[i], below(0.5));
    q.push_back({fmt::format("and_{}", k), "select count(*) from ops where " + w, k});
  }
  // E[a + 2b - 3c + 4d] = 4 * 2^29 = 2^31: about half the rows pass.
  q.push_back({"semilinear_4", "select count(*) from ops where a + 2 * b - 3 * c + 4 * d > 2147483648", 4});
  q.push_back({"compare_ab", "select count(*) from ops where a < b", 2});
  std::string in6, in64;
  for (int i = 0; i < 64; i++) {
    const int64_t v = value_at(o.seed, 0, uint64_t(i) * 7919 % std::max<uint64_t>(o.rows, 1));
    if (i < 6) in6 += fmt::format("{}{}", i ? ", " : "", v);
    in64 += fmt::format("{}{}", i ? ", " : "", v);
  }
  q.push_back({"in_6", "select count(*) from ops where a in (" + in6 + ")", 1});
  q.push_back({"in_64", "select count(*) from ops where a in (" + in64 + ")", 1});
  q.push_back({"or_not_tree",
               fmt::format("select count(*) from ops where a < {} or (b < {} and not c < {})", below(0.1), below(0.5),
                           below(0.5)),
               3});
  q.push_back({"count", "select count(*) from ops", 0});
  q.push_back({"sum", "select sum(a) from ops", 1});
  q.push_back({"sum_where", fmt::format("select sum(b) from ops where a < {}", below(0.5)), 2});
  return q;
}

}  // namespace

void run_predicate_bench(const PredicateBenchOptions& o) {
  if (o.db.empty()) fail(ErrorKind::kInvalidInput, "bench ops --suite predicates needs --db DIR");
  ensure_table(o);
  QueryBenchOptions q;
  q.db = o.db;
  q.reps = o.reps;
  q.warmup = o.warmup;
  q.json = o.json;
  q.index_paths = {"off"};  // plain scans: the paper's operations, not an index's
  for (auto& d : o.devices) q.backends.push_back(parse_backend(d));
  for (auto& e : suite(o)) {
    q.queries.push_back({e.name, e.sql});
    q.bytes.push_back(uint64_t(e.filter_columns) * o.rows * 4);
  }
  run_query_bench(q);
}

}  // namespace raydb::bench
