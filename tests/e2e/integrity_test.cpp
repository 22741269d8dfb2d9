// Issue 14, integrity: the manifest's checksum, each column and dictionary file's
// checksum, statistics verified against the data (defect 3), and `raydb check`, for
// each corruption class (edited manifest, edited statistics, flipped byte, truncated
// file, missing file, out-of-range codes), driven through the `raydb` binary. The
// oracle is the intact database's own answers and the exact values loaded.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <regex>

#include <nlohmann/json.hpp>

#include "storage/persist/manifest.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

namespace fs = std::filesystem;

// Exit 1 (not a signal), only "error:" lines on stderr, one of them holding `word`.
::testing::AssertionResult errors_with(const CommandResult& r, const std::string& word, size_t lines_wanted = 1) {
  if (r.exit_code != 1) return ::testing::AssertionFailure() << "exit " << r.exit_code << " stderr [" << r.err << "]";
  auto lines = split_lines(r.err);
  std::vector<std::string> errors;
  for (auto& l : lines)
    if (l.rfind("error:", 0) == 0) errors.push_back(l);
  if (errors.size() != lines_wanted)
    return ::testing::AssertionFailure() << "stderr [" << r.err << "] has not " << lines_wanted << " error lines";
  for (auto& l : errors)
    if (l.find(word) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "stderr [" << r.err << "] lacks '" << word << "'";
}

class IntegrityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(tmp_.file("t.csv"), "d,s,i\n1.5,a,10\n2.5,b,20\n3.5,c,30\n");
    CommandResult r = run_raydb(cli::load_csv(db(), "t", "d DOUBLE, s VARCHAR, i INTEGER", tmp_.file("t.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    good_manifest_ = read_file(manifest());
    auto m = nlohmann::json::parse(good_manifest_);
    for (auto& c : m["tables"][0]["columns"]) files_[c["name"].get<std::string>()] = c["file"].get<std::string>();
    dict_file_ = m["tables"][0]["columns"][1]["dictionary"]["file"];
  }
  std::string db() const { return tmp_.file("db"); }
  std::string manifest() const { return db() + "/manifest.json"; }
  std::string path_of(const std::string& column) { return db() + "/" + files_[column]; }
  CommandResult query(const std::string& sql) { return run_raydb(cli::query(db(), sql, "--format csv --backend cpu")); }
  std::string csv(const std::string& sql) {
    CommandResult r = query(sql);
    EXPECT_EQ(r.exit_code, 0) << sql << ": " << r.err;
    return r.out;
  }
  CommandResult check() { return run_raydb("check --db " + shell_quote(db())); }
  // The intact database answers exactly and `raydb check` passes.
  void expect_intact() {
    EXPECT_EQ(csv("select count(*), sum(i), min(s), max(d) from t where i > 15"), "count(*),sum(i),min(s),max(d)\n2,50,b,3.5\n");
    CommandResult r = check();
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // d, s (+ dictionary), i, the narrowed files of s and i, and the three zone maps.
    EXPECT_NE(r.out.find("ok (1 tables, 9 files"), std::string::npos) << r.out;
  }
  void replace_in_manifest(const std::string& from, const std::string& to, bool reseal) {
    std::string text = good_manifest_;
    ASSERT_NE(text.find(from), std::string::npos) << from;
    text.replace(text.find(from), from.size(), to);
    write_file(manifest(), reseal ? persist::Manifest::reseal(text) : text);
  }
  TempDir tmp_;
  std::string good_manifest_, dict_file_;
  std::map<std::string, std::string> files_;
};

// Defect 3: editing a statistic is caught by the manifest's checksum; with the
// checksum recomputed (or in a manifest without checksums) by the first query that
// reads the column, which compares the statistics with the data. Never a wrong count.
TEST_F(IntegrityTest, EditedStatisticsAreAnErrorNotAWrongAnswer) {
  expect_intact();
  replace_in_manifest("\"max\": 30", "\"max\": 12", false);
  EXPECT_TRUE(errors_with(query("select count(*) from t where i > 15"), "its checksum does not match its text"));
  EXPECT_TRUE(errors_with(check(), "corrupted manifest " + manifest()));

  const std::string stats_error = path_of("i") + " (t.i) does not match the manifest's statistics (min 10, max 12; "
                                  "the data has min 10, max 30)";
  replace_in_manifest("\"max\": 30", "\"max\": 12", true);
  for (const char* sql : {"select count(*) from t where i > 15", "select max(i) from t", "select s from t order by i"})
    EXPECT_TRUE(errors_with(query(sql), stats_error)) << sql;
  EXPECT_EQ(csv("select count(*) from t where d > 2"), "count(*)\n2\n");  // does not read i
  EXPECT_TRUE(errors_with(check(), stats_error));

  // A manifest without checksums (an older raydb's): statistics are still verified.
  std::string old = std::regex_replace(good_manifest_, std::regex(",\\s*\"(manifest_)?checksum\": \"[0-9a-f]{16}\""), "");
  ASSERT_EQ(old.find("checksum"), std::string::npos);
  std::string edited = old;
  edited.replace(edited.find("\"max\": 3.5"), 10, "\"max\": 2.0");
  write_file(manifest(), edited);
  EXPECT_TRUE(errors_with(query("select count(*) from t where d > 3"), path_of("d") + " (t.d) does not match"));
  EXPECT_EQ(csv("select count(*) from t where i > 15"), "count(*)\n2\n");
  CommandResult r = check();
  EXPECT_TRUE(errors_with(r, "(t.d) does not match the manifest's statistics"));
  EXPECT_NE(r.err.find("note: " + manifest() + " has no checksums"), std::string::npos) << r.err;

  // The older manifest, unedited: opens, answers, and `raydb check` passes with a note.
  write_file(manifest(), old);
  EXPECT_EQ(csv("select count(*), sum(i), min(s), max(d) from t where i > 15"), "count(*),sum(i),min(s),max(d)\n2,50,b,3.5\n");
  r = check();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("has no checksums"), std::string::npos) << r.err;
  write_file(manifest(), good_manifest_);
  expect_intact();
}

// A byte flipped in a column file, in a way its statistics cannot see (20 -> 21):
// the checksum catches it when a query first reads the column.
TEST_F(IntegrityTest, FlippedBytesAreCaughtByChecksums) {
  const std::string col = read_file(path_of("i"));
  std::string bad = col;
  bad[4] ^= 1;  // row 1: 20 -> 21
  write_file(path_of("i"), bad);
  const std::string want = path_of("i") + " (t.i) is corrupted: its checksum does not match the manifest's";
  EXPECT_TRUE(errors_with(query("select sum(i) from t"), want));
  EXPECT_EQ(csv("select count(*), min(s) from t"), "count(*),min(s)\n3,a\n");  // does not read i
  EXPECT_TRUE(errors_with(check(), want));
  write_file(path_of("i"), col);

  // A dictionary byte ("a" -> "0": still sorted, same size): caught by the first query
  // that uses the dictionary (decoding, a string literal to look up, or reading the
  // column's codes), as a column file is; a query that does not read s answers.
  const std::string dict = read_file(db() + "/" + dict_file_);
  std::string bad_dict = dict;
  ASSERT_EQ(bad_dict[bad_dict.size() - 3], 'a');
  bad_dict[bad_dict.size() - 3] = '0';
  write_file(db() + "/" + dict_file_, bad_dict);
  const std::string dict_error = dict_file_ + " (t.s) is corrupted: its checksum does not match";
  EXPECT_EQ(csv("select count(*), sum(i) from t"), "count(*),sum(i)\n3,60\n");
  EXPECT_TRUE(errors_with(query("select min(s) from t"), dict_error));
  EXPECT_TRUE(errors_with(query("select count(*) from t where s = 'b'"), dict_error));
  EXPECT_TRUE(errors_with(query("select i from t order by s"), dict_error));
  EXPECT_TRUE(errors_with(check(), dict_error));
  write_file(db() + "/" + dict_file_, dict);
  expect_intact();
}

// Truncated and missing files, out-of-range codes, and several problems at once:
// `raydb check` reports each on its own line and exits 1; queries fail with one line.
TEST_F(IntegrityTest, CheckReportsEveryCorruptionClass) {
  const std::string col_i = read_file(path_of("i")), col_s = read_file(path_of("s"));
  fs::resize_file(path_of("i"), 5);
  EXPECT_TRUE(errors_with(query("select count(*) from t"), path_of("i") + " (t.i) has 5 bytes, the manifest says 12"));
  EXPECT_TRUE(errors_with(check(), "(t.i) has 5 bytes"));
  fs::remove(path_of("i"));
  EXPECT_TRUE(errors_with(query("select count(*) from t"), "missing column file " + path_of("i")));
  EXPECT_TRUE(errors_with(check(), "missing column file " + path_of("i")));
  std::string bad_s = col_s;
  int32_t code = 7;  // the dictionary has 3 entries
  std::memcpy(&bad_s[8], &code, 4);
  write_file(path_of("s"), bad_s);
  const std::string dict = read_file(db() + "/" + dict_file_);
  fs::remove(db() + "/" + dict_file_);
  CommandResult r = check();
  EXPECT_TRUE(errors_with(r, "missing column file", 2));
  EXPECT_TRUE(errors_with(r, "missing dictionary file", 2));
  EXPECT_NE(r.out.find("2 problems found"), std::string::npos) << r.out;
  write_file(path_of("i"), col_i);
  write_file(db() + "/" + dict_file_, dict);
  const std::string code_error = path_of("s") + " (t.s) is corrupted: dictionary code 7 outside 0..2";
  EXPECT_TRUE(errors_with(query("select min(s) from t"), code_error));
  EXPECT_TRUE(errors_with(check(), code_error));
  write_file(path_of("s"), col_s);
  expect_intact();
}

// A database with an RT view over f join d; returns the view's rows directory.
std::string create_rt_view(const TempDir& tmp, const std::string& db) {
  write_file(tmp.file("f.csv"), "k,v\n1,10\n2,20\n1,5\n3,7\n");
  write_file(tmp.file("d.csv"), "k,x\n1,100\n2,200\n3,100\n");
  EXPECT_EQ(run_raydb(cli::load_csv(db, "f", "k INTEGER, v INTEGER", tmp.file("f.csv"))).exit_code, 0);
  EXPECT_EQ(run_raydb(cli::load_csv(db, "d", "k INTEGER, x INTEGER", tmp.file("d.csv"))).exit_code, 0);
  CommandResult r = run_raydb(cli::query(
      db, "create rt view rv1 as select * from f join d on f.k = d.k with (filter = (x), group = (x), aggregate = (v))"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string dir;
  for (auto& e : fs::directory_iterator(db + "/rt_views")) dir = e.path().string();
  return dir;
}

// The view's query, answered through the view (--backend rt) and by the CPU backend.
const char* kViewQuery = "select x, sum(v) from f join d on f.k = d.k group by x order by x";
const char* kViewAnswer = "x,sum(v)\n100,22\n200,20\n";

// RT views' rows: `raydb check` reads each view's arrays; a truncated or missing one,
// or a view.json that lost a field, is one line naming the view.
TEST_F(IntegrityTest, CheckReadsRtViewRows) {
  const std::string dir = create_rt_view(tmp_, db());
  ASSERT_FALSE(dir.empty());
  CommandResult r = check();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ok (3 tables"), std::string::npos) << r.out;
  const std::string ids = read_file(dir + "/group_ids.u32"), meta = read_file(dir + "/view.json");
  fs::resize_file(dir + "/group_ids.u32", 6);
  EXPECT_TRUE(errors_with(check(), "rt view rv1: rt view: " + dir + "/group_ids.u32 is missing or has 6 bytes"));
  fs::remove(dir + "/group_ids.u32");
  EXPECT_TRUE(errors_with(check(), "rt view rv1: rt view: " + dir + "/group_ids.u32 is missing"));
  write_file(dir + "/group_ids.u32", ids);
  // An edited view.json fails its own checksum.
  write_file(dir + "/view.json", std::regex_replace(meta, std::regex("\"group_count\""), "\"gc\""));
  EXPECT_TRUE(errors_with(check(), "rt view rv1: rt view: " + dir + "/view.json is corrupted: its checksum does not match"));
  // One written before checksums (neither kind) is read as before: a lost field is named.
  auto old = nlohmann::json::parse(meta);
  old.erase("view_checksum");
  old.erase("checksums");
  write_file(dir + "/view.json", std::regex_replace(old.dump(1), std::regex("\"group_count\""), "\"gc\""));
  EXPECT_TRUE(errors_with(check(), "rt view rv1: rt view: bad " + dir + "/view.json"));
  write_file(dir + "/view.json", old.dump(1));
  EXPECT_EQ(check().exit_code, 0);
  write_file(dir + "/view.json", meta);
  EXPECT_EQ(check().exit_code, 0);
}

// Every file of an RT view carries a checksum in its view.json (and view.json its own):
// a flipped byte in any of them is one line naming the file, from `raydb check` and from
// a query that reads the view; restored, the view answers as the CPU backend does.
TEST_F(IntegrityTest, RtViewFilesAreChecksummed) {
  const std::string dir = create_rt_view(tmp_, db());
  ASSERT_FALSE(dir.empty());
  auto via_view = [&] { return run_raydb(cli::query(db(), kViewQuery, "--format csv --backend rt")); };
  ASSERT_EQ(via_view().out, kViewAnswer);
  EXPECT_EQ(csv(kViewQuery), kViewAnswer);
  auto meta = nlohmann::json::parse(read_file(dir + "/view.json"));
  ASSERT_TRUE(meta.contains("view_checksum"));
  std::vector<std::string> files;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().filename() != "view.json") files.push_back(e.path().filename().string());
  ASSERT_GE(files.size(), 4u);  // filter codes, group ids and tuples, an input; dictionaries of VARCHAR domains
  int tried = 0, detected = 0;
  for (const std::string& f : files) {
    ASSERT_TRUE(meta["checksums"].contains(f)) << f;
    const std::string path = dir + "/" + f, good = read_file(path);
    if (good.empty()) continue;
    for (size_t at : {size_t(0), good.size() - 1}) {
      std::string bad = good;
      bad[at] ^= 0x10;
      write_file(path, bad);
      const std::string want = "rt view: " + path + " is corrupted: its checksum does not match view.json";
      const bool by_check = errors_with(check(), "rt view rv1: " + want);
      const bool by_query = errors_with(via_view(), want);
      EXPECT_TRUE(by_check) << f << " byte " << at;
      EXPECT_TRUE(by_query) << f << " byte " << at;
      tried++;
      detected += by_check && by_query;
    }
    write_file(path, good);
  }
  EXPECT_GE(tried, 8);
  std::printf("rt view files: %d corruptions tried, %d detected by raydb check and by the query\n", tried, detected);
  EXPECT_EQ(via_view().out, kViewAnswer);
  EXPECT_EQ(check().exit_code, 0);
}

}  // namespace
}  // namespace raydb::test
