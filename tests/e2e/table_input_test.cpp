// Database::register_table / create_table (raydb/column_input.h): tables handed in from
// outside the engine (the Python package's Arrow import), queried and persisted.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "raydb/admin.h"
#include "raydb/raydb.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

struct Inputs {
  std::vector<int32_t> ids{1, 2, 3, 4};
  std::vector<int64_t> big{-5, 1LL << 40, 7, 0};
  std::vector<double> dbl{0.5, -1.25, 3.0, 2.0};
  std::vector<int64_t> cents{1250, -99, 0, 100};  // DECIMAL(6,2)
  std::vector<int32_t> days{0, 10957, -1, 20000};
  std::vector<int64_t> offsets{0, 2, 2, 7, 9};
  std::string chars = "abgammaxy";  // "ab", "", "gamma", "xy"

  std::vector<ColumnInput> columns() const {
    std::vector<ColumnInput> c(6);
    c[0] = {"id", Type::integer(), 4, ids.data()};
    c[1] = {"big", Type::bigint(), 4, big.data()};
    c[2] = {"dbl", Type::float64(), 4, dbl.data()};
    c[3] = {"price", Type::decimal(6, 2), 4, cents.data()};
    c[4] = {"day", Type::date(), 4, days.data()};
    c[5] = {"s", Type::varchar(), 4, nullptr, offsets.data(), chars.data()};
    return c;
  }
};

std::string rows_text(const QueryResult& r) {
  std::string out;
  for (size_t i = 0; i < r.row_count(); i++) {
    for (size_t c = 0; c < r.column_count(); c++) out += (c ? "|" : "") + r.get(i, c).to_string();
    out += "\n";
  }
  return out;
}

TEST(TableInput, RegisteredTableIsQueriedWithExactValues) {
  TempDir dir;
  auto db = Database::open_or_create(dir.file("db"));
  Inputs in;
  db->register_table("t", in.columns());
  QueryResult r = db->query("select id, big, dbl, price, day, s from t order by id");
  EXPECT_EQ(rows_text(r),
            "1|-5|0.5|12.50|1970-01-01|ab\n2|1099511627776|-1.25|-0.99|2000-01-01|\n"
            "3|7|3|0.00|1969-12-31|gamma\n4|0|2|1.00|2024-10-04|xy\n");
  EXPECT_EQ(rows_text(db->query("select s, count(*) from t where s >= 'b' group by s order by s")), "gamma|1\nxy|1\n");
  EXPECT_TRUE(admin::table_names(*db).empty());  // nothing written
  EXPECT_TRUE(db->unregister_table("T"));
  EXPECT_FALSE(db->unregister_table("t"));
  EXPECT_THROW(db->query("select * from t"), Error);
}

TEST(TableInput, CreateTablePersistsAndNamesDoNotMix) {
  TempDir dir;
  const std::string path = dir.file("db");
  Inputs in;
  {
    auto db = Database::open_or_create(path);
    EXPECT_EQ(db->create_table("stored", in.columns(), false), 4u);
    db->register_table("mem", in.columns());
    try {
      db->register_table("STORED", in.columns());
      FAIL() << "registered over a stored table";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kCatalog);
      EXPECT_EQ(std::string(e.what()), "table stored exists in the database; register under another name");
    }
    EXPECT_THROW(db->create_table("mem", in.columns(), false), Error);
    EXPECT_THROW(db->create_table("stored", in.columns(), false), Error);  // exists, no replace
    EXPECT_EQ(rows_text(db->query("select count(*) from stored a join mem b on a.id = b.id")), "4\n");
  }
  auto db = Database::open(path);
  EXPECT_EQ(rows_text(db->query("select sum(price), max(day) from stored")), "12.51|2024-10-04\n");
}

TEST(TableInput, BooleanAndTimestampColumns) {
  TempDir dir;
  auto db = Database::open_or_create(dir.file("db"));
  std::vector<int32_t> flags{1, 0, 1};
  std::vector<int64_t> micros{0, 1'000'000 * int64_t(86400) + 5, -1};  // 1970-01-02 00:00:00.000005, 1969-12-31 23:59:59.999999
  std::vector<ColumnInput> cols{{"b", Type::boolean(), 3, flags.data()}, {"ts", Type::timestamp(), 3, micros.data()}};
  db->register_table("t", cols);
  EXPECT_EQ(rows_text(db->query("select ts, b, not b from t order by ts")),
            "1969-12-31 23:59:59.999999|true|false\n1970-01-01 00:00:00|true|false\n"
            "1970-01-02 00:00:00.000005|false|true\n");
  EXPECT_EQ(rows_text(db->query("select count(*) from t where b and ts >= timestamp '1970-01-01 00:00:00'")), "1\n");
}

std::string error_of(const std::vector<ColumnInput>& cols, const std::string& name = "t") {
  TempDir dir;
  auto db = Database::open_or_create(dir.file("db"));
  try {
    db->create_table(name, cols, false);
  } catch (const Error& e) {
    EXPECT_TRUE(admin::table_names(*db).empty());
    return e.what();
  }
  return "";
}

TEST(TableInput, BadInputIsOneLine) {
  Inputs in;
  auto cols = in.columns();
  EXPECT_EQ(error_of(cols, "1t"), "invalid table name '1t' (letters, digits and _, not starting with a digit)");
  EXPECT_EQ(error_of({}), "table t needs at least one column");
  auto short_col = cols;
  short_col[1].rows = 3;
  EXPECT_EQ(error_of(short_col), "table t: column big has 3 rows, column id has 4");
  auto wide = cols;
  wide[3].type = Type::decimal(2, 1);
  EXPECT_EQ(error_of(wide), "column price: value 125.0 at row 0 does not fit DECIMAL(2,1)");
  auto missing = cols;
  missing[0].values = nullptr;
  EXPECT_EQ(error_of(missing), "column id: values missing");
  auto boolean = cols;
  boolean[0].type = Type::boolean();
  EXPECT_EQ(error_of(boolean), "column id: value 2 at row 1 is not a BOOLEAN (0 or 1)");
  auto dup = cols;
  dup[1].name = "ID";
  EXPECT_EQ(error_of(dup), "table t: duplicate column name ID");
  auto bad_offsets = cols;
  std::vector<int64_t> offsets{0, 5, 2, 7, 9};
  bad_offsets[5].offsets = offsets.data();
  EXPECT_EQ(error_of(bad_offsets), "column s: bad string offsets at row 1");
}

TEST(TableInput, LoadCsvThroughTheOpenDatabase) {
  TempDir dir;
  auto db = Database::open_or_create(dir.file("db"));
  write_file(dir.file("t.csv"), "a|b\n1|x\n2|y\n");
  EXPECT_EQ(db->load_csv("t", "a INT, b VARCHAR", {dir.file("t.csv")}, true, '|', false), 2u);
  EXPECT_EQ(rows_text(db->query("select b, a from t order by a")), "x|1\ny|2\n");  // seen at once
  EXPECT_THROW(db->load_csv("t", "a INT, b VARCHAR", {dir.file("t.csv")}, true, '|', false), Error);
  Inputs in;
  db->register_table("mem", in.columns());
  try {
    db->load_csv("mem", "a INT, b VARCHAR", {dir.file("t.csv")}, true, '|', false);
    FAIL() << "loaded over a registered table";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "table mem is registered in memory; unregister it or choose another name");
  }
  EXPECT_EQ(admin::table_names(*db), std::vector<std::string>{"t"});
}

}  // namespace
}  // namespace raydb::test
