// sql/key_set_builder.h against brute force: a kept block's integer column read as a
// KeySet (distinct non-NULL words, NULL rows flagged by the indicator), the last sets
// handed out again for the same buffer and never for another one, nothing for
// columns that are not integer words.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "sql/key_set_builder.h"

namespace raydb::sql {
namespace {

TempTable table_of(const std::vector<std::optional<int64_t>>& values, const Type& type) {
  TempTableBuilder b("t", {"k"}, {type}, "test table");
  for (auto& v : values)
    b.append(0, v ? (type.id == TypeId::kInteger ? Value::integer(int32_t(*v)) : Value::bigint(*v)) : Value::null(type));
  return b.finish();
}

void expect_brute_force(const std::vector<std::optional<int64_t>>& values, const plan::KeySet& set) {
  std::set<int64_t> truth;
  bool null = false;
  for (auto& v : values) v ? void(truth.insert(*v)) : void(null = true);
  ASSERT_EQ(set.size(), truth.size());
  EXPECT_TRUE(std::equal(truth.begin(), truth.end(), set.words().begin()));
  EXPECT_EQ(set.has_null(), null);
}

TEST(KeySetBuilder, WordsOfIntegerColumnsEqualBruteForce) {
  std::mt19937_64 rng(7);
  for (const Type& type : {Type::integer(), Type::bigint()}) {
    for (bool nulls : {false, true}) {
      std::vector<std::optional<int64_t>> values;
      for (int i = 0; i < 100000; i++) {
        if (nulls && rng() % 10 == 0) values.push_back(std::nullopt);
        else values.push_back(int64_t(rng() % 5000000) - 1000);
      }
      const TempTable t = table_of(values, type);
      plan::KeySetPtr set = key_set_of_column(t);
      ASSERT_NE(set, nullptr);
      expect_brute_force(values, *set);
    }
  }
}

TEST(KeySetBuilder, TheSameBufferGivesTheSameSetAnotherBufferItsOwn) {
  std::vector<std::optional<int64_t>> a, b;
  for (int i = 0; i < 1000; i++) a.push_back(i * 3), b.push_back(i * 3);
  b.back() = 1;  // same size, other words
  const TempTable ta = table_of(a, Type::bigint()), tb = table_of(b, Type::bigint());
  plan::KeySetPtr first = key_set_of_column(ta);
  EXPECT_EQ(key_set_of_column(ta), first);  // the kept set
  const TempTable renamed = ta.renamed("u", {"key"});  // the same column, shared
  EXPECT_EQ(key_set_of_column(renamed), first);
  plan::KeySetPtr other = key_set_of_column(tb);
  ASSERT_NE(other, nullptr);
  EXPECT_NE(other, first);
  expect_brute_force(b, *other);
}

// A statement's scope forgets its sets: the same buffer afterwards builds anew.
TEST(KeySetBuilder, TheStatementScopeForgetsItsSets) {
  std::vector<std::optional<int64_t>> a;
  for (int i = 0; i < 500; i++) a.push_back(i * 7);
  const TempTable t = table_of(a, Type::bigint());
  plan::KeySetPtr first;
  {
    KeySetScope statement;
    first = key_set_of_column(t);
    EXPECT_EQ(key_set_of_column(t), first);
  }
  plan::KeySetPtr again = key_set_of_column(t);
  ASSERT_NE(again, nullptr);
  EXPECT_NE(again, first);
  expect_brute_force(a, *again);
}

TEST(KeySetBuilder, OtherColumnsGiveNoSet) {
  TempTableBuilder b("t", {"s"}, {Type::varchar()}, "test table");
  b.append(0, Value::varchar("x"));
  EXPECT_EQ(key_set_of_column(b.finish()), nullptr);
  TempTableBuilder d("t", {"d"}, {Type::float64()}, "test table");
  d.append(0, Value::float64(1.5));
  EXPECT_EQ(key_set_of_column(d.finish()), nullptr);
}

}  // namespace
}  // namespace raydb::sql
