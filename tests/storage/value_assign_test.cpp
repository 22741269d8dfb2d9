// storage/value_assign (how INSERT and CREATE TABLE AS store a value) and
// storage/table_append (old rows + new rows, dictionaries merged), against values
// worked out by hand from PostgreSQL's rules.
#include <gtest/gtest.h>

#include "storage/table_append.h"
#include "storage/value_assign.h"
#include "storage_test_util.h"

namespace raydb::test {
namespace {

// Stores `v` into a one-value column of `type`; the stored value's text.
std::string stored(const Type& type, const Value& v, bool literal = false) {
  ColumnBuilder b("c", type);
  append_assigned(b, v, literal, "t");
  return b.finish()->get(0).to_string();
}

TEST(ValueAssign, RoundsAndRangeChecksLikePostgres) {
  EXPECT_EQ(stored(Type::decimal(6, 2), Value::decimal(1005, 18, 3)), "1.01");    // 1.005: half away from zero
  EXPECT_EQ(stored(Type::decimal(6, 2), Value::decimal(-1005, 18, 3)), "-1.01");
  EXPECT_EQ(stored(Type::decimal(6, 2), Value::decimal(1004, 18, 3)), "1.00");
  EXPECT_EQ(stored(Type::integer(), Value::decimal(25, 18, 1)), "3");             // numeric 2.5 -> 3
  EXPECT_EQ(stored(Type::integer(), Value::float64(2.5)), "2");                   // float8 2.5 -> 2 (rint)
  EXPECT_EQ(stored(Type::integer(), Value::float64(-3.5)), "-4");
  EXPECT_EQ(stored(Type::decimal(4, 1), Value::float64(0.25)), "0.3");
  EXPECT_EQ(stored(Type::bigint(), Value::bigint(INT64_MIN)), "-9223372036854775808");
  EXPECT_EQ(stored(Type::float64(), Value::decimal(125, 18, 2)), "1.25");
  EXPECT_EQ(stored(Type::varchar(), Value::date(0)), "1970-01-01");
  EXPECT_EQ(stored(Type::varchar(), Value::decimal(150, 10, 2)), "1.50");
  EXPECT_EQ(stored(Type::date(), Value::varchar("2024-02-29"), true), "2024-02-29");
  EXPECT_EQ(stored(Type::integer(), Value::varchar(" -12 "), true), "-12");
  EXPECT_EQ(stored(Type::decimal(8, 3), Value::varchar("4.1"), true), "4.100");
  auto fails = [](const Type& t, const Value& v, bool literal, std::initializer_list<std::string> parts) {
    expect_error([&] { stored(t, v, literal); }, ErrorKind::kInvalidInput, parts);
  };
  fails(Type::integer(), Value::bigint(int64_t(INT32_MAX) + 1), false, {"out of range for column t.c (INTEGER)"});
  fails(Type::integer(), Value::bigint(int64_t(INT32_MIN) - 1), false, {"out of range"});
  fails(Type::decimal(4, 1), Value::integer(1000), false, {"out of range for column t.c (DECIMAL(4,1))"});
  fails(Type::decimal(4, 1), Value::decimal(99995, 18, 2), false, {"out of range"});  // 999.95 rounds to 1000.0
  fails(Type::bigint(), Value::float64(1e19), false, {"out of range"});
  fails(Type::integer(), Value::float64(std::nan("")), false, {"out of range"});
  fails(Type::bigint(), Value::varchar("9223372036854775808"), true, {"out of range"});
  fails(Type::integer(), Value::varchar("12x"), true, {"invalid input for column t.c (INTEGER): '12x'"});
  fails(Type::date(), Value::varchar("2023-02-29"), true, {"invalid input for column t.c (DATE)"});
  fails(Type::decimal(8, 1), Value::varchar("1.25"), true, {"invalid input"});
  fails(Type::integer(), Value::varchar("12"), false, {"is of type INTEGER but the value '12' is VARCHAR"});
  fails(Type::date(), Value::integer(20240101), false, {"is of type DATE"});
  fails(Type::integer(), Value::date(5), false, {"is of type INTEGER but the value 1970-01-06 is DATE"});
  fails(Type::integer(), Value::null(), false, {"NULL value in column c of table t violates its NOT NULL constraint"});
  fails(Type::integer(), Value::boolean(true), false, {"BOOLEAN"});
}

TEST(TableAppend, MergesDictionariesAndStatistics) {
  auto table = [](std::vector<int32_t> ints, std::vector<std::string> strings) {
    ColumnBuilder a("a", Type::integer()), s("s", Type::varchar());
    for (auto v : ints) a.append_int(v);
    for (auto& v : strings) s.append_string(v);
    return std::make_shared<const Table>("t", std::vector<ColumnPtr>{a.finish(), s.finish()});
  };
  auto old_rows = table({5, 7}, {"m", "b"});
  auto new_rows = table({-1, 9, 5}, {"z", "a", "m"});
  TablePtr all = append_rows(*old_rows, *new_rows);
  auto expected = table({5, 7, -1, 9, 5}, {"m", "b", "z", "a", "m"});
  expect_tables_equal(*expected, *all);  // values, stats and the dictionary (a, b, m, z)
  EXPECT_EQ(all->column(1).dictionary()->size(), 4u);
  auto empty = table({}, {});
  expect_tables_equal(*new_rows, *append_rows(*empty, *new_rows));
}

}  // namespace
}  // namespace raydb::test
