// The .tbl writer: dbgen's pipe-delimited format, read back field by field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "common/progress.h"
#include "gen/ssb/generator.h"
#include "gen/ssb_oracle.h"
#include "support/test_support.h"

namespace raydb::ssb {
namespace {

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> f;
  size_t start = 0;
  for (size_t i = 0; i < line.size(); i++)
    if (line[i] == '|') {
      f.push_back(line.substr(start, i - start));
      start = i + 1;
    }
  return f;
}

TEST(SsbTbl, RoundTripsEveryCell) {
  set_progress_quiet(true);
  test::TempDir dir;
  const auto& db = oracle::cached(0.01);
  write_tbl(db, dir.path(), 2);
  for (const TablePtr& t : db) {
    std::ifstream in(dir.file(t->name() + ".tbl"), std::ios::binary);
    ASSERT_TRUE(in) << t->name();
    std::string line;
    uint64_t row = 0;
    while (std::getline(in, line)) {
      ASSERT_LT(row, t->row_count()) << t->name();
      ASSERT_FALSE(line.empty());
      ASSERT_EQ(line.back(), '|') << t->name() << " line " << row + 1;
      auto fields = split_fields(line);
      ASSERT_EQ(fields.size(), t->column_count()) << t->name() << " line " << row + 1 << ": " << line;
      for (size_t c = 0; c < t->column_count(); c++) {
        const Column& col = t->column(c);
        std::string expect = col.type().id == TypeId::kVarchar ? oracle::str(*t, col.name(), row)
                                                               : std::to_string(col.get_int(row));
        ASSERT_EQ(fields[c], expect) << t->name() << "." << col.name() << " line " << row + 1;
      }
      row++;
    }
    EXPECT_EQ(row, t->row_count()) << t->name();
  }
  // The file ends with a newline, as dbgen's do.
  std::string text = test::read_file(dir.file("date.tbl"));
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "19920101|January 1, 1992|Wednesday|January|1992|199201|Jan1992|4|1|1|1|1|Winter|0|0|1|1|");
}

TEST(SsbTbl, OutputDoesNotDependOnThreads) {
  set_progress_quiet(true);
  test::TempDir a, b;
  const auto& db = oracle::cached(0.01);
  write_tbl(db, a.path(), 1);
  write_tbl(db, b.path(), 3);
  for (const char* f : {"lineorder.tbl", "customer.tbl", "supplier.tbl", "part.tbl", "date.tbl"})
    EXPECT_TRUE(test::read_file(a.file(f)) == test::read_file(b.file(f))) << f;
}

TEST(SsbTbl, UnwritableDirectoryIsAnIoError) {
  test::TempDir dir;
  test::write_file(dir.file("plain"), "x");
  try {
    write_tbl(oracle::cached(0.01), dir.file("plain"), 1);
    FAIL() << "writing into a file path succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kIO) << e.what();
  }
}

}  // namespace
}  // namespace raydb::ssb
