#pragma once
// The RT scan SQL cases shared by the CPU tests (tests/e2e/rt_scan_sql_test.cpp) and
// the CUDA backend's (tests/gpu/gpu_rt_scan_sql_test.cpp): the tables and the queries
// an index on t (a, b, c, d, s, e) answers, compared with SQLite on every backend.
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "storage/column.h"
#include "storage/table.h"

namespace raydb::test::rt_scan_sql {

// t (30000 rows): a uniform [0, 1000), b BIGINT with heavy duplicates and values past
// 2^32 and at the int64 extremes, c DATE, d DECIMAL(10,2), s VARCHAR (150 strings),
// e a handful of values, g not indexed, f DOUBLE. u (40 rows) joins t on e.
inline std::vector<TablePtr> make_tables(uint64_t seed, int rows = 30000) {
  std::mt19937_64 rng(seed);
  ColumnBuilder id("id", Type::integer()), a("a", Type::integer()), b("b", Type::bigint()), c("c", Type::date()),
      d("d", Type::decimal(10, 2)), s("s", Type::varchar()), e("e", Type::integer()), g("g", Type::integer()),
      f("f", Type::float64());
  const int32_t day0 = days_from_civil(1992, 1, 1);
  for (int i = 0; i < rows; i++) {
    id.append_int(i);
    a.append_int(int64_t(rng() % 1000));
    const uint64_t r = rng() % 100;
    b.append_int(r == 0 ? std::numeric_limits<int64_t>::max()
                        : r == 1 ? std::numeric_limits<int64_t>::min() + 1 : (int64_t(r % 40) - 20) * 300000000007LL);
    c.append_int(day0 + int32_t(rng() % 700));
    d.append_int(int64_t(rng() % 2000) * 25);
    s.append_string("s" + std::to_string(rng() % 150));
    e.append_int(int64_t(rng() % 4));
    g.append_int(int64_t(rng() % 100));
    f.append_double(double(i) * 0.25);
  }
  ColumnBuilder x("x", Type::integer()), y("y", Type::varchar());
  for (int j = 0; j < 40; j++) {
    x.append_int(j % 5);
    y.append_string("y" + std::to_string(j % 7));
  }
  return {std::make_shared<const Table>("t", std::vector<ColumnPtr>{id.finish(), a.finish(), b.finish(), c.finish(),
                                                                      d.finish(), s.finish(), e.finish(), g.finish(),
                                                                      f.finish()}),
          std::make_shared<const Table>("u", std::vector<ColumnPtr>{x.finish(), y.finish()})};
}

// Queries the index answers (at least one filter of t).
inline const char* const kCovered[] = {
    // 1..6 predicates
    "select count(*), sum(id) from t where a < 100",
    "select id, a, b from t where a >= 100 and a < 130 and b > 0",
    "select count(*), sum(a) from t where a between 10 and 500 and b < 3000000000070 and c >= DATE '1992-06-01'",
    "select count(*), min(id), max(id) from t where a between 10 and 500 and b <= 0 and c < DATE '1993-01-01' and "
    "d <= 100.00",
    "select count(*), sum(id) from t where a > 600 and b >= -3000000000070 and c > DATE '1992-03-01' and d > 20.00 "
    "and s > 's5'",
    "select id, s, e from t where a < 300 and b <> 0 and c between DATE '1992-02-01' and DATE '1993-02-01' and "
    "d between 1.00 and 300.00 and s < 's7' and e in (1, 2)",
    // OR / NOT (three-valued logic: no NULLs stored, NOT complements within the rows)
    "select count(*), sum(id) from t where a < 50 or e = 3",
    "select count(*) from t where (a < 50 or b > 0) and not (s = 's3')",
    "select count(*), sum(id) from t where not (a between 100 and 900)",
    "select count(*) from t where not (a < 10 or c > DATE '1993-01-01')",
    "select count(*) from t where (a < 100 and e = 1) or (a > 900 and not e = 1) or s in ('s1', 's140')",
    "select count(*) from t where not (not (a < 500) and b > 0)",
    // IN, BETWEEN
    "select id, a from t where a in (1, 5, 999, 2000)",
    "select count(*) from t where s in ('s1', 's2', 'nope') and a < 700",
    "select count(*) from t where a not in (1, 2, 3) and e not in (0, 1)",
    "select count(*) from t where d in (12.50, 25.00, 0.01) and c not between DATE '1992-02-01' and DATE '1993-06-01'",
    "select count(*) from t where b in (9223372036854775807, -9223372036854775807, 5)",
    "select count(*) from t where s like 's1%' and a < 500",
    // extremes: below the minimum, above the maximum, empty ranges, the whole domain
    "select count(*) from t where a < -5",
    "select count(*) from t where a > 5000",
    "select count(*) from t where a between 500 and 100",
    "select count(*), sum(id) from t where a >= 0 and b >= -9223372036854775807",
    "select count(*) from t where a between -100 and 10000 and b = 9223372036854775807",
    "select count(*) from t where b < -9223372036854775807",
    "select count(*) from t where c < DATE '1900-01-01' or c > DATE '2100-01-01'",
    "select count(*) from t where d = 12.501",
    "select count(*) from t where s = 'zz' or s < 's0'",
    "select count(*), sum(id) from t where a < 10.5 and e >= 1",
    "select count(*) from t where a between 9.5 and 20.2 or a > 3000000000",
    "select count(*) from t where a = 5 and a = 6",
    "select count(*) from t where a < -3000000000 or (a >= 998 and d >= 0.00)",
    // the selection feeding residual filters, joins, aggregates, ORDER BY
    "select count(*) from t where a < 100 and g > 50",
    "select count(*) from t where a < 100 and f < 1000.0",
    "select count(*) from t where a < 100 and (g > 50 or e = 2)",
    "select t.e, count(*), sum(t.a) from t join u on t.e = u.x where t.a < 100 and t.b > 0 group by t.e order by t.e",
    "select e, count(*), min(a), max(c) from t where a between 200 and 260 and s >= 's3' group by e order by e",
    "select id, a from t where a < 20 and e = 1 order by a, id limit 10",
    "select u.y, count(*) from u join t on u.x = t.e where u.y in ('y1', 'y3') and t.a < 30 group by u.y order by u.y",
};

// NULL constants: never a match (the path declines them; the results still must agree).
inline const char* const kNulls[] = {
    "select count(*) from t where a = NULL",
    "select count(*) from t where a in (1, NULL)",
    "select count(*) from t where not (a in (1, NULL))",
    "select count(*) from t where a < 100 and b in (0, NULL)",
    "select count(*) from t where a <> NULL or e = 1",
};

}  // namespace raydb::test::rt_scan_sql
