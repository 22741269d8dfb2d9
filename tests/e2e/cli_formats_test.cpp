// `raydb query --format csv|json|table` produce output that parses back to the same
// result the API returns (strings with commas, quotes and unicode included).
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace raydb::test {
namespace {

// RFC 4180: fields separated by commas, quoted with "" escapes, records by CRLF or LF.
std::vector<std::vector<std::string>> parse_csv(const std::string& text, std::string& error) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  size_t i = 0;
  bool in_quotes = false, quoted = false;
  while (i < text.size()) {
    char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          i += 2;
          continue;
        }
        in_quotes = false;
      } else {
        field += c;
      }
      ++i;
      continue;
    }
    if (c == '"') {
      if (!field.empty()) {
        error = "quote inside an unquoted field at byte " + std::to_string(i);
        return {};
      }
      in_quotes = quoted = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
      quoted = false;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      row.push_back(field);
      rows.push_back(row);
      row.clear();
      field.clear();
      quoted = false;
    } else {
      field += c;
    }
    ++i;
  }
  if (in_quotes) error = "unterminated quoted field";
  if (!field.empty() || quoted || !row.empty()) {
    row.push_back(field);
    rows.push_back(row);
  }
  return rows;
}

const char* kSql = "select id, name, salary, hired, rating, pts from emp order by id";

class CliFormats : public ::testing::Test {
 protected:
  void SetUp() override {
    OracleFixture& f = csv_fixture();
    ASSERT_TRUE(f.db) << f.error;
    path_ = f.path;
    expected_ = f.db->query(kSql, QueryOptions{Backend::kCpu});
    ASSERT_EQ(expected_.row_count(), 10u);
  }
  std::string path_;
  QueryResult expected_;
};

TEST_F(CliFormats, Csv) {
  CommandResult r = run_raydb(cli::query(path_, kSql, "--format csv --backend cpu"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::string error;
  auto rows = parse_csv(r.out, error);
  ASSERT_EQ(error, "") << r.out;
  ASSERT_EQ(rows.size(), expected_.row_count() + 1) << r.out;
  ASSERT_EQ(rows[0].size(), expected_.column_count());
  for (size_t c = 0; c < expected_.column_count(); ++c) EXPECT_EQ(rows[0][c], expected_.column_name(c));
  for (size_t i = 0; i < expected_.row_count(); ++i) {
    ASSERT_EQ(rows[i + 1].size(), expected_.column_count()) << "row " << i;
    for (size_t c = 0; c < expected_.column_count(); ++c)
      EXPECT_EQ(rows[i + 1][c], expected_.get(i, c).to_string()) << "row " << i << " column " << c;
  }
}

TEST_F(CliFormats, Json) {
  CommandResult r = run_raydb(cli::query(path_, kSql, "--format json --backend cpu"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(r.out);
  } catch (const std::exception& e) {
    FAIL() << "not JSON: " << e.what() << "\n" << r.out;
  }
  ASSERT_TRUE(j.is_array()) << r.out;
  ASSERT_EQ(j.size(), expected_.row_count());
  for (size_t i = 0; i < expected_.row_count(); ++i) {
    ASSERT_TRUE(j[i].is_object());
    EXPECT_EQ(j[i].size(), expected_.column_count());
    for (size_t c = 0; c < expected_.column_count(); ++c) {
      const std::string& name = expected_.column_name(c);
      ASSERT_TRUE(j[i].contains(name)) << name;
      const auto& v = j[i][name];
      Value want = expected_.get(i, c);
      if (v.is_string()) {
        EXPECT_EQ(v.get<std::string>(), want.to_string()) << name;
      } else if (v.is_number_integer()) {
        EXPECT_EQ(v.get<int64_t>(), want.as_int()) << name;
      } else if (v.is_number()) {
        EXPECT_NEAR(v.get<double>(), want.as_double(), std::abs(want.as_double()) * 1e-12) << name;
      } else {
        ADD_FAILURE() << name << " has unexpected JSON type: " << v.dump();
      }
    }
  }
  // Strings stay strings, numbers numbers.
  EXPECT_TRUE(j[2]["name"].is_string());
  EXPECT_EQ(j[2]["name"].get<std::string>(), "Smith, John");
  EXPECT_EQ(j[3]["name"].get<std::string>(), "Quote \"Q\" Person");
  EXPECT_EQ(j[5]["name"].get<std::string>(), "日本");
  EXPECT_TRUE(j[0]["id"].is_number_integer());
  EXPECT_EQ(j[0]["pts"].get<int64_t>(), 9000000000);
}

TEST_F(CliFormats, Table) {
  CommandResult r = run_raydb(cli::query(path_, kSql, "--format table --backend cpu"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = split_lines(r.out);
  EXPECT_GE(lines.size(), expected_.row_count() + 1);
  for (size_t c = 0; c < expected_.column_count(); ++c)
    EXPECT_NE(r.out.find(expected_.column_name(c)), std::string::npos) << expected_.column_name(c);
  for (size_t i = 0; i < expected_.row_count(); ++i)
    for (size_t c = 0; c < expected_.column_count(); ++c)
      EXPECT_NE(r.out.find(expected_.get(i, c).to_string()), std::string::npos) << expected_.get(i, c).to_string();
}

TEST_F(CliFormats, EmptyResultInEveryFormat) {
  const char* sql = "select id, name from emp where id < 0";
  CommandResult csv = run_raydb(cli::query(path_, sql, "--format csv"));
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(split_lines(csv.out), std::vector<std::string>{"id,name"});
  CommandResult json = run_raydb(cli::query(path_, sql, "--format json"));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out), nlohmann::json::array());
  CommandResult table = run_raydb(cli::query(path_, sql, "--format table"));
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("name"), std::string::npos);
}

TEST_F(CliFormats, BackendsAgree) {
  CommandResult cpu = run_raydb(cli::query(path_, kSql, "--format csv --backend cpu"));
  CommandResult aut = run_raydb(cli::query(path_, kSql, "--format csv --backend auto"));
  ASSERT_EQ(cpu.exit_code, 0) << cpu.err;
  ASSERT_EQ(aut.exit_code, 0) << aut.err;
  EXPECT_EQ(cpu.out, aut.out);
}

TEST(CliBasics, VersionAndHelp) {
  CommandResult v = run_raydb("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find("raydb"), std::string::npos);
  CommandResult h = run_raydb("--help");
  EXPECT_EQ(h.exit_code, 0);
  for (const char* cmd : {"gen", "load", "query", "shell", "export", "describe", "info", "bench", "ssb"})
    EXPECT_NE(h.out.find(cmd), std::string::npos) << cmd;
}

}  // namespace
}  // namespace raydb::test
