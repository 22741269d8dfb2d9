// The host's unique-key joins (sql/unique_key_join.h over sql/unique_key_index.h)
// against brute force (a std::unordered_map from each right key to its row): the match
// of every left row, the counts looked up whole or scattered over dense ascending left
// keys, the distinctness check, for few rows
// and for many (past the sizes where the loops run in parallel), dense keys (the direct
// array) and spread ones (open addressing), INTEGER and BIGINT keys, NULL keys on either
// side, a key held twice (no match: the callers fall back), and statistics that do not
// hold every key (bounds found again by a scan).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <unordered_map>

#include "sql/temp_table.h"
#include "sql/unique_key_join.h"

namespace raydb::test {
namespace {

using sql::kNoMatch;
using sql::TempTable;

struct IntCol {
  Type type;
  std::vector<int64_t> v;
  std::vector<uint8_t> nulls;  // empty: none
};

TempTable make_table(const std::vector<IntCol>& cols) {
  std::vector<std::string> names;
  std::vector<Type> types;
  for (size_t c = 0; c < cols.size(); c++) names.push_back("c" + std::to_string(c)), types.push_back(cols[c].type);
  sql::TempTableBuilder b("t", names, types, "test table");
  for (size_t c = 0; c < cols.size(); c++)
    EXPECT_TRUE(b.append_ints(c, cols[c].v.data(), cols[c].nulls, cols[c].v.size()));
  return b.finish();
}

struct Case {
  size_t right_rows, left_rows;
  bool spread;  // keys over a span far wider than 4x the rows: open addressing
  Type type;
  bool left_nulls, right_nulls;
};

std::string name_of(const Case& c) {
  return std::to_string(c.right_rows) + "x" + std::to_string(c.left_rows) + (c.spread ? " spread " : " dense ") +
         c.type.to_string() + (c.left_nulls ? " left NULLs" : "") + (c.right_nulls ? " right NULLs" : "");
}

// Right: distinct keys (column 0, shuffled) and a BIGINT count per key (column 1);
// left: keys drawn from around the right keys' range (some match none), NULL where asked.
struct Tables {
  IntCol rk, rn, lk;
};

Tables generate(const Case& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const bool wide = c.type.id == TypeId::kBigint;
  const int64_t base = wide ? -(int64_t(1) << 40) : -1000;
  const uint64_t span = c.spread ? 1000 * c.right_rows + 7 : 2 * c.right_rows + 3;
  std::vector<int64_t> domain(std::min<uint64_t>(span, 3 * c.right_rows + 3));
  for (auto& k : domain) k = base + int64_t(rng() % span);
  std::sort(domain.begin(), domain.end());
  domain.erase(std::unique(domain.begin(), domain.end()), domain.end());
  std::shuffle(domain.begin(), domain.end(), rng);
  Tables t{{c.type, {}, {}}, {Type::bigint(), {}, {}}, {c.type, {}, {}}};
  const size_t m = std::min(c.right_rows, domain.size());
  t.rk.v.assign(domain.begin(), domain.begin() + int64_t(m));
  for (size_t r = 0; r < m; r++) t.rn.v.push_back(int64_t(rng() % 1000) - 10);
  if (c.right_nulls) {
    t.rk.nulls.assign(m, 0);
    for (size_t r = 3; r < m; r += 17) t.rk.nulls[r] = 1;
  }
  for (size_t r = 0; r < c.left_rows; r++)
    t.lk.v.push_back(r % 3 == 0 && m > 0 ? t.rk.v[rng() % m] : base - 5 + int64_t(rng() % (span + 10)));
  if (c.left_nulls) {
    t.lk.nulls.assign(c.left_rows, 0);
    for (size_t r = 5; r < c.left_rows; r += 11) t.lk.nulls[r] = 1;
  }
  return t;
}

std::vector<uint32_t> brute_match(const Tables& t) {
  std::unordered_map<int64_t, uint32_t> row;
  for (size_t r = 0; r < t.rk.v.size(); r++)
    if (t.rk.nulls.empty() || !t.rk.nulls[r]) row.emplace(t.rk.v[r], uint32_t(r));
  std::vector<uint32_t> match;
  for (size_t r = 0; r < t.lk.v.size(); r++) {
    auto it = row.find(t.lk.v[r]);
    match.push_back((!t.lk.nulls.empty() && t.lk.nulls[r]) || it == row.end() ? kNoMatch : it->second);
  }
  return match;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (auto [m, n] : {std::pair<size_t, size_t>{0, 10}, {1, 1}, {60, 90}, {150000, 200000}})
    for (bool spread : {false, true})
      for (Type type : {Type::integer(), Type::bigint()})
        for (int nulls = 0; nulls < 4; nulls++) {
          out.push_back({m, n, spread, type, (nulls & 1) != 0, (nulls & 2) != 0});
        }
  return out;
}

TEST(UniqueKeyJoin, MatchesAndCountsEqualBruteForce) {
  uint64_t seed = 1;
  for (const Case& c : cases()) {
    SCOPED_TRACE(name_of(c));
    const Tables t = generate(c, seed++);
    const TempTable right = make_table({t.rk, t.rn}), left = make_table({t.lk});
    const std::vector<uint32_t> want = brute_match(t);
    const auto match = sql::match_unique_keys(left, 0, right);
    ASSERT_TRUE(match.has_value());
    ASSERT_EQ(*match, want);
    const auto looked = sql::lookup_int_columns(left, 0, right, {1}, -77);
    ASSERT_TRUE(looked.has_value());
    ASSERT_EQ(looked->size(), 1u);
    const Column& n = *(*looked)[0];
    ASSERT_EQ(n.type(), Type::bigint());
    ASSERT_EQ(n.size(), want.size());
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t r = 0; r < want.size(); r++) {
      const int64_t v = want[r] == kNoMatch ? -77 : t.rn.v[want[r]];
      ASSERT_EQ(n.get_int(r), v) << "row " << r;
      lo = std::min(lo, v), hi = std::max(hi, v);
    }
    if (!want.empty()) {
      EXPECT_EQ(n.stats().min, lo);
      EXPECT_EQ(n.stats().max, hi);
    }
  }
}

// Left keys lo, lo + 1, ... in order: the counts scattered to their rows equal the
// looked-up ones; left keys in any other form are not scattered.
TEST(UniqueKeyJoin, ScatterOverDenseAscendingKeysEqualsBruteForce) {
  uint64_t seed = 50;
  for (const Case& c : cases()) {
    if (c.left_nulls || c.left_rows < 1) continue;
    SCOPED_TRACE(name_of(c));
    Tables t = generate(c, seed++);
    const int64_t lo = c.type.id == TypeId::kBigint ? -(int64_t(1) << 40) - 3 : -1003;
    std::iota(t.lk.v.begin(), t.lk.v.end(), lo);
    const TempTable right = make_table({t.rk, t.rn}), left = make_table({t.lk});
    const std::vector<uint32_t> want = brute_match(t);
    const auto scattered = sql::scatter_int_columns(left, 0, right, {1}, -77);
    ASSERT_TRUE(scattered.has_value());
    const Column& n = *(*scattered)[0];
    ASSERT_EQ(n.size(), want.size());
    int64_t vlo = INT64_MAX, vhi = INT64_MIN;
    for (size_t r = 0; r < want.size(); r++) {
      const int64_t v = want[r] == kNoMatch ? -77 : t.rn.v[want[r]];
      ASSERT_EQ(n.get_int(r), v) << "row " << r;
      vlo = std::min(vlo, v), vhi = std::max(vhi, v);
    }
    EXPECT_EQ(n.stats().min, vlo);
    EXPECT_EQ(n.stats().max, vhi);
    if (t.lk.v.size() < 2) continue;
    std::vector<int64_t> gap = t.lk.v, down = t.lk.v, repeated = t.lk.v;
    gap.back() += 1;
    std::reverse(down.begin(), down.end());
    repeated[repeated.size() / 2] = repeated[repeated.size() / 2 - 1];  // one key held twice
    for (const auto& keys : {gap, down, repeated})
      EXPECT_FALSE(sql::scatter_int_columns(make_table({{c.type, keys, {}}}), 0, right, {1}, 0).has_value());
    std::vector<uint8_t> nulls(t.lk.v.size(), 0);
    nulls[0] = 1;
    EXPECT_FALSE(sql::scatter_int_columns(make_table({{c.type, t.lk.v, nulls}}), 0, right, {1}, 0).has_value());
  }
}

TEST(UniqueKeyJoin, KeyHeldTwiceMatchesNothing) {
  for (const Case& c : cases()) {
    if (c.right_rows < 2) continue;
    SCOPED_TRACE(name_of(c));
    Tables t = generate(c, 99);
    // The last row repeats the first row's key: rows far apart, in different threads'
    // shares of a parallel loop.
    t.rk.v.back() = t.rk.v.front();
    if (!t.rk.nulls.empty()) t.rk.nulls.front() = t.rk.nulls.back() = 0;
    const TempTable right = make_table({t.rk, t.rn}), left = make_table({t.lk});
    EXPECT_FALSE(sql::match_unique_keys(left, 0, right).has_value());
    EXPECT_FALSE(sql::lookup_int_columns(left, 0, right, {1}, 0).has_value());
    // Two NULL keys are no key held twice.
    t.rk.nulls.assign(t.rk.v.size(), 0);
    t.rk.nulls.front() = t.rk.nulls.back() = 1;
    const TempTable nulls_twice = make_table({t.rk, t.rn});
    const auto match = sql::match_unique_keys(left, 0, nulls_twice);
    ASSERT_TRUE(match.has_value());
    EXPECT_EQ(*match, brute_match(t));
  }
}

TEST(UniqueKeyJoin, NullCountsAndOtherTypesAreNotLookedUp) {
  Tables t = generate({100, 200, false, Type::integer(), false, false}, 5);
  t.rn.nulls.assign(t.rn.v.size(), 0);
  t.rn.nulls[7] = 1;
  const TempTable right = make_table({t.rk, t.rn}), left = make_table({t.lk});
  EXPECT_FALSE(sql::lookup_int_columns(left, 0, right, {1}, 0).has_value());  // NULL-holding count
  ASSERT_TRUE(sql::match_unique_keys(left, 0, right).has_value());           // the match array path
  const TempTable bigint_left = make_table({{Type::bigint(), t.lk.v, {}}});
  EXPECT_FALSE(sql::match_unique_keys(bigint_left, 0, right).has_value());  // key types differ
  EXPECT_FALSE(sql::lookup_int_columns(bigint_left, 0, right, {1}, 0).has_value());
}

// A key column whose recorded statistics miss some of its keys: the direct array's
// bounds are found again by a scan, never written past.
TEST(UniqueKeyJoin, StatisticsThatMissKeysAreRescanned) {
  for (size_t m : {size_t(50), size_t(120000)}) {
    SCOPED_TRACE(m);
    const Tables t = generate({m, m + 10, false, Type::integer(), false, false}, 7);
    ColumnStats narrow;
    narrow.min = 5, narrow.max = 6;
    std::vector<int32_t> keys(t.rk.v.begin(), t.rk.v.end());
    auto buf = Buffer::allocate(keys.size() * sizeof(int32_t));
    std::copy(keys.begin(), keys.end(), static_cast<int32_t*>(buf->mutable_data()));
    auto key_col = std::make_shared<const Column>("c0", Type::integer(), buf, keys.size(), nullptr, narrow);
    const TempTable counts = make_table({t.rk, t.rn});
    TempTable right;
    right.table = std::make_shared<const Table>("r", std::vector<ColumnPtr>{key_col, counts.table->column_ptr(1)});
    const TempTable left = make_table({t.lk});
    const auto match = sql::match_unique_keys(left, 0, right);
    ASSERT_TRUE(match.has_value());
    EXPECT_EQ(*match, brute_match(t));
  }
}

TEST(UniqueKeyJoin, DistinctIntColumn) {
  for (size_t n : {size_t(0), size_t(1), size_t(40), size_t(200000)}) {
    SCOPED_TRACE(n);
    std::vector<int64_t> v(n);
    std::iota(v.begin(), v.end(), int64_t(-3));
    EXPECT_TRUE(sql::distinct_int_column(make_table({{Type::integer(), v, {}}}), 0));  // ascending
    std::shuffle(v.begin(), v.end(), std::mt19937_64(n));
    EXPECT_TRUE(sql::distinct_int_column(make_table({{Type::bigint(), v, {}}}), 0));  // distinct, any order
    if (n >= 2) {  // one key twice, dense: the direct array
      std::vector<int64_t> twice = v;
      twice.back() = twice.front();
      EXPECT_FALSE(sql::distinct_int_column(make_table({{Type::bigint(), twice, {}}}), 0));
    }
    for (auto& x : v) x *= int64_t(1) << 30;                                         // spread: open addressing
    EXPECT_TRUE(sql::distinct_int_column(make_table({{Type::bigint(), v, {}}}), 0));
    if (n < 2) continue;
    v.back() = v.front();
    EXPECT_FALSE(sql::distinct_int_column(make_table({{Type::bigint(), v, {}}}), 0));
    std::sort(v.begin(), v.end());  // ascending but for one key held twice
    EXPECT_FALSE(sql::distinct_int_column(make_table({{Type::bigint(), v, {}}}), 0));
    std::vector<uint8_t> nulls(n, 0);
    nulls[n / 2] = 1;
    std::iota(v.begin(), v.end(), int64_t(0));
    EXPECT_FALSE(sql::distinct_int_column(make_table({{Type::integer(), v, nulls}}), 0));  // a NULL
  }
}

// take_column shares the column's buffer under the builder's name, and refuses a
// column of another stored type, one with NULLs, or one that has rows already.
TEST(UniqueKeyJoin, TakeColumnSharesBuffers) {
  const std::vector<int32_t> v = {3, 1, 2};
  ColumnPtr col = make_column<int32_t>("orig", Type::integer(), v);
  sql::TempTableBuilder b("t", {"a", "b", "c"}, {Type::integer(), Type::bigint(), Type::integer()}, "test table");
  EXPECT_FALSE(b.take_column(1, col));  // BIGINT is not stored as INTEGER
  b.append(2, Value::integer(9));
  EXPECT_FALSE(b.take_column(2, col));  // rows appended already
  ASSERT_TRUE(b.take_column(0, col));
  EXPECT_FALSE(b.take_column(0, col));  // taken already
  const int64_t w[] = {4, 5, 6};
  ASSERT_TRUE(b.append_ints(1, w, {}, 3));
  b.append(2, Value::integer(8));
  b.append(2, Value::null(Type::integer()));
  const TempTable t = b.finish();
  EXPECT_EQ(t.table->column(0).name(), "a");
  EXPECT_EQ(t.table->column(0).buffer().get(), col->buffer().get());
  EXPECT_EQ(t.table->column(0).stats().min, 1);
  EXPECT_EQ(t.table->column(0).stats().max, 3);
  for (uint64_t r = 0; r < 3; r++) EXPECT_EQ(t.table->column(0).get_int(r), v[r]);

  auto valid = Buffer::allocate(1);
  *static_cast<uint8_t*>(valid->mutable_data()) = 0b101;  // row 1 NULL
  ColumnPtr with_null = make_nullable_column("n", Type::integer(), make_column<int32_t>("n", Type::integer(), v)->buffer(),
                                             3, nullptr, valid, true);
  ASSERT_TRUE(with_null->has_nulls());
  sql::TempTableBuilder b2("t", {"a"}, {Type::integer()}, "test table");
  EXPECT_FALSE(b2.take_column(0, with_null));
}

}  // namespace
}  // namespace raydb::test
