// Executor building blocks against brute force: compiled column predicates vs the
// generic evaluator, join tables (dense, hashed, duplicates), key packing, LIKE.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "exec/core/column_predicate.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/like_pattern.h"
#include "exec/cpu/join_table.h"
#include "exec/core/key_encoder.h"

namespace raydb::exec {
namespace {

using plan::CompareOp;
using plan::Expr;
using plan::ExprPtr;

plan::LogicalQuery one_table_query(std::vector<ColumnPtr> cols) {
  plan::LogicalQuery q;
  q.tables.push_back({"t", "t", std::make_shared<Table>("t", std::move(cols))});
  return q;
}

// Evaluates `e` on every row with the generic evaluator (no compiled predicate).
std::vector<uint8_t> generic_keep(const Expr& e, const plan::LogicalQuery& q) {
  size_t n = q.tables[0].table->row_count();
  std::vector<uint32_t> rows(n);
  for (size_t i = 0; i < n; i++) rows[i] = uint32_t(i);
  BatchRows b;
  b.n = n;
  b.rows = {rows.data()};
  EvalContext ctx;
  ctx.query = &q;
  ctx.batch = &b;
  ctx.n = n;
  std::vector<uint8_t> keep;
  evaluate_predicate(e, ctx, keep);
  return keep;
}

TEST(ColumnPredicate, MatchesGenericEvaluationOnRandomPredicates) {
  std::mt19937_64 rng(7);
  const size_t n = 3000;
  std::vector<int32_t> ints(n);
  std::vector<int64_t> decs(n);
  ColumnBuilder sb("s", Type::varchar());
  const char* words[] = {"apple", "banana", "cherry", "date", "elder", "fig", "grape", "", "Zeta", "a%b"};
  for (size_t i = 0; i < n; i++) {
    ints[i] = int32_t(rng() % 200) - 100;
    decs[i] = int64_t(rng() % 20001) - 10000;  // DECIMAL(10,2): -100.00 .. 100.00
    sb.append_string(words[rng() % 10]);
  }
  auto q = one_table_query({make_column("i", Type::integer(), ints), make_column("d", Type::decimal(10, 2), decs),
                            sb.finish()});
  auto col = [&](int c) {
    const Column& cc = q.tables[0].table->column(size_t(c));
    return Expr::column(0, c, cc.type(), cc.name());
  };
  std::vector<ExprPtr> preds;
  const CompareOp ops[] = {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt, CompareOp::kLe, CompareOp::kGt, CompareOp::kGe};
  for (auto op : ops) {
    for (int k : {-101, -100, -1, 0, 7, 99, 100, 250}) {
      preds.push_back(Expr::compare(op, col(0), Expr::constant(Value::integer(k))));
      preds.push_back(Expr::compare(op, Expr::constant(Value::integer(k)), col(0)));
      preds.push_back(Expr::compare(op, col(1), Expr::constant(Value::integer(k))));
    }
    for (int64_t k : {-10000LL, -1LL, 1LL, 1234LL, 5005LL, 9999LL})  // decimals of scale 3 and 1
    {
      preds.push_back(Expr::compare(op, col(1), Expr::constant(Value::decimal(k, 10, 3))));
      preds.push_back(Expr::compare(op, col(1), Expr::constant(Value::decimal(k, 10, 1))));
      preds.push_back(Expr::compare(op, col(0), Expr::constant(Value::decimal(k, 10, 2))));
    }
    for (const char* s : {"", "banana", "c", "date", "zzz", "A", "fig"})
      preds.push_back(Expr::compare(op, col(2), Expr::constant(Value::varchar(s))));
    preds.push_back(Expr::compare(op, col(0), Expr::constant(Value::float64(3.5))));
  }
  preds.push_back(Expr::between(col(0), Expr::constant(Value::integer(-5)), Expr::constant(Value::integer(20)), false));
  preds.push_back(Expr::between(col(0), Expr::constant(Value::integer(-5)), Expr::constant(Value::integer(20)), true));
  preds.push_back(Expr::between(col(2), Expr::constant(Value::varchar("b")), Expr::constant(Value::varchar("e")), false));
  preds.push_back(Expr::in_list(col(0), {Expr::constant(Value::integer(1)), Expr::constant(Value::integer(-100)),
                                         Expr::constant(Value::integer(55)), Expr::constant(Value::integer(1000))},
                                false));
  preds.push_back(Expr::in_list(col(2), {Expr::constant(Value::varchar("fig")), Expr::constant(Value::varchar("nope"))}, true));
  for (const char* p : {"%an%", "_ig", "%", "", "a\\%b", "a%b", "%e", "Z%"}) {
    preds.push_back(Expr::like(col(2), p, false));
    preds.push_back(Expr::like(col(2), p, true));
  }
  preds.push_back(Expr::conjunction(false, {Expr::compare(CompareOp::kEq, col(2), Expr::constant(Value::varchar("fig"))),
                                            Expr::compare(CompareOp::kEq, col(2), Expr::constant(Value::varchar("date")))}));
  preds.push_back(Expr::logical_not(Expr::compare(CompareOp::kLt, col(0), Expr::constant(Value::integer(3)))));
  int compiled = 0;
  for (auto& p : preds) {
    auto cp = ColumnPredicate::compile(*p, q);
    if (!cp) continue;
    compiled++;
    auto keep = generic_keep(*p, q);
    std::vector<uint32_t> rows(n);
    for (size_t i = 0; i < n; i++) rows[i] = uint32_t(i);
    size_t m = cp->filter(rows.data(), n);
    std::vector<uint32_t> out(n);
    size_t m2 = cp->filter_range(0, n, out.data());
    std::vector<uint32_t> expect;
    for (size_t i = 0; i < n; i++)
      if (keep[i]) expect.push_back(uint32_t(i));
    ASSERT_EQ(m, expect.size()) << p->to_string();
    ASSERT_EQ(m2, expect.size()) << p->to_string();
    for (size_t i = 0; i < m; i++) ASSERT_EQ(rows[i], expect[i]) << p->to_string();
    for (size_t i = 0; i < m2; i++) ASSERT_EQ(out[i], expect[i]) << p->to_string();
  }
  EXPECT_GT(compiled, int(preds.size()) - 5);  // nearly all shapes compile
}

TEST(JoinTable, DenseHashedAndDuplicatesMatchBruteForce) {
  std::mt19937_64 rng(11);
  for (int mode = 0; mode < 6; mode++) {
    const size_t n = 5000;
    std::vector<int64_t> keys(n);
    std::vector<uint32_t> rows(n);
    for (size_t i = 0; i < n; i++) {
      switch (mode) {
        case 0: keys[i] = int64_t(i) * 3 + 17; break;                       // unique, dense
        case 1: keys[i] = int64_t(rng() >> 1); break;                        // unique-ish, sparse
        case 2: keys[i] = int64_t(rng() % 300) - 150; break;                 // duplicates, dense
        case 3: keys[i] = int64_t(rng() % 300) * (int64_t(1) << 40); break;  // duplicates, sparse
        case 4: keys[i] = int64_t(i) * 1000 + 5; break;                      // unique, hashed, presence bits
        case 5: keys[i] = int64_t(rng() % 3000) * 5000 - 7; break;           // duplicates, hashed, presence bits
      }
      rows[i] = uint32_t(i * 7 + 1);
    }
    std::multimap<int64_t, uint32_t> truth;
    for (size_t i = 0; i < n; i++) truth.insert({keys[i], rows[i]});
    JoinTable jt;
    jt.build(keys, 1, rows);
    for (int probe = 0; probe < 3000; probe++) {
      int64_t k = probe % 2 ? keys[rng() % n] : int64_t(rng() >> 1) - (int64_t(1) << 40);
      if (mode >= 4 && probe % 4 == 0) k = int64_t(rng() % 16000000) - 1000;  // in and around the key range
      uint32_t b, e;
      jt.find(&k, b, e);
      std::vector<uint32_t> got(jt.rows() + b, jt.rows() + e), want;
      auto [lo, hi] = truth.equal_range(k);
      for (auto it = lo; it != hi; ++it) want.push_back(it->second);
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      ASSERT_EQ(got, want) << "mode " << mode << " key " << k;
      if (jt.unique()) ASSERT_EQ(jt.find_unique(k), want.empty() ? JoinTable::kNone : want[0]);
      if (jt.has_presence_bits()) ASSERT_EQ(jt.find_unique_filtered(k), want.empty() ? JoinTable::kNone : want[0]);
    }
    const bool unique_mode = mode < 2 || mode == 4;
    EXPECT_EQ(jt.unique(), unique_mode ? truth.size() == n && jt.distinct_keys() == n : false);
    if (mode == 0) EXPECT_TRUE(jt.has_presence_bits());  // 5000 keys over a range of 15000
    if (mode >= 4) EXPECT_TRUE(jt.has_presence_bits() && !jt.dense());  // sparse in a 5 M / 15 M range
  }
  JoinTable empty;
  empty.build({}, 1, {});
  int64_t k = 5;
  EXPECT_EQ(empty.find_unique(k), JoinTable::kNone);
}

TEST(JoinTable, CompositeKeys) {
  std::vector<int64_t> keys = {1, 2, 1, 3, 2, 2, 1, 2};  // pairs (1,2) (1,3) (2,2) (1,2)
  JoinTable jt;
  jt.build(keys, 2, {10, 11, 12, 13});
  int64_t k[2] = {1, 2};
  uint32_t b, e;
  jt.find(k, b, e);
  std::vector<uint32_t> got(jt.rows() + b, jt.rows() + e);
  EXPECT_EQ(got, (std::vector<uint32_t>{10, 13}));
  int64_t miss[2] = {2, 1};
  jt.find(miss, b, e);
  EXPECT_EQ(b, e);
}

TEST(KeyEncoder, PackedAndWideKeysRoundTrip) {
  StringInterner interner;
  KeySpec a{Type::integer(), VectorKind::kInt, nullptr, false, true, 1992, 1998};
  KeySpec b{Type::bigint(), VectorKind::kInt, nullptr, false, true, -5, 1000000};
  KeyEncoder packed({a, b}, &interner);
  EXPECT_TRUE(packed.packed());
  Vector va(Type::integer(), 3), vb(Type::bigint(), 3);
  va.ints = {1992, 1998, 1995};
  vb.ints = {-5, 1000000, 7};
  std::vector<int64_t> words;
  packed.encode({va, vb}, 3, words);
  auto back = packed.decode(words.data(), 3);
  EXPECT_EQ(back[0].ints, va.ints);
  EXPECT_EQ(back[1].ints, vb.ints);

  KeySpec s{Type::varchar(), VectorKind::kString, nullptr, true, false, 0, 0};
  KeySpec d{Type::float64(), VectorKind::kDouble, nullptr, true, false, 0, 0};
  KeyEncoder wide({s, d}, &interner);
  EXPECT_FALSE(wide.packed());
  Vector vs(Type::varchar(), 3), vd(Type::float64(), 3);
  vs.strings = {"x", "y", "x"};
  vs.set_null(1);
  vd.doubles = {-0.0, 1.5, 0.0};
  words.clear();
  wide.encode({vs, vd}, 3, words);
  auto w = size_t(wide.width());
  // -0.0 and 0.0 with equal strings encode equal (GROUP BY puts them together).
  EXPECT_TRUE(std::equal(words.begin(), words.begin() + long(w), words.begin() + long(2 * w)));
  auto back2 = wide.decode(words.data(), 3);
  EXPECT_TRUE(back2[0].is_null(1));
  EXPECT_EQ(back2[0].strings[2], "x");
  EXPECT_EQ(back2[1].doubles[1], 1.5);
}

TEST(Like, Patterns) {
  EXPECT_TRUE(like_match("MFGR#12", "MFGR#1%"));
  EXPECT_TRUE(like_match("abc", "a_c"));
  EXPECT_FALSE(like_match("abbc", "a_c"));
  EXPECT_TRUE(like_match("", "%"));
  EXPECT_FALSE(like_match("", "_"));
  EXPECT_TRUE(like_match("héllo", "h_llo"));  // _ is one UTF-8 character
  EXPECT_TRUE(like_match("aXbXc", "%X%X%"));
  EXPECT_FALSE(like_match("aXb", "%X%X%"));
  EXPECT_FALSE(like_match("Abc", "a%"));  // case-sensitive
  EXPECT_TRUE(like_match("mississippi", "%iss%ppi"));
}

}  // namespace
}  // namespace raydb::exec

namespace raydb::exec {
namespace {
// LikePattern's path for patterns of literals and % (finding the pieces in order) and
// the general matcher, against a brute-force matcher over every short text and pattern
// of a small alphabet.
bool like_reference(std::string_view s, std::string_view p) {
  if (p.empty()) return s.empty();
  if (p[0] == '%') {
    for (size_t k = 0; k <= s.size(); k++)
      if (like_reference(s.substr(k), p.substr(1))) return true;
    return false;
  }
  return !s.empty() && s[0] == p[0] && like_reference(s.substr(1), p.substr(1));
}

TEST(Like, PercentOnlyPatternsMatchBruteForce) {
  auto all = [](std::string_view alphabet, size_t max_len) {
    std::vector<std::string> out{""};
    for (size_t i = 0; i < out.size(); i++)
      if (out[i].size() < max_len)
        for (char c : alphabet) out.push_back(out[i] + c);
    return out;
  };
  const auto texts = all("ab", 6), patterns = all("ab%", 5);
  size_t matches = 0;
  for (auto& p : patterns)
    for (auto& s : texts) {
      const bool want = like_reference(s, p);
      matches += want;
      ASSERT_EQ(LikePattern(p).matches(s), want) << "'" << s << "' LIKE '" << p << "'";
      ASSERT_EQ(like_match(s, p), want) << "'" << s << "' LIKE '" << p << "'";
    }
  EXPECT_GT(matches, 1000u);
  EXPECT_TRUE(LikePattern("%special%requests%").matches("xx special yy requests"));
  EXPECT_FALSE(LikePattern("%special%requests%").matches("requests special"));
  EXPECT_FALSE(LikePattern("a%%b%b").matches("ab"));  // pieces may not overlap the tail
  EXPECT_TRUE(LikePattern("h_llo").matches("héllo"));  // other patterns: the general matcher
  EXPECT_TRUE(LikePattern("50\\%").matches("50%"));
}

TEST(Like, BackslashEscapesAsPostgres) {
  EXPECT_TRUE(like_match("bob_x", "%\\_%"));
  EXPECT_FALSE(like_match("bobx", "%\\_%"));
  EXPECT_TRUE(like_match("50%", "50\\%"));
  EXPECT_FALSE(like_match("500", "50\\%"));
  EXPECT_TRUE(like_match("a\\b", "a\\\\b"));
}
}  // namespace
}  // namespace raydb::exec

namespace raydb::exec {
namespace {

// Probes far outside a dense table's key range (INT64_MIN/MAX against a negative
// minimum) must miss without overflowing (the sanitizer build checks the UB).
TEST(JoinTable, ExtremeProbeKeysMiss) {
  std::vector<int64_t> keys;
  std::vector<uint32_t> rows;
  for (int64_t k = -60; k < 30000; k += 3) {  // sparse and > 32 KB: presence bits
    keys.push_back(k);
    rows.push_back(uint32_t(k + 60));
  }
  JoinTable jt;
  jt.build(keys, 1, rows);
  ASSERT_TRUE(jt.dense());
  ASSERT_TRUE(jt.has_presence_bits());
  for (int64_t k : {INT64_MAX, INT64_MIN, INT64_MIN + 1, int64_t(-61), int64_t(30001), int64_t(-59)}) {
    EXPECT_EQ(jt.find_unique(k), JoinTable::kNone) << k;
    EXPECT_EQ(jt.find_unique_filtered(k), JoinTable::kNone) << k;
    uint32_t b, e;
    jt.find(&k, b, e);
    EXPECT_EQ(b, e) << k;
  }
  EXPECT_EQ(jt.find_unique(-60), 0u);
  EXPECT_EQ(jt.find_unique_filtered(29997), 30057u);
}

TEST(ColumnPredicate, ComparisonsAtTheInt64Limits) {
  std::vector<int64_t> v = {INT64_MIN, -1, 0, 1, INT64_MAX};
  auto q = one_table_query({make_column("b", Type::bigint(), v)});
  auto col = Expr::column(0, 0, Type::bigint(), "b");
  for (auto op : {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt, CompareOp::kLe, CompareOp::kGt, CompareOp::kGe})
    for (int64_t k : {INT64_MIN, INT64_MAX, int64_t(0)}) {
      auto p = Expr::compare(op, col, Expr::constant(Value::bigint(k)));
      auto cp = ColumnPredicate::compile(*p, q);
      ASSERT_TRUE(cp) << p->to_string();
      auto keep = generic_keep(*p, q);
      std::vector<uint32_t> rows = {0, 1, 2, 3, 4};
      size_t m = cp->filter(rows.data(), rows.size());
      size_t want = 0;
      for (auto x : keep) want += x;
      EXPECT_EQ(m, want) << p->to_string();
    }
}

TEST(KeyEncoder, FullInt64RangeIsNotPacked) {
  StringInterner interner;
  KeySpec full{Type::bigint(), VectorKind::kInt, nullptr, false, true, INT64_MIN, INT64_MAX};
  KeyEncoder enc({full}, &interner);
  EXPECT_FALSE(enc.packed());
  Vector v(Type::bigint(), 2);
  v.ints = {INT64_MIN, INT64_MAX};
  std::vector<int64_t> words;
  enc.encode({v}, 2, words);
  auto back = enc.decode(words.data(), 2);
  EXPECT_EQ(back[0].ints, v.ints);
}

}  // namespace
}  // namespace raydb::exec
