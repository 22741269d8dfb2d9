// The delimited-text reader behind `load ssb` and `load csv`: every type, quoting,
// chunked parallel parsing, and every bad-input message.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <set>

#include "storage/loaders/delimited_reader.h"
#include "storage_test_util.h"

namespace raydb::test {
namespace {

TablePtr read_csv(const std::string& path, const std::string& schema, DelimitedFormat format = DelimitedFormat::csv()) {
  return read_delimited_table("t", parse_schema(schema), {path}, format);
}

std::vector<std::string> column_strings(const Table& t, size_t c) {
  std::vector<std::string> v;
  for (uint64_t r = 0; r < t.row_count(); r++) v.push_back(t.column(c).get(r).to_string());
  return v;
}

TEST(LoadReaderTest, IntegersWithBoundaries) {
  TempDir tmp;
  write_file(tmp.file("a.csv"),
             "2147483647,9223372036854775807\n"
             "-2147483648,-9223372036854775808\n"
             "0,0\n"
             "+17, 0000000000000000000000042 \n"
             "-0,-1\n");
  auto t = read_csv(tmp.file("a.csv"), "a INT, b BIGINT");
  ASSERT_EQ(t->row_count(), 5u);
  std::vector<int64_t> a = {INT32_MAX, INT32_MIN, 0, 17, 0};
  std::vector<int64_t> b = {INT64_MAX, INT64_MIN, 0, 42, -1};
  for (size_t r = 0; r < 5; r++) {
    EXPECT_EQ(t->column(0).get_int(r), a[r]);
    EXPECT_EQ(t->column(1).get_int(r), b[r]);
  }
  EXPECT_EQ(t->column(0).stats().min, INT32_MIN);
  EXPECT_EQ(t->column(0).stats().max, INT32_MAX);
  EXPECT_EQ(t->column(1).stats().min, INT64_MIN);
}

TEST(LoadReaderTest, DoublesDecimalsDates) {
  TempDir tmp;
  write_file(tmp.file("a.csv"),
             "1.5,12.5,2024-02-29\n"
             "-0,-0.01,1970-01-01\n"
             "1e308,99999999.99,1969-12-31\n"
             "inf,+3,0001-01-01\n"
             "4.9e-324,.5,9999-12-31\n");
  auto t = read_csv(tmp.file("a.csv"), "d DOUBLE, m DECIMAL(10,2), dt DATE");
  ASSERT_EQ(t->row_count(), 5u);
  const double* d = t->column(0).data<double>();
  EXPECT_EQ(d[0], 1.5);
  EXPECT_TRUE(d[1] == 0 && std::signbit(d[1]));
  EXPECT_EQ(d[2], 1e308);
  EXPECT_TRUE(std::isinf(d[3]));
  EXPECT_EQ(d[4], std::numeric_limits<double>::denorm_min());
  const int64_t* m = t->column(1).data<int64_t>();
  EXPECT_EQ(m[0], 1250);
  EXPECT_EQ(m[1], -1);
  EXPECT_EQ(m[2], 9999999999);
  EXPECT_EQ(m[3], 300);
  EXPECT_EQ(m[4], 50);
  const int32_t* dt = t->column(2).data<int32_t>();
  EXPECT_EQ(dt[0], days_from_civil(2024, 2, 29));
  EXPECT_EQ(dt[1], 0);
  EXPECT_EQ(dt[2], -1);
  EXPECT_EQ(dt[3], days_from_civil(1, 1, 1));
  EXPECT_EQ(dt[4], days_from_civil(9999, 12, 31));
}

TEST(LoadReaderTest, VarcharQuotingAndDictionaryOrder) {
  TempDir tmp;
  write_file(tmp.file("a.csv"),
             "\"b, with comma\",1\r\n"
             "\"multi\nline\",2\r\n"
             "\"say \"\"hi\"\"\",3\n"
             ",4\n"
             "\xC3\xA9t\xC3\xA9,5\n"
             "\"\",6\n"
             "b, with comma,7\n"  // unquoted: splits into more fields; not used here
  );
  // The last line has 3 fields; parse the first six lines only.
  std::string text = read_file(tmp.file("a.csv"));
  write_file(tmp.file("b.csv"), text.substr(0, text.rfind("b, with comma,7")));
  auto t = read_csv(tmp.file("b.csv"), "s VARCHAR NOT NULL, n INT NOT NULL");  // an empty field is ""
  std::vector<std::string> expected = {"b, with comma", "multi\nline", "say \"hi\"", "", "\xC3\xA9t\xC3\xA9", ""};
  EXPECT_EQ(column_strings(*t, 0), expected);
  const Dictionary& dict = *t->column(0).dictionary();
  std::set<std::string> distinct(expected.begin(), expected.end());
  ASSERT_EQ(dict.size(), distinct.size());
  uint32_t code = 0;
  for (auto& s : distinct) EXPECT_EQ(dict.at(code++), s);  // std::set order == bytewise order
  EXPECT_EQ(t->column(1).get_int(5), 6);
}

TEST(LoadReaderTest, HeaderDelimiterBomBlankLinesAndManyFiles) {
  TempDir tmp;
  write_file(tmp.file("1.csv"), "\xEF\xBB\xBFid;name\n1;a\n\n2;b\n");
  write_file(tmp.file("2.csv"), "id;name\r\n3;c\r\n\r\n");
  write_file(tmp.file("3.csv"), "id;name");  // header only, no newline
  write_file(tmp.file("4.csv"), "");
  auto t = read_delimited_table("t", parse_schema("id INT, name VARCHAR"),
                                {tmp.file("1.csv"), tmp.file("2.csv"), tmp.file("3.csv"), tmp.file("4.csv")},
                                DelimitedFormat::csv(';', true));
  EXPECT_EQ(column_strings(*t, 0), (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(column_strings(*t, 1), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(LoadReaderTest, TabDelimiterAndEmptyInput) {
  TempDir tmp;
  write_file(tmp.file("a.tsv"), "1\tx y\n2\t\n");
  auto t = read_csv(tmp.file("a.tsv"), "a INT, b VARCHAR NOT NULL", DelimitedFormat::csv('\t'));
  EXPECT_EQ(column_strings(*t, 1), (std::vector<std::string>{"x y", ""}));
  write_file(tmp.file("e.csv"), "");
  auto e = read_csv(tmp.file("e.csv"), "a INT, b VARCHAR");
  EXPECT_EQ(e->row_count(), 0u);
  EXPECT_EQ(e->column(1).dictionary()->size(), 0u);
}

TEST(LoadReaderTest, TblTrailingDelimiter) {
  TempDir tmp;
  write_file(tmp.file("a.tbl"), "1|x|2.5|\n2||3|\r\n3|\"q\"|4|");
  auto t = read_csv(tmp.file("a.tbl"), "a INT, s VARCHAR NOT NULL, d DOUBLE", DelimitedFormat::tbl());
  EXPECT_EQ(column_strings(*t, 0), (std::vector<std::string>{"1", "2", "3"}));
  // .tbl has no quoting: quotes are data.
  EXPECT_EQ(column_strings(*t, 1), (std::vector<std::string>{"x", "", "\"q\""}));
  EXPECT_EQ(column_strings(*t, 2), (std::vector<std::string>{"2.5", "3", "4"}));
}

// Random rows with awkward strings, written as CSV; parsing with tiny chunks must
// give the same table as the generator's values, whatever the chunk size.
TEST(LoadReaderTest, ChunkBoundariesNeverSplitRecords) {
  TempDir tmp;
  std::mt19937 rng(7);
  const char* pieces[] = {"a", "b", ",", "\"", "\n", "\r\n", " ", "\xC3\xA9", "zz", "|"};
  std::vector<int64_t> ids;
  std::vector<std::string> strs;
  std::string csv = "id,s,k\n";
  for (int r = 0; r < 3000; r++) {
    std::string s;
    int n = int(rng() % 6);
    for (int k = 0; k < n; k++) s += pieces[rng() % 10];
    int64_t id = int64_t(rng()) - (1LL << 31);
    ids.push_back(id);
    strs.push_back(s);
    bool quote = s.find_first_of(",\"\r\n") != std::string::npos || rng() % 4 == 0;
    std::string field = s;
    if (quote) {
      field = "\"";
      for (char c : s) field += c == '"' ? std::string("\"\"") : std::string(1, c);
      field += "\"";
    }
    csv += std::to_string(id) + "," + field + "," + std::to_string(r) + (rng() % 3 == 0 ? "\r\n" : "\n");
    if (rng() % 10 == 0) csv += rng() % 2 ? "\n" : "\r\n";  // blank lines are skipped
  }
  write_file(tmp.file("a.csv"), csv);
  for (size_t chunk : {size_t(1), size_t(3), size_t(17), size_t(256), size_t(4096), size_t(8) << 20}) {
    DelimitedFormat f = DelimitedFormat::csv(',', true);
    f.chunk_bytes = chunk;
    auto t = read_delimited_table("t", parse_schema("id BIGINT, s VARCHAR, k INT"), {tmp.file("a.csv")}, f);
    ASSERT_EQ(t->row_count(), ids.size()) << "chunk " << chunk;
    for (size_t r = 0; r < ids.size(); r++) {
      ASSERT_EQ(t->column(0).get_int(r), ids[r]) << "chunk " << chunk << " row " << r;
      ASSERT_EQ(t->column(1).get(r).as_string(), strs[r]) << "chunk " << chunk << " row " << r;
      ASSERT_EQ(t->column(2).get_int(r), int64_t(r));
    }
    EXPECT_EQ(t->column(0).stats().min, *std::min_element(ids.begin(), ids.end()));
    EXPECT_EQ(t->column(0).stats().max, *std::max_element(ids.begin(), ids.end()));
    EXPECT_EQ(t->column(1).dictionary()->size(), std::set<std::string>(strs.begin(), strs.end()).size());
  }
}

TEST(LoadReaderTest, TblChunksAndManyFilesKeepOrder) {
  TempDir tmp;
  std::vector<std::string> files;
  int64_t next = 0;
  for (int f = 0; f < 4; f++) {
    std::string text;
    for (int r = 0; r < 2000 + f; r++, next++) text += std::to_string(next) + "|v" + std::to_string(next % 13) + "|\n";
    files.push_back(tmp.file("p" + std::to_string(f)));
    write_file(files.back(), text);
  }
  DelimitedFormat f = DelimitedFormat::tbl();
  f.chunk_bytes = 100;
  auto t = read_delimited_table("t", parse_schema("a BIGINT, s VARCHAR"), files, f);
  ASSERT_EQ(t->row_count(), uint64_t(next));
  for (int64_t r = 0; r < next; r++) {
    ASSERT_EQ(t->column(0).get_int(uint64_t(r)), r);
    ASSERT_EQ(t->column(1).get(uint64_t(r)).as_string(), "v" + std::to_string(r % 13));
  }
  EXPECT_EQ(t->column(1).dictionary()->size(), 13u);
}

// --- bad input ---------------------------------------------------------------

std::string expect_load_error(const std::string& content, const std::string& schema, DelimitedFormat format,
                              std::initializer_list<std::string> parts) {
  TempDir tmp;
  std::string path = tmp.file("in.txt");
  write_file(path, content);
  return expect_error([&] { read_delimited_table("t", parse_schema(schema), {path}, format); }, ErrorKind::kLoad,
                      parts);
}

std::string lineorder_like_line(int fields, bool trailing = true) {
  std::string s;
  for (int i = 0; i < fields; i++) s += std::to_string(i) + (i + 1 < fields || trailing ? "|" : "");
  return s + "\n";
}

std::string seventeen_ints() {
  std::string s;
  for (int i = 0; i < 17; i++) s += (i ? ", c" : "c") + std::to_string(i) + " INT";
  return s;
}

TEST(LoadReaderTest, WrongFieldCounts) {
  std::string good = lineorder_like_line(17);
  expect_load_error(good + good + lineorder_like_line(16), seventeen_ints(), DelimitedFormat::tbl(),
                    {"in.txt:3: ", "expected 17 fields, found 16"});
  expect_load_error(good + lineorder_like_line(18), seventeen_ints(), DelimitedFormat::tbl(),
                    {"in.txt:2: ", "expected 17 fields, found 18"});
  // Without the trailing '|' a complete line is accepted, a short one is not.
  expect_load_error(lineorder_like_line(17, false) + lineorder_like_line(15, false), seventeen_ints(),
                    DelimitedFormat::tbl(), {"in.txt:2: ", "expected 17 fields, found 15"});
  expect_load_error("1,2\n3\n", "a INT, b INT", DelimitedFormat::csv(), {"in.txt:2: ", "expected 2 fields, found 1"});
  expect_load_error("1,2\n3,4,\n", "a INT, b INT", DelimitedFormat::csv(),
                    {"in.txt:2: ", "expected 2 fields, found 3"});
  expect_load_error("h1,h2\n1,2\n\"x,y\",2,3\n", "a VARCHAR, b INT", DelimitedFormat::csv(',', true),
                    {"in.txt:3: ", "expected 2 fields, found 3"});
}

TEST(LoadReaderTest, BadNumbers) {
  auto csv = DelimitedFormat::csv();
  expect_load_error("1\n2\nabc\n", "a INT", csv, {"in.txt:3: ", "column a (INTEGER)", "expected an INTEGER", "'abc'"});
  expect_load_error("1\n2147483648\n", "a INT", csv, {"in.txt:2: ", "2147483648 is out of range for INTEGER"});
  expect_load_error("-2147483649\n", "a INT", csv, {"in.txt:1: ", "out of range"});
  expect_load_error("9223372036854775808\n", "a BIGINT", csv, {"in.txt:1: ", "out of range for BIGINT"});
  expect_load_error("99999999999999999999999\n", "a BIGINT", csv, {"in.txt:1: ", "out of range"});
  expect_load_error("1.5\n", "a INT", csv, {"in.txt:1: ", "expected an INTEGER", "'1.5'"});
  expect_load_error("12x\n", "a BIGINT", csv, {"in.txt:1: ", "expected a BIGINT", "'12x'"});
  expect_load_error("1\n1,5\n", "a DOUBLE", csv, {"in.txt:2: ", "expected 1 fields, found 2"});
  expect_load_error("1e999\n", "a DOUBLE", csv, {"in.txt:1: ", "out of range for DOUBLE"});
  expect_load_error("one\n", "a DOUBLE", csv, {"in.txt:1: ", "expected a DOUBLE", "'one'"});
  expect_load_error("1.234\n", "a DECIMAL(10,2)", csv, {"in.txt:1: ", "'1.234' does not fit DECIMAL(10,2)"});
  expect_load_error("123456789.5\n", "a DECIMAL(10,2)", csv, {"in.txt:1: ", "does not fit DECIMAL(10,2)"});
  expect_load_error("1.2.3\n", "a DECIMAL(10,2)", csv, {"in.txt:1: ", "expected a DECIMAL(10,2)", "'1.2.3'"});
  expect_load_error("\"12\"\"\"\n", "a INT", csv, {"in.txt:1: ", "expected an INTEGER"});
}

TEST(LoadReaderTest, BadDates) {
  auto csv = DelimitedFormat::csv();
  expect_load_error("2023-02-29\n", "d DATE", csv, {"in.txt:1: ", "column d (DATE)", "expected a DATE (YYYY-MM-DD)",
                                                    "'2023-02-29'"});
  expect_load_error("2024-01-01\n2024-13-01\n", "d DATE", csv, {"in.txt:2: ", "'2024-13-01'"});
  expect_load_error("20240101\n", "d DATE", csv, {"in.txt:1: ", "expected a DATE"});
}

// In NOT NULL columns; in nullable ones an unquoted empty field is NULL (below).
TEST(LoadReaderTest, EmptyNumericFieldsAreErrors) {
  auto csv = DelimitedFormat::csv();
  expect_load_error("1,a\n,b\n", "n INT NOT NULL, s VARCHAR", csv, {"in.txt:2: ", "column n (INTEGER)", "empty field"});
  expect_load_error("1| |\n", "n INT NOT NULL, m DOUBLE NOT NULL", DelimitedFormat::tbl(),
                    {"in.txt:1: ", "column m", "empty field"});
  expect_load_error("\"\"\n", "d DATE NOT NULL", csv, {"in.txt:1: ", "empty field"});
  // A quoted empty field is never NULL.
  expect_load_error("\"\"\n", "d DATE", csv, {"in.txt:1: ", "empty field"});
}

// Nullable columns: the unquoted empty field (or the NULL text) is NULL, across chunks,
// with a validity bitmap and statistics of the other values.
TEST(LoadReaderTest, NullableColumnsReadNulls) {
  TempDir tmp;
  std::string text;
  for (int r = 0; r < 3000; r++)
    text += (r % 7 == 0 ? std::string() : std::to_string(r)) + "," + (r % 5 == 0 ? "" : r % 5 == 1 ? "\"\"" : "s") +
            "\n";
  write_file(tmp.file("n.csv"), text);
  DelimitedFormat f = DelimitedFormat::csv();
  f.chunk_bytes = 100;
  auto t = read_delimited_table("t", parse_schema("a INT, s VARCHAR"), {tmp.file("n.csv")}, f);
  ASSERT_EQ(t->row_count(), 3000u);
  uint64_t a_nulls = 0, s_nulls = 0;
  for (uint64_t r = 0; r < 3000; r++) {
    EXPECT_EQ(t->column(0).is_null(r), r % 7 == 0) << r;
    EXPECT_EQ(t->column(1).is_null(r), r % 5 == 0) << r;
    if (!t->column(0).is_null(r)) {
      EXPECT_EQ(t->column(0).get_int(r), int64_t(r));
    }
    if (r % 5 == 1) {
      EXPECT_EQ(t->column(1).get(r).to_string(), "");
    }
    a_nulls += r % 7 == 0;
    s_nulls += r % 5 == 0;
  }
  EXPECT_EQ(t->column(0).null_count(), a_nulls);
  EXPECT_EQ(t->column(1).null_count(), s_nulls);
  EXPECT_EQ(t->column(0).stats().min, 1);  // row 0 is NULL
  EXPECT_EQ(t->column(0).stats().max, 2999);
  // Every row NULL: a one-entry dictionary, code 0 in every slot.
  write_file(tmp.file("all.csv"), ",\n,\n");
  auto all = read_delimited_table("t", parse_schema("a BIGINT, s VARCHAR"), {tmp.file("all.csv")}, f);
  EXPECT_EQ(all->column(0).null_count(), 2u);
  EXPECT_EQ(all->column(1).null_count(), 2u);
  EXPECT_EQ(all->column(1).dictionary()->size(), 1u);
  EXPECT_TRUE(all->column(1).get(1).is_null());
}

TEST(LoadReaderTest, QuotingErrors) {
  auto csv = DelimitedFormat::csv();
  expect_load_error("a,1\n\"open,2\nmore\n", "s VARCHAR, n INT", csv, {"in.txt:2: ", "unterminated quoted field"});
  expect_load_error("a,1\nb\"c,2\n", "s VARCHAR, n INT", csv, {"in.txt:2: ", "quote character inside an unquoted"});
  expect_load_error("\"a\"b,1\n", "s VARCHAR, n INT", csv, {"in.txt:1: ", "after a closing quote"});
  expect_load_error("\"unterminated header\n1\n", "n INT", DelimitedFormat::csv(',', true),
                    {"in.txt:1: ", "unterminated"});
}

TEST(LoadReaderTest, LineNumbersCountFromTheFileStartAcrossChunks) {
  TempDir tmp;
  std::string text;
  for (int r = 1; r <= 20000; r++) {
    if (r == 15000)
      text += "oops,1\n";
    else if (r == 19000)
      text += "2,\n";
    else if (r % 1000 == 0)
      text += "\"x\"\"\ny\",1\n";  // a quoted field spanning two lines: two physical lines
    else
      text += std::to_string(r) + ",1\n";
  }
  write_file(tmp.file("big.csv"), text);
  DelimitedFormat f = DelimitedFormat::csv();
  f.chunk_bytes = 64;
  // As text, "oops" is fine; the empty INT at row 19000 is the first error. Its line
  // counts the extra physical lines of the quoted records before it.
  size_t empty_b = text.find("\n2,\n") + 1;
  int empty_b_line = 1 + int(std::count(text.begin(), text.begin() + long(empty_b), '\n'));
  EXPECT_EQ(empty_b_line, 19000 + 17);
  expect_error([&] { read_delimited_table("t", parse_schema("a VARCHAR, b INT NOT NULL"), {tmp.file("big.csv")}, f); },
               ErrorKind::kLoad, {"big.csv:" + std::to_string(empty_b_line) + ": ", "empty field"});
  // With a numeric first column, the first error (line 15014) is reported, not the
  // later one in another chunk.
  std::string msg = expect_error(
      [&] { read_delimited_table("t", parse_schema("a BIGINT, b INT"), {tmp.file("big.csv")}, f); }, ErrorKind::kLoad,
      {"big.csv:"});
  // Row 1000 is the first quoted record, so it fails before line 15014: compute the
  // expected line independently by scanning the text.
  size_t first_bad = text.find("\"x\"\"");
  int expected_line = 1 + int(std::count(text.begin(), text.begin() + long(first_bad), '\n'));
  EXPECT_NE(msg.find("big.csv:" + std::to_string(expected_line) + ": "), std::string::npos) << msg;

  // Now only the two plain errors: with tiny chunks, the earlier one wins.
  std::string plain;
  for (int r = 1; r <= 20000; r++) plain += r == 15000 ? "oops,1\n" : r == 19000 ? "2,\n" : std::to_string(r) + ",1\n";
  write_file(tmp.file("plain.csv"), plain);
  expect_error([&] { read_delimited_table("t", parse_schema("a INT, b INT"), {tmp.file("plain.csv")}, f); },
               ErrorKind::kLoad, {"plain.csv:15000: ", "'oops'"});
}

TEST(LoadReaderTest, ErrorsNameTheFileTheyAreIn) {
  TempDir tmp;
  write_file(tmp.file("one.tbl"), "1|\n2|\n");
  write_file(tmp.file("two.tbl"), "3|\n4|\nx|\n");
  expect_error(
      [&] {
        read_delimited_table("t", parse_schema("a INT"), {tmp.file("one.tbl"), tmp.file("two.tbl")},
                             DelimitedFormat::tbl());
      },
      ErrorKind::kLoad, {tmp.file("two.tbl") + ":3: ", "'x'"});
  expect_error(
      [&] {
        read_delimited_table("t", parse_schema("a INT"), {tmp.file("one.tbl"), tmp.file("nope.tbl")},
                             DelimitedFormat::tbl());
      },
      ErrorKind::kIO, {tmp.file("nope.tbl"), "No such file"});
}

TEST(LoadReaderTest, ValueExcerptsStayOnOneLine) {
  std::string msg = expect_load_error("\"12\n34\"\n", "a INT", DelimitedFormat::csv(), {"in.txt:1: "});
  EXPECT_NE(msg.find("'12?34'"), std::string::npos) << msg;
  std::string longv(200, '9');
  msg = expect_load_error(longv + "x\n", "a INT", DelimitedFormat::csv(), {"in.txt:1: ", "..."});
  EXPECT_LT(msg.size(), 200u);
}

}  // namespace
}  // namespace raydb::test
