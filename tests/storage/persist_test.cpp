// DatabaseDirectory: round trips through files and mmap, manifest validation,
// atomic replace/drop, leftovers, locking.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include "storage/persist/database_directory.h"
#include "storage/persist/manifest.h"
#include "storage/persist/file_io.h"
#include "storage_test_util.h"

namespace raydb::test {
namespace {

namespace fs = std::filesystem;

// A table with every storable type and boundary values in each.
TablePtr every_type_table(const std::string& name = "every_type") {
  ColumnBuilder i("i", Type::integer()), b("b", Type::bigint()), d("d", Type::float64()),
      dec("dec", Type::decimal(18, 2)), dec0("dec0", Type::decimal(18, 0)), dt("dt", Type::date()),
      s("s", Type::varchar());
  const int32_t ints[] = {0, 1, -1, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), 42, 7, 8};
  const int64_t bigs[] = {0, -1, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 1LL << 53,
                          -(1LL << 40), 3, 4};
  const double dbls[] = {-0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(),
                         std::numeric_limits<double>::lowest(), 0.1, 1e-300};
  const int64_t decs[] = {999999999999999999LL, -999999999999999999LL, 0, 1, -1, 1250, 5, 6};
  const int32_t dates[] = {days_from_civil(1, 1, 1), days_from_civil(9999, 12, 31), 0, -1, days_from_civil(2024, 2, 29),
                           days_from_civil(1992, 1, 1), 10, 11};
  const std::string strs[] = {"", "h\xC3\xA9llo", "\xE6\x97\xA5\xE6\x9C\xAC", "\xF0\x9F\x98\x80 emoji",
                              std::string("nul\0byte", 8), "comma, \"quote\"\nnewline", "", "zzz"};
  for (int r = 0; r < 8; r++) {
    i.append_int(ints[r]);
    b.append_int(bigs[r]);
    d.append_double(dbls[r]);
    dec.append_int(decs[r]);
    dec0.append_int(decs[r]);
    dt.append_int(dates[r]);
    s.append_string(strs[r]);
  }
  return std::make_shared<const Table>(
      name, std::vector<ColumnPtr>{i.finish(), b.finish(), d.finish(), dec.finish(), dec0.finish(), dt.finish(),
                                   s.finish()});
}

TablePtr int_table(const std::string& name, std::vector<int32_t> values, const std::string& column = "x") {
  return std::make_shared<const Table>(name, std::vector<ColumnPtr>{make_column(column, Type::integer(), values)});
}

TablePtr string_table(const std::string& name, const std::vector<std::string>& values) {
  ColumnBuilder s("s", Type::varchar());
  for (auto& v : values) s.append_string(v);
  return std::make_shared<const Table>(name, std::vector<ColumnPtr>{s.finish()});
}

nlohmann::json read_manifest_json(const std::string& dir) {
  return nlohmann::json::parse(read_file(dir + "/manifest.json"));
}

// Writes an edited manifest with its checksum recomputed, so the checks behind the
// checksum are what the tests reach.
void write_manifest_json(const std::string& dir, const nlohmann::json& j) {
  write_file(dir + "/manifest.json", persist::Manifest::reseal(j.dump()));
}

// The manifest's checksums follow their documented definition (storage/persist/
// checksum.h), recomputed here from the file bytes with xxHash directly: XXH3-64 of the
// little-endian XXH3-64 values of 1 MiB blocks. 300,000 rows span two blocks.
TEST(PersistTest, ChecksumsFollowTheirDefinition) {
  TempDir tmp;
  auto db = DatabaseDirectory::open_or_create(tmp.file("db"));
  std::vector<int32_t> values(300000);
  for (size_t i = 0; i < values.size(); i++) values[i] = int32_t(i * 2654435761u);
  db->commit({int_table("t", values), string_table("s", {"b", "a", "b"})}, false);
  auto m = read_manifest_json(tmp.file("db"));
  auto expected = [](const std::string& bytes) {
    std::vector<uint64_t> blocks;
    for (size_t at = 0; at < bytes.size(); at += size_t(1) << 20)
      blocks.push_back(XXH3_64bits(bytes.data() + at, std::min(bytes.size() - at, size_t(1) << 20)));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)XXH3_64bits(blocks.data(), blocks.size() * 8));
    return std::string(hex);
  };
  const auto& col = m["tables"][0]["columns"][0];
  EXPECT_EQ(col["checksum"], expected(read_file(tmp.file("db/") + col["file"].get<std::string>())));
  const auto& dict = m["tables"][1]["columns"][0]["dictionary"];
  EXPECT_EQ(dict["checksum"], expected(read_file(tmp.file("db/") + dict["file"].get<std::string>())));
  // The manifest's own: its text with the value read as 16 zeros.
  std::string text = read_file(tmp.file("db/manifest.json"));
  const std::string sum = m["manifest_checksum"];
  ASSERT_NE(text.find(sum), std::string::npos);
  text.replace(text.find(sum), 16, std::string(16, '0'));
  EXPECT_EQ(sum, expected(text));
  EXPECT_EQ(m["tables"][0]["columns"][0]["stats"]["max"], *std::max_element(values.begin(), values.end()));
}

TEST(PersistTest, RoundTripEveryTypeThroughMmap) {
  TempDir tmp;
  std::string path = tmp.file("db");
  auto original = every_type_table();
  {
    auto db = DatabaseDirectory::open_or_create(path);
    db->commit({original}, false);
    // The object that committed serves the table from the files as well.
    expect_tables_equal(*original, *db->table("every_type"));
  }
  auto db = DatabaseDirectory::open(path);
  ASSERT_EQ(db->table_names(), std::vector<std::string>{"every_type"});
  TablePtr t = db->table("every_type");
  ASSERT_TRUE(t);
  expect_tables_equal(*original, *t);
  for (auto& c : t->columns()) EXPECT_TRUE(c->buffer()->is_mapped()) << c->name();
  // Spot checks against values written above (not only against the original object).
  EXPECT_EQ(t->column(0).get(3).as_int(), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(t->column(1).get(3).as_int(), std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(std::signbit(t->column(2).get(0).as_double()));
  EXPECT_EQ(t->column(3).get(0).to_string(), "9999999999999999.99");
  EXPECT_EQ(t->column(5).get(0).to_string(), "0001-01-01");
  EXPECT_EQ(t->column(5).get(1).to_string(), "9999-12-31");
  EXPECT_EQ(t->column(6).get(4).as_string(), std::string("nul\0byte", 8));
  EXPECT_EQ(t->column(6).get(0).as_string(), "");
  EXPECT_EQ(t->column(6).get(2).as_string(), "\xE6\x97\xA5\xE6\x9C\xAC");
}

TEST(PersistTest, StatsSurviveReopenAndMatchData) {
  TempDir tmp;
  auto db = DatabaseDirectory::open_or_create(tmp.path());
  db->commit({int_table("t", {5, -3, 17, 2})}, false);
  auto t = DatabaseDirectory::open(tmp.path())->table("t");
  EXPECT_EQ(t->column(0).stats().min, -3);
  EXPECT_EQ(t->column(0).stats().max, 17);
  auto j = read_manifest_json(tmp.path());
  EXPECT_EQ(j["tables"][0]["columns"][0]["stats"]["min"].get<int64_t>(), -3);
  EXPECT_EQ(j["tables"][0]["columns"][0]["stats"]["max"].get<int64_t>(), 17);
}

TEST(PersistTest, ManifestTypeStringsRoundTrip) {
  TempDir tmp;
  auto original = every_type_table();
  DatabaseDirectory::open_or_create(tmp.path())->commit({original}, false);
  auto j = read_manifest_json(tmp.path());
  EXPECT_EQ(j["format_version"].get<int>(), 1);
  auto& cols = j["tables"][0]["columns"];
  ASSERT_EQ(cols.size(), original->column_count());
  for (size_t c = 0; c < cols.size(); c++) {
    Type parsed = Type::parse(cols[c]["type"].get<std::string>());
    EXPECT_TRUE(parsed == original->column(c).type()) << cols[c]["type"];
    EXPECT_EQ(cols[c]["bytes"].get<uint64_t>(), 8u * uint64_t(original->column(c).type().physical_width()));
    EXPECT_EQ(fs::file_size(tmp.file(cols[c]["file"].get<std::string>())), cols[c]["bytes"].get<uint64_t>());
  }
  EXPECT_EQ(cols[3]["type"].get<std::string>(), "DECIMAL(18,2)");
  EXPECT_EQ(cols[6]["dictionary"]["entries"].get<uint64_t>(), 7u);  // 8 strings, "" twice
}

TEST(PersistTest, EmptyTablesRoundTrip) {
  TempDir tmp;
  ColumnBuilder s("s", Type::varchar()), i("i", Type::integer()), d("d", Type::float64());
  auto empty = std::make_shared<const Table>("empty", std::vector<ColumnPtr>{s.finish(), i.finish(), d.finish()});
  DatabaseDirectory::open_or_create(tmp.path())->commit({empty}, false);
  auto t = DatabaseDirectory::open(tmp.path())->table("empty");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->row_count(), 0u);
  EXPECT_EQ(t->column_count(), 3u);
  EXPECT_EQ(t->column(0).dictionary()->size(), 0u);
  EXPECT_TRUE(t->column(2).type() == Type::float64());
}

TEST(PersistTest, LargeColumnRoundTrip) {
  TempDir tmp;
  std::vector<int64_t> v(1 << 20);
  for (size_t k = 0; k < v.size(); k++) v[k] = int64_t(k * 2654435761u) - (1LL << 40);
  auto t = std::make_shared<const Table>("big", std::vector<ColumnPtr>{make_column("v", Type::bigint(), v)});
  DatabaseDirectory::open_or_create(tmp.path())->commit({t}, false);
  auto r = DatabaseDirectory::open(tmp.path())->table("big");
  ASSERT_EQ(r->row_count(), v.size());
  EXPECT_EQ(std::memcmp(r->column(0).data<int64_t>(), v.data(), v.size() * 8), 0);
  EXPECT_EQ(r->column(0).stats().min, *std::min_element(v.begin(), v.end()));
  EXPECT_EQ(r->column(0).stats().max, *std::max_element(v.begin(), v.end()));
}

TEST(PersistTest, TableNamesAreCaseInsensitiveAndKeptAsGiven) {
  TempDir tmp;
  auto db = DatabaseDirectory::open_or_create(tmp.path());
  db->commit({int_table("LineOrder", {1, 2})}, false);
  ASSERT_TRUE(db->table("lineorder"));
  EXPECT_EQ(db->table("LINEORDER")->name(), "LineOrder");
  auto before = snapshot_dir(tmp.path());
  expect_error([&] { db->commit({int_table("lineORDER", {3})}, false); }, ErrorKind::kCatalog,
               {"LineOrder", "already exists", tmp.path()});
  EXPECT_EQ(snapshot_dir(tmp.path()), before);
  db->commit({int_table("LINEORDER", {3})}, true);
  EXPECT_EQ(db->table_names(), std::vector<std::string>{"LINEORDER"});
  EXPECT_EQ(DatabaseDirectory::open(tmp.path())->table("lineorder")->row_count(), 1u);
}

TEST(PersistTest, TableNamesAreSorted) {
  TempDir tmp;
  auto db = DatabaseDirectory::open_or_create(tmp.path());
  db->commit({int_table("b", {1}), int_table("C", {1}), int_table("a", {1})}, false);
  EXPECT_EQ(db->table_names(), (std::vector<std::string>{"a", "b", "C"}));
}

// Every file in the directory is the manifest or named by it.
void expect_only_referenced_files(const std::string& dir) {
  auto j = read_manifest_json(dir);
  std::set<std::string> named{"manifest.json"};
  for (auto& t : j["tables"])
    for (auto& c : t["columns"]) {
      named.insert(c["file"].get<std::string>());
      if (c.contains("dictionary")) named.insert(c["dictionary"]["file"].get<std::string>());
      if (c.contains("narrowed")) named.insert(c["narrowed"]["file"].get<std::string>());
      if (c.contains("zonemap")) named.insert(c["zonemap"]["file"].get<std::string>());
    }
  std::set<std::string> present;
  for (auto& e : fs::directory_iterator(dir)) present.insert(e.path().filename().string());
  EXPECT_EQ(present, named);
}

TEST(PersistTest, ReplaceWritesNewFilesAndRemovesOldOnes) {
  TempDir tmp;
  auto db = DatabaseDirectory::open_or_create(tmp.path());
  db->commit({int_table("t", {1, 2, 3}), string_table("keep", {"a", "b"})}, false);
  auto old_manifest = read_manifest_json(tmp.path());
  auto& old_files = old_manifest["tables"];
  std::string old_t_file;
  for (auto& t : old_files)
    if (t["name"] == "t") old_t_file = t["columns"][0]["file"];
  auto keep_before = db->table("keep");
  TablePtr old_t = db->table("t");
  db->commit({int_table("t", {9})}, true);
  // The old generation's file is gone, the replaced table has new contents, the
  // other table is untouched, and a reader holding the old table still sees it.
  EXPECT_FALSE(fs::exists(tmp.file(old_t_file)));
  expect_only_referenced_files(tmp.path());
  auto re = DatabaseDirectory::open(tmp.path());
  EXPECT_EQ(re->table("t")->row_count(), 1u);
  EXPECT_EQ(re->table("t")->column(0).get(0).as_int(), 9);
  expect_tables_equal(*keep_before, *re->table("keep"));
  EXPECT_EQ(old_t->row_count(), 3u);
  EXPECT_EQ(old_t->column(0).get(2).as_int(), 3);  // still mapped after unlink
}

TEST(PersistTest, DropTable) {
  TempDir tmp;
  auto db = DatabaseDirectory::open_or_create(tmp.path());
  db->commit({int_table("a", {1}), string_table("b", {"x"})}, false);
  db->drop_table("B");
  EXPECT_EQ(db->table_names(), std::vector<std::string>{"a"});
  EXPECT_FALSE(db->table("b"));
  expect_only_referenced_files(tmp.path());
  EXPECT_EQ(DatabaseDirectory::open(tmp.path())->table_names(), std::vector<std::string>{"a"});
  auto before = snapshot_dir(tmp.path());
  expect_error([&] { db->drop_table("b"); }, ErrorKind::kCatalog, {"b", "does not exist", tmp.path()});
  EXPECT_EQ(snapshot_dir(tmp.path()), before);
}

TEST(PersistTest, GenerationGrowsWithEveryChange) {
  TempDir tmp;
  auto db = DatabaseDirectory::open_or_create(tmp.path());
  uint64_t g0 = read_manifest_json(tmp.path())["generation"];
  db->commit({int_table("a", {1})}, false);
  uint64_t g1 = read_manifest_json(tmp.path())["generation"];
  db->drop_table("a");
  uint64_t g2 = read_manifest_json(tmp.path())["generation"];
  EXPECT_LT(g0, g1);
  EXPECT_LT(g1, g2);
}

TEST(PersistTest, OddNamesStayInsideTheDirectory) {
  TempDir tmp;
  std::string db_path = tmp.file("db");
  auto db = DatabaseDirectory::open_or_create(db_path);
  std::vector<std::string> names = {"../escape", "a/b c", "\xC3\xBC" "ber", ".", "x.y"};
  std::vector<TablePtr> tables;
  for (auto& n : names) tables.push_back(int_table(n, {1, 2}, "../../col/" + n));
  db->commit(tables, false);
  auto re = DatabaseDirectory::open(db_path);
  for (auto& n : names) {
    ASSERT_TRUE(re->table(n)) << n;
    EXPECT_EQ(re->table(n)->name(), n);
    EXPECT_EQ(re->table(n)->column(0).name(), "../../col/" + n);
  }
  // Nothing was created outside the database, and no subdirectories inside it.
  std::set<std::string> outside;
  for (auto& e : fs::directory_iterator(tmp.path())) outside.insert(e.path().filename().string());
  EXPECT_EQ(outside, std::set<std::string>{"db"});
  for (auto& e : fs::directory_iterator(db_path)) EXPECT_TRUE(e.is_regular_file()) << e.path();
  expect_only_referenced_files(db_path);
}

TEST(PersistTest, OpenErrorsNameThePath) {
  TempDir tmp;
  expect_error([&] { DatabaseDirectory::open(tmp.file("missing")); }, ErrorKind::kCatalog,
               {tmp.file("missing"), "does not exist"});
  write_file(tmp.file("plain"), "x");
  expect_error([&] { DatabaseDirectory::open(tmp.file("plain")); }, ErrorKind::kCatalog,
               {tmp.file("plain"), "not a directory"});
  fs::create_directory(tmp.file("empty"));
  expect_error([&] { DatabaseDirectory::open(tmp.file("empty")); }, ErrorKind::kCatalog,
               {tmp.file("empty"), "not a raydb database"});
  EXPECT_TRUE(fs::is_empty(tmp.file("empty")));  // open never creates
}

// Builds a small database, lets `damage` change it, then expects open() to fail with
// `parts` in a one-line message and to leave the directory as damaged.
template <typename Damage>
void expect_open_fails(Damage damage, std::initializer_list<std::string> parts) {
  TempDir tmp;
  std::string path = tmp.file("db");
  DatabaseDirectory::open_or_create(path)->commit({int_table("t", {1, 2, 3}), string_table("s", {"a", "bb"})}, false);
  damage(path);
  auto before = snapshot_dir(path);
  expect_error([&] { DatabaseDirectory::open(path); }, ErrorKind::kCatalog, parts);
  EXPECT_EQ(snapshot_dir(path), before);
}

std::string column_file(const std::string& db, const std::string& table, int col = 0) {
  auto j = read_manifest_json(db);  // kept alive: a range-for over a temporary's member dangles
  for (auto& t : j["tables"])
    if (t["name"] == table) return db + "/" + t["columns"][col]["file"].get<std::string>();
  return "";
}
std::string dict_file(const std::string& db, const std::string& table) {
  auto j = read_manifest_json(db);
  for (auto& t : j["tables"])
    if (t["name"] == table) return db + "/" + t["columns"][0]["dictionary"]["file"].get<std::string>();
  return "";
}

TEST(PersistTest, CorruptedManifests) {
  expect_open_fails([](const std::string& p) { write_file(p + "/manifest.json", "{\"format_version\": 1, \"tab"); },
                    {"corrupted manifest", "manifest.json", "invalid JSON"});
  expect_open_fails([](const std::string& p) { write_file(p + "/manifest.json", ""); },
                    {"corrupted manifest", "invalid JSON"});
  expect_open_fails([](const std::string& p) { write_file(p + "/manifest.json", "[1,2]"); },
                    {"corrupted manifest", "not an object"});
  expect_open_fails(
      [](const std::string& p) {
        auto j = read_manifest_json(p);
        j["format_version"] = 6;
        write_manifest_json(p, j);
      },
      {"manifest.json", "unknown format version 6"});
  expect_open_fails(
      [](const std::string& p) {
        auto j = read_manifest_json(p);
        j.erase("format_version");
        write_manifest_json(p, j);
      },
      {"manifest.json", "format_version"});
  expect_open_fails(
      [](const std::string& p) {
        auto j = read_manifest_json(p);
        j["tables"][0].erase("rows");
        write_manifest_json(p, j);
      },
      {"manifest.json", "tables[0]", "rows"});
  expect_open_fails(
      [](const std::string& p) {
        auto j = read_manifest_json(p);
        j["tables"][0]["rows"] = "three";
        write_manifest_json(p, j);
      },
      {"manifest.json", "rows", "not a non-negative integer"});
  expect_open_fails(
      [](const std::string& p) {
        auto j = read_manifest_json(p);
        j["tables"][0]["columns"][0]["type"] = "BLOB";
        write_manifest_json(p, j);
      },
      {"manifest.json", "BLOB", "not a known type"});
  expect_open_fails(
      [](const std::string& p) {
        auto j = read_manifest_json(p);
        j["tables"][0]["columns"][0]["type"] = 5;
        write_manifest_json(p, j);
      },
      {"manifest.json", "type", "not a string"});
  expect_open_fails(
      [](const std::string& p) {
        auto j = read_manifest_json(p);
        j["tables"][0]["columns"][0]["file"] = "../../etc/passwd";
        write_manifest_json(p, j);
      },
      {"manifest.json", "not a plain file name"});
  expect_open_fails(
      [](const std::string& p) {
        auto j = read_manifest_json(p);
        j["tables"][0]["rows"] = 4;  // bytes no longer match rows
        write_manifest_json(p, j);
      },
      {"manifest.json", "bytes"});
  expect_open_fails(
      [](const std::string& p) {
        auto j = read_manifest_json(p);
        j["tables"][1]["name"] = j["tables"][0]["name"].get<std::string>() == "t" ? "T" : "S";
        write_manifest_json(p, j);
      },
      {"manifest.json", "appears twice"});
}

TEST(PersistTest, MissingOrTruncatedDataFiles) {
  expect_open_fails([](const std::string& p) { fs::remove(column_file(p, "t")); }, {"missing column file", "t.x"});
  expect_open_fails([](const std::string& p) { fs::resize_file(column_file(p, "t"), 8); },
                    {"column file", "has 8 bytes", "12"});
  expect_open_fails([](const std::string& p) { fs::remove(dict_file(p, "s")); }, {"missing dictionary file", "s.s"});
  expect_open_fails([](const std::string& p) { fs::resize_file(dict_file(p, "s"), 5); },
                    {"dictionary file", "has 5 bytes"});
}

// A dictionary's content is read and checked when first used, not at open
// (storage/lazy_dictionary.h): the open succeeds, the other table reads, and every use
// of the damaged dictionary (again and again) is the one-line error the open gave.
template <typename Damage>
void expect_first_use_fails(Damage damage, std::initializer_list<std::string> parts) {
  TempDir tmp;
  std::string path = tmp.file("db");
  DatabaseDirectory::open_or_create(path)->commit({int_table("t", {1, 2, 3}), string_table("s", {"a", "bb"})}, false);
  damage(path);
  auto before = snapshot_dir(path);
  auto db = DatabaseDirectory::open(path);
  EXPECT_EQ(db->table("t")->column(0).get_int(2), 3);
  const Column& s = db->table("s")->column(0);
  for (int i = 0; i < 2; i++) {
    expect_error([&] { s.dictionary(); }, ErrorKind::kCatalog, parts);
    expect_error([&] { s.get(0); }, ErrorKind::kCatalog, parts);
  }
  EXPECT_EQ(snapshot_dir(path), before);
}

TEST(PersistTest, DamagedDictionaryFailsAtFirstUse) {
  // Same size, but the two entries swapped: no longer sorted.
  expect_first_use_fails(
      [](const std::string& p) {
        std::string f = dict_file(p, "s");
        std::string d = read_file(f);
        ASSERT_EQ(d.substr(24), "abb");
        uint64_t offs[3] = {0, 2, 3};
        std::memcpy(d.data(), offs, 24);
        d.replace(24, 3, "bba");
        write_file(f, d);
      },
      {"dictionary file", "s.s", "not in order"});
  // A flipped byte (still sorted): the checksum.
  expect_first_use_fails(
      [](const std::string& p) {
        std::string f = dict_file(p, "s");
        std::string d = read_file(f);
        d[24] = '0';
        write_file(f, d);
      },
      {"dictionary file", "s.s", "is corrupted: its checksum does not match the manifest's"});
  // Replaced by a file of the same size after the open: still caught, at first use.
  TempDir tmp;
  std::string path = tmp.file("db");
  DatabaseDirectory::open_or_create(path)->commit({string_table("s", {"a", "bb"})}, false);
  auto db = DatabaseDirectory::open(path);
  std::string f = dict_file(path, "s");
  std::string d = read_file(f);
  d[25] = 'c';  // "abb" -> "acb": still sorted, another string
  write_file(f, d);
  expect_error([&] { db->table("s")->column(0).dictionary(); }, ErrorKind::kCatalog,
               {"dictionary file", "s.s", "checksum does not match"});
}

// Lazy loading changes when a dictionary is read, never what it holds: the reopened
// table decodes every value as written, from any thread first.
TEST(PersistTest, LazyDictionaryAnswersAsWritten) {
  TempDir tmp;
  std::vector<std::string> values;
  for (int i = 0; i < 5000; i++) values.push_back("v" + std::to_string((i * 7919) % 3001));
  DatabaseDirectory::open_or_create(tmp.path())->commit({string_table("s", values)}, false);
  auto t = DatabaseDirectory::open(tmp.path())->table("s");
  const Column& c = t->column(0);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int k = 0; k < 4; k++)
    threads.emplace_back([&, k] {
      for (size_t i = size_t(k); i < values.size(); i += 4)
        if (c.get(i).as_string() != values[i]) wrong++;
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(c.dictionary()->size(), 3001u);
  EXPECT_EQ(c.dictionary(), c.dictionary_ptr().get());
}

// A dictionary large enough for the parallel order check names the first pair out of
// order, as the sequential check does.
TEST(PersistTest, LargeDictionaryOutOfOrderNamesTheEntries) {
  TempDir tmp;
  const std::string path = tmp.file("db");
  std::vector<std::string> keys;
  for (int i = 0; i < 100'000; i++) keys.push_back(fmt::format("k{:06d}", i));
  DatabaseDirectory::open_or_create(path)->commit({string_table("s", keys)}, false);
  const std::string f = dict_file(path, "s");
  std::string d = read_file(f);
  const size_t chars = 8 * (keys.size() + 1);
  ASSERT_EQ(d.substr(chars + 7 * 70'000, 14), "k070000k070001");
  d.replace(chars + 7 * 70'000, 14, "k070001k070000");  // same lengths, so the offsets still hold
  write_file(f, d);
  // Dictionaries are read when first used (storage/lazy_dictionary): the open succeeds.
  auto db = DatabaseDirectory::open(path);
  expect_error([&] { db->table("s")->column(0).dictionary(); }, ErrorKind::kCatalog,
               {"dictionary file", "not in order", "entries 70000 and 70001"});
}

TEST(PersistTest, OpenOrCreate) {
  TempDir tmp;
  // Missing path: created, with parents.
  auto db = DatabaseDirectory::open_or_create(tmp.file("a/b"));
  EXPECT_TRUE(db->table_names().empty());
  EXPECT_TRUE(fs::exists(tmp.file("a/b/manifest.json")));
  // Existing empty directory: becomes a database.
  fs::create_directory(tmp.file("empty"));
  DatabaseDirectory::open_or_create(tmp.file("empty"));
  EXPECT_TRUE(fs::exists(tmp.file("empty/manifest.json")));
  // Existing database: opened, content kept.
  db->commit({int_table("t", {1})}, false);
  EXPECT_EQ(DatabaseDirectory::open_or_create(tmp.file("a/b"))->table("t")->row_count(), 1u);
  // Non-empty directory that is not a database: refused, untouched.
  fs::create_directory(tmp.file("other"));
  write_file(tmp.file("other/notes.txt"), "mine");
  auto before = snapshot_dir(tmp.file("other"));
  expect_error([&] { DatabaseDirectory::open_or_create(tmp.file("other")); }, ErrorKind::kCatalog,
               {tmp.file("other"), "not a raydb database"});
  expect_error([&] { DatabaseDirectory::check_creatable(tmp.file("other")); }, ErrorKind::kCatalog,
               {tmp.file("other")});
  EXPECT_EQ(snapshot_dir(tmp.file("other")), before);
  // A directory with only the leftover of a creation that was killed before its
  // manifest was renamed into place: taken over, the leftover removed.
  fs::create_directory(tmp.file("half"));
  write_file(tmp.file("half/manifest.json.tmp"), "{\"format_");
  DatabaseDirectory::open_or_create(tmp.file("half"));
  EXPECT_FALSE(fs::exists(tmp.file("half/manifest.json.tmp")));
  EXPECT_TRUE(fs::exists(tmp.file("half/manifest.json")));
  // A file in the way.
  write_file(tmp.file("file"), "x");
  expect_error([&] { DatabaseDirectory::open_or_create(tmp.file("file")); }, ErrorKind::kCatalog,
               {tmp.file("file"), "not a directory"});
}

TEST(PersistTest, LeftoversOfInterruptedWritesAreRemoved) {
  TempDir tmp;
  auto db = DatabaseDirectory::open_or_create(tmp.path());
  db->commit({int_table("t", {1})}, false);
  auto clean = snapshot_dir(tmp.path());
  // What a killed commit leaves: data files of a generation no manifest names, and a
  // half-written temporary manifest. A file of the user's is never touched.
  write_file(tmp.file("g99.t0.t.c0.x.col"), "junk");
  write_file(tmp.file("g99.t0.s.c0.s.dict"), "junk");
  write_file(tmp.file("manifest.json.tmp"), "{");
  DatabaseDirectory::open(tmp.path());
  EXPECT_EQ(snapshot_dir(tmp.path()), clean);
  write_file(tmp.file("g100.t0.t.c0.x.col"), "junk");
  write_file(tmp.file("notes.txt"), "mine");
  db->commit({int_table("u", {2})}, false);
  EXPECT_FALSE(fs::exists(tmp.file("g100.t0.t.c0.x.col")));
  EXPECT_EQ(read_file(tmp.file("notes.txt")), "mine");
}

TEST(PersistTest, CommitRereadsTheManifestWrittenByAnotherHandle) {
  TempDir tmp;
  auto a = DatabaseDirectory::open_or_create(tmp.path());
  auto b = DatabaseDirectory::open(tmp.path());
  a->commit({int_table("from_a", {1})}, false);
  b->commit({int_table("from_b", {2})}, false);  // b has not seen from_a, must keep it
  EXPECT_EQ(DatabaseDirectory::open(tmp.path())->table_names(), (std::vector<std::string>{"from_a", "from_b"}));
  EXPECT_TRUE(b->table("from_a"));
  // And b refuses to overwrite a's table without replace.
  expect_error([&] { b->commit({int_table("FROM_A", {3})}, false); }, ErrorKind::kCatalog, {"already exists"});
}

TEST(PersistTest, WritersWaitForTheDirectoryLock) {
  TempDir tmp;
  auto db = DatabaseDirectory::open_or_create(tmp.path());
  std::atomic<bool> done{false};
  std::thread writer;
  {
    persist::DirectoryLock held(tmp.path(), persist::DirectoryLock::Mode::kExclusive);
    writer = std::thread([&] {
      db->commit({int_table("t", {1})}, false);
      done = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_FALSE(done.load());
    for (auto& e : fs::directory_iterator(tmp.path())) EXPECT_EQ(e.path().filename(), "manifest.json");
    EXPECT_TRUE(read_manifest_json(tmp.path())["tables"].empty());
  }
  writer.join();
  EXPECT_TRUE(done.load());
  EXPECT_EQ(DatabaseDirectory::open(tmp.path())->table_names(), std::vector<std::string>{"t"});
}

TEST(PersistTest, ReadersWaitForAWriterToFinish) {
  TempDir tmp;
  DatabaseDirectory::open_or_create(tmp.path())->commit({int_table("t", {1})}, false);
  std::atomic<bool> opened{false};
  std::thread reader;
  {
    persist::DirectoryLock held(tmp.path(), persist::DirectoryLock::Mode::kExclusive);
    reader = std::thread([&] {
      DatabaseDirectory::open(tmp.path());
      opened = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_FALSE(opened.load());
  }
  reader.join();
  EXPECT_TRUE(opened.load());
}

TEST(PersistTest, ConcurrentCommitsFromThreadsAllLand) {
  TempDir tmp;
  DatabaseDirectory::open_or_create(tmp.path());
  std::vector<std::thread> threads;
  for (int k = 0; k < 6; k++)
    threads.emplace_back([&, k] {
      auto db = DatabaseDirectory::open(tmp.path());
      db->commit({int_table("t" + std::to_string(k), std::vector<int32_t>(1000 + k, k))}, false);
    });
  for (auto& t : threads) t.join();
  auto db = DatabaseDirectory::open(tmp.path());
  ASSERT_EQ(db->table_names().size(), 6u);
  for (int k = 0; k < 6; k++) {
    auto t = db->table("t" + std::to_string(k));
    ASSERT_TRUE(t);
    EXPECT_EQ(t->row_count(), uint64_t(1000 + k));
    EXPECT_EQ(t->column(0).stats().min, k);
  }
  expect_only_referenced_files(tmp.path());
}

TEST(PersistTest, FailedWriteRemovesItsFilesAndKeepsTheManifest) {
  TempDir tmp;
  auto db = DatabaseDirectory::open_or_create(tmp.path());
  db->commit({int_table("keep", {1, 2})}, false);
  uint64_t gen = read_manifest_json(tmp.path())["generation"];
  // A directory where the next commit wants to write its second column file makes
  // that write fail (even for root); the first column's file must not stay behind.
  std::string blocker = tmp.file("g" + std::to_string(gen + 1) + ".t0.t.c1.y.col");
  fs::create_directory(blocker);
  auto before = snapshot_dir(tmp.path());
  auto t = std::make_shared<const Table>(
      "t", std::vector<ColumnPtr>{make_column("x", Type::integer(), std::vector<int32_t>{1}),
                                  make_column("y", Type::integer(), std::vector<int32_t>{2})});
  expect_error([&] { db->commit({t}, false); }, ErrorKind::kIO, {blocker});
  EXPECT_EQ(snapshot_dir(tmp.path()), before);
  EXPECT_EQ(db->table_names(), std::vector<std::string>{"keep"});
  fs::remove(blocker);
  db->commit({t}, false);
  EXPECT_EQ(DatabaseDirectory::open(tmp.path())->table("t")->column(1).get(0).as_int(), 2);
}

TEST(PersistTest, CommitRejectsDuplicateNamesBeforeWriting) {
  TempDir tmp;
  auto db = DatabaseDirectory::open_or_create(tmp.path());
  auto before = snapshot_dir(tmp.path());
  expect_error([&] { db->commit({int_table("x", {1}), int_table("X", {2})}, true); }, ErrorKind::kInvalidInput,
               {"twice"});
  EXPECT_EQ(snapshot_dir(tmp.path()), before);
}

}  // namespace
}  // namespace raydb::test

namespace raydb::test {
namespace {

// Format version 2: index definitions in the manifest, validated like the rest.
TEST(PersistTest, IndexDefinitionsInManifest) {
  TempDir tmp;
  const std::string p = tmp.file("db");
  auto dir = DatabaseDirectory::open_or_create(p);
  dir->commit({int_table("t", {3, 1, 2})}, false);
  dir->create_index(IndexDefinition{"i", "T", "X", "rt", {{"bucket_size", "4"}}, {}});
  EXPECT_EQ(read_manifest_json(p)["format_version"].get<int>(), 2);
  auto again = DatabaseDirectory::open(p);
  ASSERT_EQ(again->indexes().size(), 1u);
  EXPECT_EQ(again->indexes()[0].table, "t");
  EXPECT_EQ(again->indexes()[0].column, "x");
  EXPECT_EQ(again->indexes()[0].options[0].second, "4");
  auto corrupt = [&](auto edit, const char* what) {
    auto j = read_manifest_json(p);
    auto saved = j;
    edit(j);
    write_manifest_json(p, j);
    try {
      DatabaseDirectory::open(p);
      ADD_FAILURE() << what << ": opened";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
    write_manifest_json(p, saved);
  };
  corrupt([](auto& j) { j["indexes"][0]["table"] = "nope"; }, "names table 'nope'");
  corrupt([](auto& j) { j["indexes"][0]["column"] = "nope"; }, "names column 'nope'");
  corrupt([](auto& j) { j["indexes"][0]["kind"] = "btree"; }, "is not rt, sorted, hash or rtscan");
  // Multi-column (rtscan) entries: "columns" starts with "column", names existing
  // columns, and only rtscan has several.
  corrupt([](auto& j) { j["indexes"][0]["columns"] = {"y", "x"}; }, "does not start with its \"column\"");
  corrupt([](auto& j) { j["indexes"][0]["kind"] = "rtscan"; j["indexes"][0]["columns"] = {"x", "nope"}; },
          "names column 'nope'");
  corrupt([](auto& j) { j["indexes"][0]["columns"] = {"x", "x"}; }, "which only rtscan indexes take");
  corrupt([](auto& j) { j["indexes"].push_back(j["indexes"][0]); }, "index 'i' appears twice");
  corrupt([](auto& j) { j["format_version"] = 1; }, "format version 1 has no");
  DatabaseDirectory::open(p);
}

}  // namespace
}  // namespace raydb::test
