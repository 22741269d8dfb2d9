// A block's rows kept as a table without copies (TempTableBuilder::take_ints /
// take_doubles, storage/adopted_column.h, api/SubqueryRunner::materialize): the table
// must equal, column for column and byte for byte, the one the element-wise path builds
// from the same result (append per value), with and without NULLs, for every type, and
// for 0, 1, few and many rows (many: past the sizes where the narrowing runs in parallel
// rounds).
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>

#include "api/subquery_runner.h"
#include "common/error.h"
#include "sql/temp_table.h"

namespace raydb::test {
namespace {

// One result column's values: ints (or doubles) with garbage where NULL, as executors
// may leave it, and its NULL flags (empty: none).
struct Generated {
  std::vector<int64_t> ints;
  std::vector<double> doubles;
  std::vector<uint8_t> nulls;
};

enum class Nulls { kNone, kSome, kAll, kMaskWithoutNull };

int64_t random_int(const Type& t, std::mt19937_64& rng) {
  const uint64_t r = rng();
  switch (t.id) {
    case TypeId::kInteger:
    case TypeId::kNull: return r % 5 == 0 ? (r % 2 ? INT32_MIN : INT32_MAX) : int64_t(int32_t(r));
    case TypeId::kDate: return int64_t(r % 80000) - 20000;
    case TypeId::kBoolean: return int64_t(r & 1);
    case TypeId::kDecimal: return int64_t(r % 1999999999999ull) - 999999999999;  // DECIMAL(12,2)
    default: return r % 7 == 0 ? (r % 2 ? INT64_MIN : INT64_MAX) : int64_t(r);  // BIGINT, TIMESTAMP
  }
}

Generated generate(const Type& t, size_t n, Nulls nulls, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Generated g;
  for (size_t i = 0; i < n; i++) {
    if (t.id == TypeId::kDouble)
      g.doubles.push_back(double(int64_t(rng() % 2000001) - 1000000) / 7.0 * (rng() % 3 == 0 ? 1e300 : 1));
    else
      g.ints.push_back(random_int(t, rng));
  }
  if (nulls != Nulls::kNone) {
    g.nulls.resize(n);
    for (size_t i = 0; i < n; i++) g.nulls[i] = nulls == Nulls::kAll || (nulls == Nulls::kSome && i % 7 == 3);
  }
  return g;
}

// The element-wise path: each value through TempTableBuilder::append, as results of any
// type were kept before.
Value value_of(const Type& t, const Generated& g, size_t i) {
  if (!g.nulls.empty() && g.nulls[i]) return Value::null(t);
  switch (t.id) {
    case TypeId::kDouble: return Value::float64(g.doubles[i]);
    case TypeId::kInteger: return Value::integer(int32_t(g.ints[i]));
    case TypeId::kNull: return Value::integer(int32_t(g.ints[i]));
    case TypeId::kDate: return Value::date(int32_t(g.ints[i]));
    case TypeId::kBoolean: return Value::boolean(g.ints[i] != 0);
    case TypeId::kDecimal: return Value::decimal(g.ints[i], t.precision, t.scale);
    case TypeId::kTimestamp: return Value::timestamp(g.ints[i]);
    default: return Value::bigint(g.ints[i]);
  }
}

void expect_same_table(const sql::TempTable& want, const sql::TempTable& got, const std::string& what) {
  ASSERT_EQ(want.types, got.types) << what;
  ASSERT_EQ(want.null_flag, got.null_flag) << what;
  ASSERT_EQ(want.rows(), got.rows()) << what;
  ASSERT_EQ(want.table->column_count(), got.table->column_count()) << what;
  EXPECT_EQ(want.table->name(), got.table->name()) << what;
  for (size_t c = 0; c < want.table->column_count(); c++) {
    const Column& a = want.table->column(c);
    const Column& b = got.table->column(c);
    const std::string at = what + ", column " + std::to_string(c);
    EXPECT_EQ(a.name(), b.name()) << at;
    EXPECT_EQ(a.type(), b.type()) << at;
    ASSERT_EQ(a.size(), b.size()) << at;
    EXPECT_EQ(a.has_nulls(), b.has_nulls()) << at;
    EXPECT_EQ(a.dictionary() == nullptr, b.dictionary() == nullptr) << at;
    EXPECT_EQ(a.stats().min, b.stats().min) << at;
    EXPECT_EQ(a.stats().max, b.stats().max) << at;
    EXPECT_EQ(a.stats().min_d, b.stats().min_d) << at;
    EXPECT_EQ(a.stats().max_d, b.stats().max_d) << at;
    if (a.dictionary() && b.dictionary()) {
      ASSERT_EQ(a.dictionary()->size(), b.dictionary()->size()) << at;
      for (uint32_t k = 0; k < a.dictionary()->size(); k++)
        EXPECT_EQ(a.dictionary()->at(k), b.dictionary()->at(k)) << at << ", code " << k;
    }
    const size_t bytes = a.size() * size_t(a.type().physical_width());
    ASSERT_GE(b.buffer()->size(), bytes) << at;
    EXPECT_EQ(0, std::memcmp(a.buffer()->data(), b.buffer()->data(), bytes)) << at;
  }
}

const std::vector<Type>& every_type() {
  static const std::vector<Type> types = {Type::integer(), Type::bigint(),       Type::date(),
                                          Type::boolean(), Type::timestamp(),    Type::decimal(12, 2),
                                          Type::float64(), Type::null()};
  return types;
}

// One table of every type with the given NULLs, built both ways.
void check_every_type(size_t n, Nulls nulls) {
  std::vector<std::string> names;
  for (size_t c = 0; c < every_type().size(); c++) names.push_back("c" + std::to_string(c));
  sql::TempTableBuilder old_way("t", names, every_type(), "derived table t");
  sql::TempTableBuilder new_way("t", names, every_type(), "derived table t");
  old_way.reserve(n);
  new_way.reserve(n);
  for (size_t c = 0; c < every_type().size(); c++) {
    const Type& t = every_type()[c];
    Generated g = generate(t, n, t.id == TypeId::kNull ? Nulls::kAll : nulls, 1000 * n + c);
    for (size_t i = 0; i < n; i++) old_way.append(c, value_of(t, g, i));
    const bool taken = t.id == TypeId::kDouble ? new_way.take_doubles(c, std::move(g.doubles), std::move(g.nulls), n)
                                               : new_way.take_ints(c, std::move(g.ints), std::move(g.nulls), n);
    EXPECT_TRUE(taken) << t.to_string();
  }
  const std::string what = std::to_string(n) + " rows, nulls " + std::to_string(int(nulls));
  expect_same_table(old_way.finish(), new_way.finish(), what);
}

TEST(TempTableTake, EveryTypeWithoutNulls) {
  // 65536 and up: the in-place narrowing's doubling rounds, at and just past their edges.
  for (size_t n : {size_t(0), size_t(1), size_t(2), size_t(1000), size_t(65536), size_t(65537), size_t(131073),
                   size_t(300001)})
    check_every_type(n, Nulls::kNone);
}

TEST(TempTableTake, EveryTypeWithNulls) {
  for (size_t n : {size_t(1), size_t(2), size_t(1000), size_t(300001)}) {
    check_every_type(n, Nulls::kSome);
    check_every_type(n, Nulls::kAll);
    check_every_type(n, Nulls::kMaskWithoutNull);  // a mask of zeros: no indicator column
  }
}

// The bulk copy path (append_ints / append_doubles) builds the same table too.
TEST(TempTableTake, SameAsBulkAppend) {
  const size_t n = 70001;
  std::vector<Type> types = {Type::integer(), Type::bigint(), Type::float64()};
  sql::TempTableBuilder bulk("t", {"a", "b", "d"}, types, "t");
  sql::TempTableBuilder taken("t", {"a", "b", "d"}, types, "t");
  for (size_t c = 0; c < types.size(); c++) {
    Generated g = generate(types[c], n, Nulls::kSome, c);
    if (types[c].id == TypeId::kDouble) {
      ASSERT_TRUE(bulk.append_doubles(c, g.doubles.data(), g.nulls, n));
      ASSERT_TRUE(taken.take_doubles(c, std::move(g.doubles), std::move(g.nulls), n));
    } else {
      ASSERT_TRUE(bulk.append_ints(c, g.ints.data(), g.nulls, n));
      ASSERT_TRUE(taken.take_ints(c, std::move(g.ints), std::move(g.nulls), n));
    }
  }
  expect_same_table(bulk.finish(), taken.finish(), "bulk");
}

TEST(TempTableTake, RefusesWhatItCannotTakeAndLeavesItAlone) {
  std::vector<Type> types = {Type::varchar(), Type::hugeint(), Type::integer(), Type::bigint()};
  sql::TempTableBuilder b("t", {"s", "h", "i", "x"}, types, "t");
  std::vector<int64_t> v = {1, 2, 3};
  std::vector<uint8_t> nulls;
  EXPECT_FALSE(b.take_ints(0, std::move(v), std::move(nulls), 3));  // VARCHAR
  EXPECT_FALSE(b.take_ints(1, std::move(v), std::move(nulls), 3));  // HUGEINT: value by value
  EXPECT_EQ(v.size(), 3u);
  std::vector<double> d = {1.5, 2.5, 3.5};
  EXPECT_FALSE(b.take_doubles(2, std::move(d), std::move(nulls), 3));  // not DOUBLE
  EXPECT_EQ(d.size(), 3u);
  EXPECT_FALSE(b.take_ints(2, std::move(v), std::move(nulls), 4));  // too few values
  std::vector<uint8_t> short_nulls = {0, 1};
  EXPECT_FALSE(b.take_ints(2, std::move(v), std::move(short_nulls), 3));  // too few flags
  EXPECT_EQ(short_nulls.size(), 2u);
  EXPECT_EQ(v.size(), 3u);
  b.append(3, Value::bigint(7));
  EXPECT_FALSE(b.take_ints(3, std::move(v), std::move(nulls), 3));  // has rows already
  EXPECT_EQ(v.size(), 3u);
  ASSERT_TRUE(b.take_ints(2, std::move(v), std::move(nulls), 3));
  EXPECT_THROW(b.append(2, Value::integer(4)), Error);  // a taken column gets no more rows
}

// The whole keeping step: a result handed to SubqueryRunner::materialize becomes the
// table the element-wise path builds from the same result, VARCHAR, HUGEINT, wide
// DECIMAL and NULLs included.
QueryResult fabricated_result(size_t n) {
  QueryResult r;
  r.columns().reserve(6);  // the references below stay valid
  auto add = [&](const char* name, Type t) -> QueryResult::ColumnData& {
    QueryResult::ColumnData d;
    d.name = name;
    d.type = t;
    r.columns().push_back(std::move(d));
    return r.columns().back();
  };
  std::mt19937_64 rng(n);
  auto& i = add("i", Type::integer());
  auto& s = add("s", Type::varchar());
  auto& h = add("h", Type::hugeint());
  auto& w = add("w", Type::decimal(38, 2));
  auto& d = add("d", Type::float64());
  auto& b = add("b", Type::bigint());
  for (size_t row = 0; row < n; row++) {
    i.ints.push_back(int32_t(rng()));
    s.strings.push_back(row % 5 == 0 ? "" : "v" + std::to_string(rng() % 1000));
    h.huge.push_back(__int128(int64_t(rng())));
    w.huge.push_back(__int128(int64_t(rng() % 1000000)));
    d.doubles.push_back(double(int64_t(rng() % 100000)) / 8);
    b.ints.push_back(int64_t(rng()));
  }
  for (auto* c : {&i, &s, &d}) {  // NULLs in some columns
    c->nulls.resize(n);
    for (size_t row = 0; row < n; row++) c->nulls[row] = row % 3 == 1;
  }
  r.set_row_count(n);
  return r;
}

TEST(TempTableTake, MaterializeKeepsWhatTheElementWisePathKept) {
  for (size_t n : {size_t(0), size_t(1), size_t(5), size_t(100000)}) {
    const QueryResult r = fabricated_result(n);
    plan::LogicalQuery q;  // no table: run (here, the fabricated result), never shared
    std::vector<Type> types;
    for (size_t c = 0; c < r.column_count(); c++) {
      q.select.push_back(plan::Expr::constant(Value::null(r.column_type(c))));
      q.output_names.push_back(r.column_name(c));
      types.push_back(r.column_type(c));
    }
    api::SubqueryRunner runner([&](plan::LogicalQuery) { return r; });
    const sql::TempTable got = runner.materialize(q, "t", "derived table t");
    sql::TempTableBuilder old_way("t", q.output_names, types, "derived table t");
    for (size_t row = 0; row < n; row++)
      for (size_t c = 0; c < r.column_count(); c++) old_way.append(c, r.get(row, c));
    const sql::TempTable want = old_way.finish();
    expect_same_table(want, got, std::to_string(n) + " rows");
    for (size_t row = 0; row < std::min<size_t>(n, 50); row++)  // and read back as the result
      for (size_t c = 0; c < r.column_count(); c++)
        EXPECT_EQ(got.value(row, c).to_string(), r.get(row, c).to_string()) << row << ", " << c;
  }
}

// take_huge (HUGEINT, DECIMAL(38,s)) and take_strings against append value by value:
// NULL slots holding values out of the stored range, all-NULL, one distinct string,
// and sizes past the parallel thresholds.
TEST(TempTableTake, HugeAndStringsAsAppend) {
  const std::vector<Type> types = {Type::hugeint(), Type::decimal(38, 4), Type::varchar()};
  for (size_t n : {size_t(0), size_t(1), size_t(7), size_t(1000), size_t(200001)}) {
    for (int nulls : {0, 1, 2}) {  // none, some, all
      std::mt19937_64 rng(n * 3 + size_t(nulls));
      sql::TempTableBuilder old_way("t", {"h", "w", "s"}, types, "t");
      sql::TempTableBuilder new_way("t", {"h", "w", "s"}, types, "t");
      std::vector<__int128> h(n), w(n);
      std::vector<std::string> s(n);
      std::vector<uint8_t> flags(nulls ? n : 0);
      for (size_t i = 0; i < n; i++) {
        if (nulls) flags[i] = nulls == 2 || i % 5 == 2;
        h[i] = __int128(int64_t(rng()));
        w[i] = __int128(int64_t(rng() % 1999999999999999999ull) - 999999999999999999);
        s[i] = n == 7 ? "same" : "v" + std::to_string(rng() % 5000);
        if (nulls && flags[i]) h[i] = w[i] = __int128(1) << 100;  // garbage the NULL hides
      }
      for (size_t i = 0; i < n; i++) {
        const bool null = nulls && flags[i];
        old_way.append(0, null ? Value::null(types[0]) : Value::hugeint(h[i]));
        old_way.append(1, null ? Value::null(types[1]) : Value::decimal_wide(w[i], 38, 4));
        old_way.append(2, null ? Value::null(types[2]) : Value::varchar(s[i]));
      }
      std::vector<uint8_t> f0 = flags, f1 = flags, f2 = flags;
      EXPECT_TRUE(new_way.take_huge(0, h, std::move(f0), n));
      EXPECT_TRUE(new_way.take_huge(1, w, std::move(f1), n));
      EXPECT_TRUE(new_way.take_strings(2, s.data(), std::move(f2), n));
      expect_same_table(old_way.finish(), new_way.finish(),
                        std::to_string(n) + " rows, nulls " + std::to_string(nulls));
    }
  }
}

// A value past the stored range is refused whole (nothing taken, flags left), so the
// element-wise path reports it as before; so is a scale the stored type cannot keep.
TEST(TempTableTake, HugeOutOfRangeIsLeftToAppend) {
  const std::vector<Type> types = {Type::hugeint(), Type::decimal(38, 2), Type::decimal(38, 20)};
  sql::TempTableBuilder b("t", {"h", "w", "x"}, types, "t");
  std::vector<__int128> h = {1, __int128(INT64_MAX) + 1};
  std::vector<__int128> w = {1, pow10_i128(18)};
  std::vector<uint8_t> flags = {0, 0};
  EXPECT_FALSE(b.take_huge(0, h, std::move(flags), 2));
  EXPECT_EQ(flags.size(), 2u);
  EXPECT_FALSE(b.take_huge(1, w, std::move(flags), 2));
  EXPECT_FALSE(b.take_huge(2, {1, 2}, std::move(flags), 2));  // DECIMAL(18,18) keeps less scale
  EXPECT_EQ(flags.size(), 2u);
  EXPECT_THROW(b.append(0, Value::hugeint(h[1])), Error);
  EXPECT_THROW(b.append(1, Value::decimal_wide(w[1], 38, 2)), Error);
}

}  // namespace
}  // namespace raydb::test
