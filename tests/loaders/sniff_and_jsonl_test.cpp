// The CSV sniffer and the JSON lines loader on generated files whose column kinds and
// values the generator knows (the oracle): the guessed delimiter, header and types are
// the generated ones, and the rows read with the guessed schema are the generated
// values. Links only storage/, so it also runs quickly under the sanitizers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "storage/loaders/csv_loader.h"
#include "storage/loaders/csv_sniffer.h"
#include "storage/loaders/jsonl_loader.h"

namespace raydb {
namespace {

namespace fs = std::filesystem;

struct Scratch {
  fs::path dir;
  Scratch() {
    dir = fs::temp_directory_path() / ("raydb_loaders_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string p = (dir / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

enum class Kind { kInt, kBig, kDec, kDate, kText };

Type type_of(Kind k) {
  switch (k) {
    case Kind::kInt: return Type::integer();
    case Kind::kBig: return Type::bigint();
    case Kind::kDec: return Type::decimal(7, 2);
    case Kind::kDate: return Type::date();
    case Kind::kText: return Type::varchar();
  }
  return Type::varchar();
}

// One value's text, as Value::to_string prints what the loader stores ("" for NULL).
std::string value_text(Kind k, std::mt19937_64& rng) {
  switch (k) {
    case Kind::kInt: return std::to_string(int32_t(rng() % 2000001) - 1000000);
    case Kind::kBig: return std::to_string(int64_t(rng() % 4000000000000ULL) - 2000000000000LL);
    case Kind::kDec: {
      const int64_t cents = int64_t(rng() % 1999999) - 999999;  // 7 digits, scale 2 (at least one wide value below)
      return format_decimal(cents, 2);
    }
    case Kind::kDate: return format_date(int32_t(rng() % 20000));
    case Kind::kText: return "t" + std::to_string(rng() % 1000);
  }
  return "";
}

TEST(CsvSniffer, GuessesGeneratedFiles) {
  Scratch s;
  const std::vector<Kind> kinds = {Kind::kInt, Kind::kBig, Kind::kDec, Kind::kDate, Kind::kText};
  for (char delim : {',', '|', ';', '\t'})
    for (bool header : {true, false}) {
      std::mt19937_64 rng(uint64_t(delim) * 2 + header);
      std::vector<std::vector<std::string>> rows;
      std::string text;
      if (header) text += std::string("a") + delim + "b" + delim + "c" + delim + "d" + delim + "e\n";
      for (int r = 0; r < 500; r++) {
        std::vector<std::string> row;
        for (size_t c = 0; c < kinds.size(); c++) {
          // NULLs, except in the first record (a NULL there makes DuckDB's rule ambiguous)
          std::string v = (r > 0 && rng() % 10 == 0) ? "" : value_text(kinds[c], rng);
          if (r == 1 && c == 2) v = "-99999.99";  // the widest decimal, so the guess is DECIMAL(7,2)
          if (r == 2 && c == 1) v = "-2000000000000";  // outside int32: BIGINT
          row.push_back(v);
          text += (c ? std::string(1, delim) : "") + v;
        }
        text += "\n";
        rows.push_back(row);
      }
      const std::string file = s.write("f.csv", text);
      const CsvSniff sniff = sniff_csv(file, {});
      ASSERT_EQ(sniff.delimiter, delim);
      ASSERT_EQ(sniff.header, header);
      ASSERT_EQ(sniff.schema.size(), kinds.size());
      for (size_t c = 0; c < kinds.size(); c++)
        EXPECT_EQ(sniff.schema[c].type, type_of(kinds[c])) << c << " " << sniff.schema[c].type.to_string();
      CsvLoadOptions o;
      o.delimiter = sniff.delimiter;
      o.header = sniff.header;
      TablePtr t = read_csv_table("t", sniff.schema, {file}, o);
      ASSERT_EQ(t->row_count(), rows.size());
      for (size_t r = 0; r < rows.size(); r++)
        for (size_t c = 0; c < kinds.size(); c++) {
          const Value v = t->column(c).get(r);
          EXPECT_EQ(v.is_null() ? "" : v.to_string(), rows[r][c]) << r << "," << c;
        }
    }
}

TEST(JsonlLoader, GuessesAndReadsGeneratedFiles) {
  Scratch s;
  const std::vector<Kind> kinds = {Kind::kInt, Kind::kBig, Kind::kDate, Kind::kText};
  const char* names[] = {"i", "b", "d", "s"};
  std::mt19937_64 rng(9);
  std::vector<std::vector<std::string>> rows;
  std::string text;
  for (int r = 0; r < 400; r++) {
    std::vector<std::string> row;
    std::string line = "{";
    for (size_t c = 0; c < kinds.size(); c++) {
      std::string v = value_text(kinds[c], rng);
      if (r == 0 && c == 1) v = "5000000000";
      const int shape = int(rng() % 12);  // 0: key missing, 1: null, else a value
      row.push_back(shape <= 1 ? "" : v);
      if (shape == 0) continue;
      if (line.size() > 1) line += ", ";
      const bool quoted = kinds[c] == Kind::kDate || kinds[c] == Kind::kText;
      line += std::string("\"") + names[c] + "\": " + (shape == 1 ? "null" : quoted ? "\"" + v + "\"" : v);
    }
    text += line + "}\n";
    rows.push_back(row);
  }
  text = "{\"i\": 1, \"b\": 5000000000, \"d\": \"2000-01-01\", \"s\": \"x\"}\n" + text;  // every key, in order
  rows.insert(rows.begin(), {"1", "5000000000", "2000-01-01", "x"});
  const std::string file = s.write("f.jsonl", text);
  const JsonlSniff sniff = sniff_jsonl(file);
  ASSERT_EQ(sniff.schema.size(), kinds.size());
  for (size_t c = 0; c < kinds.size(); c++) {
    EXPECT_EQ(sniff.schema[c].name, names[c]);
    EXPECT_EQ(sniff.schema[c].type, type_of(kinds[c])) << c;
  }
  TablePtr t = read_jsonl_table("t", sniff.schema, {file}, false);
  ASSERT_EQ(t->row_count(), rows.size());
  for (size_t r = 0; r < rows.size(); r++)
    for (size_t c = 0; c < kinds.size(); c++) {
      const Value v = t->column(c).get(r);
      EXPECT_EQ(v.is_null() ? "" : v.to_string(), rows[r][c]) << r << "," << c;
    }
}

}  // namespace
}  // namespace raydb
