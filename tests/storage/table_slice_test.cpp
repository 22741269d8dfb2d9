// Row ranges of a table (storage/table_slice) and the fact table split by rows into
// shard databases (admin::split_by_rows): every value and NULL of each range against
// the source row by row, statistics recomputed per slice against brute force, the
// other tables copied whole, and bad input a one-line error that writes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "raydb/admin.h"
#include "storage/persist/database_directory.h"
#include "storage/table_slice.h"
#include "storage_test_util.h"

namespace raydb::test {
namespace {

// 1000 rows: INTEGER with NULLs, BIGINT, DOUBLE, VARCHAR (dictionary codes).
TablePtr sample_table(const std::string& name, uint64_t rows = 1000) {
  std::mt19937_64 rng(7);
  ColumnBuilder i("i", Type::integer(), /*nullable=*/true), b("b", Type::bigint()), d("d", Type::float64()),
      s("s", Type::varchar());
  const char* words[] = {"ant", "bee", "cat", "dog", "eel"};
  for (uint64_t r = 0; r < rows; r++) {
    if (rng() % 7 == 0)
      i.append_null();
    else
      i.append_int(int64_t(rng() % 2001) - 1000);
    b.append_int(int64_t(r) * 3 - 100000);
    d.append_double(double(rng() % 10000) / 7.0 - 500);
    s.append_string(words[rng() % 5]);
  }
  return std::make_shared<Table>(name, std::vector<ColumnPtr>{i.finish(), b.finish(), d.finish(), s.finish()});
}

void expect_same_rows(const Table& slice, const Table& source, uint64_t begin) {
  for (size_t c = 0; c < source.column_count(); c++) {
    const Column& got = slice.column(c);
    const Column& want = source.column(c);
    ASSERT_EQ(got.name(), want.name());
    ASSERT_EQ(got.nullable(), want.nullable());
    for (uint64_t r = 0; r < slice.row_count(); r++) {
      ASSERT_EQ(got.is_null(r), want.is_null(begin + r)) << got.name() << " row " << r;
      if (!got.is_null(r)) ASSERT_TRUE(got.get(r) == want.get(begin + r)) << got.name() << " row " << r << ": " << got.get(r).to_string();
    }
  }
}

TEST(TableSlice, EveryRangeHasTheSourcesRowsAndItsOwnStatistics) {
  auto t = sample_table("t");
  for (auto [begin, end] : std::vector<std::pair<uint64_t, uint64_t>>{
           {0, 1000}, {0, 0}, {1000, 1000}, {3, 11}, {1, 999}, {500, 1000}, {7, 8}, {0, 501}}) {
    SCOPED_TRACE(std::to_string(begin) + ".." + std::to_string(end));
    TablePtr s = slice_table(*t, begin, end);
    ASSERT_EQ(s->row_count(), end - begin);
    expect_same_rows(*s, *t, begin);
    // BIGINT b is 3r - 100000: the slice's min/max are those of its own rows.
    if (end > begin) {
      EXPECT_EQ(s->column(1).stats().min, int64_t(begin) * 3 - 100000);
      EXPECT_EQ(s->column(1).stats().max, int64_t(end - 1) * 3 - 100000);
      double lo = 1e300, hi = -1e300;
      for (uint64_t r = begin; r < end; r++) {
        lo = std::min(lo, t->column(2).get(r).as_double());
        hi = std::max(hi, t->column(2).get(r).as_double());
      }
      EXPECT_EQ(s->column(2).stats().min_d, lo);
      EXPECT_EQ(s->column(2).stats().max_d, hi);
      uint64_t nulls = 0;
      for (uint64_t r = begin; r < end; r++) nulls += t->column(0).is_null(r);
      EXPECT_EQ(s->column(0).null_count(), nulls);
    }
  }
}

TEST(TableSlice, KeepsTheSortKeyAndRejectsRangesOutsideTheTable) {
  auto t = std::const_pointer_cast<Table>(sample_table("t"));
  t->set_sort_key({"b"});
  EXPECT_EQ(slice_table(*t, 10, 20)->sort_key(), std::vector<std::string>{"b"});
  expect_error([&] { slice_table(*t, 5, 1001); }, ErrorKind::kInvalidInput, {"not within table t"});
  expect_error([&] { slice_table(*t, 6, 5); }, ErrorKind::kInvalidInput, {"not within table t"});
}

TEST(SplitByRows, ShardsHoldContiguousRangesAndWholeCopiesOfTheOtherTables) {
  TempDir dir;
  const std::string src = dir.file("src");
  auto fact = sample_table("fact", 1001), dim = sample_table("dim", 37);
  DatabaseDirectory::open_or_create(src)->commit({fact, dim}, false);
  std::vector<std::string> shards = {dir.file("s0"), dir.file("s1"), dir.file("s2")};
  auto rows = admin::split_by_rows(src, "FACT", shards);  // names case-insensitive
  std::vector<uint64_t> want(3, 0);
  for (uint64_t r = 0; r < 1001; r++) want[r * 3 / 1001]++;  // row r goes to shard r * n / rows
  ASSERT_EQ(rows, want);
  uint64_t begin = 0;
  for (size_t i = 0; i < shards.size(); i++) {
    auto db = DatabaseDirectory::open(shards[i]);
    EXPECT_EQ(db->table_names(), (std::vector<std::string>{"dim", "fact"}));
    expect_same_rows(*db->table("fact"), *fact, begin);
    expect_same_rows(*db->table("dim"), *dim, 0);
    EXPECT_EQ(db->table("dim")->row_count(), 37u);
    begin += rows[i];
  }
}

TEST(SplitByRows, BadInputIsOneLineAndWritesNothing) {
  TempDir dir;
  const std::string src = dir.file("src");
  DatabaseDirectory::open_or_create(src)->commit({sample_table("fact", 10)}, false);
  auto before = snapshot_dir(dir.path());
  expect_error([&] { admin::split_by_rows(src, "nope", {dir.file("a")}); }, ErrorKind::kCatalog,
               {"fact table nope not found"});
  expect_error([&] { admin::split_by_rows(src, "fact", {}); }, ErrorKind::kInvalidInput, {"no shard paths"});
  expect_error([&] { admin::split_by_rows(src, "fact", {dir.file("a"), src}); }, ErrorKind::kCatalog,
               {"is a database already"});
  EXPECT_EQ(snapshot_dir(dir.path()), before);
}

}  // namespace
}  // namespace raydb::test
