// The fast load path's storage side: narrowed column files written at load hold the
// column's values (decoded back and compared with the column file's), are checksummed
// and read in chunks with the checksum computed as they pass (a flipped byte is a
// one-line error), databases written before them still open and query, statistics
// come from a checksummed manifest without reading a column, and a query reads each
// column it needs once and no other.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <algorithm>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/stage_times.h"
#include "raydb/raydb.h"
#include "storage/narrow_encoder.h"
#include "storage/persist/checksum.h"
#include "storage/persist/database_check.h"
#include "storage/persist/database_directory.h"
#include "storage/persist/manifest.h"
#include "storage/persist/narrowed_reader.h"
#include "storage_test_util.h"

namespace raydb::test {
namespace {

QueryOptions on(Backend b) {
  QueryOptions o;
  o.backend = b;
  return o;
}

constexpr uint64_t kRows = 300000;  // > 1 MiB of INTEGER: several checksum blocks, dictionary mode allowed

// One column per narrowed form: widths 1, 2, 4 and 8 from the value range, the
// dictionary form (few distinct values over a wide range), negative values, NULLs,
// VARCHAR codes, and a DOUBLE (which has none).
TablePtr forms_table() {
  ColumnBuilder w1("w1", Type::integer()), w2("w2", Type::bigint()), w4("w4", Type::integer()),
      w8("w8", Type::bigint()), dict("dict", Type::date()), neg("neg", Type::decimal(12, 2)),
      nul("nul", Type::integer(), true), s("s", Type::varchar()), d("d", Type::float64());
  uint64_t x = 88172645463325252ull;
  for (uint64_t i = 0; i < kRows; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    w1.append_int(-100 + int64_t(x % 200));
    w2.append_int(int64_t(1) << 40 | int64_t(x % 60000));
    w4.append_int(int64_t(x % 4000000000ull) - 2000000000);  // [-2e9, 2e9): a 4-byte offset
    w8.append_int(i % 2 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min() + int64_t(i));
    dict.append_int(int64_t(x % 2406) * 100 + 8000);  // 2,406 distinct days over 240,501
    neg.append_int(-int64_t(x % 100000000));
    if (i % 7 == 3) nul.append_null();
    else nul.append_int(int64_t(x % 1000) + 5);
    s.append_string("v" + std::to_string(x % 300));
    d.append_double(double(x % 1000) / 8);
  }
  return std::make_shared<const Table>(
      "t", std::vector<ColumnPtr>{w1.finish(), w2.finish(), w4.finish(), w8.finish(), dict.finish(), neg.finish(),
                                  nul.finish(), s.finish(), d.finish()});
}

std::string nar_file(const std::string& dir, const std::string& column) {
  const auto j = nlohmann::json::parse(read_file(dir + "/manifest.json"));  // outlives the loop
  for (auto& c : j["tables"][0]["columns"])
    if (c["name"] == column) return c["narrowed"]["file"];
  return "";
}

// The encoder's dictionary form: each stored code names the row's value in decode(),
// codes ascending with the values; few rows (one thread) and over a million rows (a
// bitmap per thread), BIGINT and INTEGER, a range near the 2^26 limit, and just past
// the 65536 distinct values it allows (offset form then).
TEST(NarrowEncoderForms, DictionaryCodesNameTheirValues) {
  std::mt19937_64 rng(7);
  struct Case {
    uint64_t rows, distinct;
    int64_t span;
    bool wide;
  };
  const Case cases[] = {{118304, 43464, 4000000, false}, {2500000, 60000, (int64_t(1) << 26) - 1, true},
                        {200000, 65537, 3000000, true}, {70000, 3, 1 << 20, false}};
  for (const Case& c : cases) {
    std::vector<int64_t> pool(c.distinct);
    for (auto& v : pool) v = -1000 + int64_t(rng() % uint64_t(c.span));
    pool[0] = -1000, pool[1] = -1000 + c.span - 1;  // both ends of the range
    std::vector<int64_t> v64(c.rows);
    for (uint64_t i = 0; i < c.rows; i++) v64[i] = pool[i < c.distinct ? i : rng() % c.distinct];
    std::vector<int32_t> v32(v64.begin(), v64.end());
    ColumnStats st;
    st.min = *std::min_element(v64.begin(), v64.end());
    st.max = *std::max_element(v64.begin(), v64.end());
    const NarrowEncoder enc(c.wide ? Type::bigint() : Type::integer(),
                            c.wide ? static_cast<const void*>(v64.data()) : static_cast<const void*>(v32.data()), c.rows,
                            st);
    std::vector<int64_t> distinct = v64;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() > 65536) {
      EXPECT_TRUE(enc.decode().empty());
      EXPECT_EQ(enc.width(), 4);
      continue;
    }
    ASSERT_EQ(enc.decode(), distinct);
    ASSERT_EQ(enc.width(), 2);
    std::vector<uint16_t> codes(c.rows);
    const uint64_t half = c.rows / 2;  // two chunks, as the uploads write them
    enc.encode(0, half, codes.data());
    enc.encode(half, c.rows - half, codes.data() + half);
    for (uint64_t i = 0; i < c.rows; i++) ASSERT_EQ(enc.decode()[codes[i]], v64[i]) << "row " << i;
  }
}

TEST(NarrowedFiles, HoldTheColumnsValuesInTheirNarrowestForm) {
  TempDir tmp;
  DatabaseDirectory::open_or_create(tmp.path())->commit({forms_table()}, false);
  auto db = DatabaseDirectory::open(tmp.path());
  TablePtr t = db->table("t");
  const std::pair<const char*, int> widths[] = {{"w1", 1}, {"w2", 2}, {"w4", 4}, {"w8", 8},
                                                {"dict", 2}, {"neg", 4}, {"nul", 2}, {"s", 2}};
  for (auto [name, width] : widths) {
    const Column& c = t->column(size_t(t->find_column(name)));
    ASSERT_NE(c.narrowed(), nullptr) << name;
    const NarrowedFile& f = *c.narrowed();
    EXPECT_EQ(f.width, width) << name;
    EXPECT_EQ(f.distinct > 0, std::string(name) == "dict") << name;
    EXPECT_EQ(f.base, c.stats().min) << name;
    const std::vector<int64_t> values = persist::read_narrowed_values(f);
    ASSERT_EQ(values.size(), kRows);
    for (uint64_t i = 0; i < kRows; i++) ASSERT_EQ(values[i], c.get_int(i)) << name << " row " << i;
    // The same form the encoder chooses from the column itself (the per-process path).
    const NarrowEncoder enc(c.type(), c.buffer()->data(), c.size(), c.stats());
    EXPECT_EQ(enc.width(), f.width) << name;
    EXPECT_EQ(enc.decode().size(), f.distinct) << name;
  }
  EXPECT_EQ(t->column(size_t(t->find_column("d"))).narrowed(), nullptr);
  const persist::CheckReport report = persist::check_database_files(tmp.path());
  EXPECT_TRUE(report.problems.empty()) << report.problems.front();
}

TEST(NarrowedFiles, ChunkedReadsChecksumAsTheyPassAndCatchAFlippedByte) {
  TempDir tmp;
  DatabaseDirectory::open_or_create(tmp.path())->commit({forms_table()}, false);
  {
    auto db = DatabaseDirectory::open(tmp.path());
    const NarrowedFile& f = *db->table("t")->column(2).narrowed();  // w4: 1.2 MB, two blocks
    ASSERT_GT(f.bytes(), persist::kChecksumBlockBytes);
    std::vector<char> buf(persist::kChecksumBlockBytes);
    persist::NarrowedReader reader(f);
    uint64_t chunks = 0;
    while (reader.remaining() > 0) chunks += reader.read(buf.data(), buf.size()) > 0;
    EXPECT_EQ(chunks, 2u);
    EXPECT_NO_THROW(reader.verify());
    EXPECT_THROW(reader.read(buf.data(), 1000), Error);  // reads come in whole blocks
  }
  // One byte of the narrowed file changed on disk, late in the file.
  const std::string path = tmp.file(nar_file(tmp.path(), "w4"));
  ASSERT_TRUE(path.ends_with(".nar")) << path;
  std::string bytes = read_file(path);
  bytes[bytes.size() - 5] = char(bytes[bytes.size() - 5] ^ 0x10);
  write_file(path, bytes);
  auto db = DatabaseDirectory::open(tmp.path());
  try {
    persist::read_narrowed_values(*db->table("t")->column(2).narrowed());
    FAIL() << "a corrupted narrowed file was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCatalog);
    EXPECT_NE(std::string(e.what()).find("is corrupted: its checksum"), std::string::npos) << e.what();
    EXPECT_TRUE(is_one_line(e.what()));
  }
  // raydb check reads everything, the narrowed files included.
  const persist::CheckReport report = persist::check_database_files(tmp.path());
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_NE(report.problems[0].find(".nar"), std::string::npos) << report.problems[0];
  // The column file itself is intact: the CPU backend still answers.
  auto api = Database::open(tmp.path());
  QueryOptions cpu{Backend::kCpu, 0, {}};
  EXPECT_EQ(api->query("select count(*) from t where w4 > 0", cpu).row_count(), 1u);
}

TEST(NarrowedFiles, DatabasesWithoutThemStillOpenAndQuery) {
  TempDir tmp;
  DatabaseDirectory::open_or_create(tmp.path())->commit({forms_table()}, false);
  auto want = Database::open(tmp.path())->query("select sum(w1), min(dict), max(w8), count(nul) from t",
                                                on(Backend::kCpu));
  // As a build before narrowed files wrote it: no "narrowed" entries (the files are
  // then leftovers, removed at the next open).
  auto j = nlohmann::json::parse(read_file(tmp.file("manifest.json")));
  for (auto& c : j["tables"][0]["columns"]) c.erase("narrowed");
  write_file(tmp.file("manifest.json"), persist::Manifest::reseal(j.dump()));
  auto db = DatabaseDirectory::open(tmp.path());
  for (size_t c = 0; c < db->table("t")->column_count(); c++) EXPECT_EQ(db->table("t")->column(c).narrowed(), nullptr);
  for (auto& e : std::filesystem::directory_iterator(tmp.path()))
    EXPECT_NE(e.path().extension(), ".nar") << e.path();
  auto got = Database::open(tmp.path())->query("select sum(w1), min(dict), max(w8), count(nul) from t",
                                               on(Backend::kCpu));
  for (size_t c = 0; c < 4; c++) EXPECT_EQ(got.get(0, c).to_string(), want.get(0, c).to_string());
  EXPECT_TRUE(persist::check_database_files(tmp.path()).problems.empty());
}

TEST(NarrowedFiles, AManifestWithoutItsChecksumIsNotTrusted) {
  TempDir tmp;
  DatabaseDirectory::open_or_create(tmp.path())->commit({forms_table()}, false);
  auto j = nlohmann::json::parse(read_file(tmp.file("manifest.json")));
  j.erase(persist::Manifest::kChecksumKey);
  write_file(tmp.file("manifest.json"), j.dump());
  auto db = DatabaseDirectory::open(tmp.path());
  const Column& c = db->table("t")->column(0);
  EXPECT_EQ(c.narrowed(), nullptr);  // its width and checksum could be anyone's
  StageTimes::instance().reset();
  (void)c.stats();  // verified against the data first
  EXPECT_EQ(StageTimes::instance().snapshot().bytes_of(ByteCount::kColumnFileRead), kRows * 4);
}

TEST(NarrowedFiles, PlanningReadsNoColumnAndAQueryReadsEachNeededColumnOnce) {
  TempDir tmp;
  DatabaseDirectory::open_or_create(tmp.path())->commit({forms_table()}, false);
  auto db = Database::open(tmp.path());
  StageTimes::instance().reset();
  auto dir = DatabaseDirectory::open(tmp.path());
  for (size_t c = 0; c < 8; c++) (void)dir->table("t")->column(c).stats();  // from the manifest
  EXPECT_EQ(StageTimes::instance().snapshot().bytes_of(ByteCount::kColumnFileRead), 0u);
  const std::string sql = "select sum(w2) from t where w1 < 0 and w4 between 0 and 1000000000";
  for (int run = 0; run < 2; run++) {
    StageTimes::instance().reset();
    EXPECT_EQ(db->query(sql, on(Backend::kCpu)).row_count(), 1u);
    const StageTotals s = StageTimes::instance().snapshot();
    // w1 (4 bytes), w2 (8), w4 (4): read once, in the first run only; nothing else.
    EXPECT_EQ(s.bytes_of(ByteCount::kNeeded), kRows * 16);
    EXPECT_EQ(s.bytes_of(ByteCount::kColumnFileRead), run == 0 ? kRows * 16 : 0u) << "run " << run;
  }
}

}  // namespace
}  // namespace raydb::test
