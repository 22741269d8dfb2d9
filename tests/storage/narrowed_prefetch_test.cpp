// The read-ahead of narrowed files (storage/persist/narrowed_prefetch.h,
// prefetch_batch.h), host code the CUDA upload builds on: several threads read and
// hash a file's chunks and the result is the file byte for byte with the chunked
// reader's verdict; a flipped byte, a missing or a truncated file gives the same
// one-line error as the chunked reader, and only when the bytes are asked for (a
// read-ahead never fails a query by itself); a consumer never waits forever for a
// batch that stopped.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <memory>

#include "common/error.h"
#include "common/stage_times.h"
#include "storage/persist/checksum.h"
#include "storage/persist/database_directory.h"
#include "storage/persist/narrowed_prefetch.h"
#include "storage/persist/narrowed_reader.h"
#include "storage/persist/prefetch_batch.h"
#include "storage_test_util.h"

namespace raydb::test {
namespace {

constexpr uint64_t kMiB = persist::kChecksumBlockBytes;

// One INTEGER column of 1.5M rows over a wide range (a 4-byte narrowed file of about
// 5.7 MiB: several chunks, and a last chunk shorter than the others) and a dictionary
// column (decode values after the stored ones).
TablePtr wide_table() {
  ColumnBuilder w("w", Type::integer()), d("d", Type::bigint());
  uint64_t x = 88172645463325252ull;
  for (uint64_t i = 0; i < 1500000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    w.append_int(int64_t(x % 4000000000ull) - 2000000000);
    d.append_int(int64_t(x % 1000) * 1000003);
  }
  return std::make_shared<const Table>("t", std::vector<ColumnPtr>{w.finish(), d.finish()});
}

struct Db {
  TempDir tmp;
  std::shared_ptr<DatabaseDirectory> dir;
  Db() {
    DatabaseDirectory::open_or_create(tmp.path())->commit({wide_table()}, false);
    dir = DatabaseDirectory::open(tmp.path());
  }
  NarrowedFile file(size_t column) const { return *dir->table("t")->column(column).narrowed(); }
};

// The file's bytes as the chunked reader returns them, verified.
std::string read_whole(const NarrowedFile& f) {
  std::string bytes((f.bytes() + kMiB - 1) / kMiB * kMiB, '\0');
  persist::NarrowedReader reader(f);
  while (reader.remaining() > 0) reader.read(bytes.data() + reader.offset(), bytes.size() - reader.offset());
  reader.verify();
  bytes.resize(f.bytes());
  return bytes;
}

// The chunked reader's error for `f`, or "" when it reads it.
std::string reader_error(const NarrowedFile& f) {
  try {
    read_whole(f);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

void flip_byte(const std::string& path, uint64_t at) {
  std::string bytes = read_file(path);
  bytes[at] = char(bytes[at] ^ 0x40);
  write_file(path, bytes);
}

TEST(NarrowedPrefetch, ReadsTheFileOnSeveralThreadsWithTheReadersVerdict) {
  Db db;
  for (size_t column : {0u, 1u}) {
    const NarrowedFile f = db.file(column);
    const std::string want = read_whole(f);
    ASSERT_GT(f.bytes(), 2 * kMiB);
    for (int threads : {1, 3, 8})
      for (uint64_t chunk : {kMiB, 4 * kMiB}) {
        StageTimes::instance().reset();
        auto p = std::make_shared<persist::NarrowedPrefetch>(f, chunk);
        EXPECT_EQ(p->chunks(), (f.bytes() + chunk - 1) / chunk);
        {
          persist::PrefetchBatch batch({p}, threads);
          EXPECT_LE(batch.threads(), threads);
          ASSERT_NO_THROW(p->wait_range(0, f.value_bytes()));
          const char* got = p->verified();
          ASSERT_EQ(std::memcmp(got, want.data(), want.size()), 0) << threads << " threads, chunk " << chunk;
        }
        const StageTotals s = StageTimes::instance().snapshot();
        EXPECT_EQ(s.bytes_of(ByteCount::kPrefetched), f.bytes());
        EXPECT_EQ(s.bytes_of(ByteCount::kColumnFileRead), f.bytes());  // each byte counted once
        EXPECT_GT(s.background_ms[size_t(Background::kPrefetch)], 0.0);
        EXPECT_EQ(s.ms_of(Stage::kReadVerify), 0.0);  // the threads record no stage
      }
  }
}

TEST(NarrowedPrefetch, AFlippedByteFailsTheVerdictAsTheChunkedReaderDoes) {
  Db db;
  const NarrowedFile f = db.file(0);
  for (uint64_t at : {uint64_t(0), f.bytes() / 2, f.bytes() - 1}) {
    flip_byte(f.path, at);
    const std::string want = reader_error(f);
    ASSERT_NE(want.find("is corrupted: its checksum"), std::string::npos) << want;
    auto p = std::make_shared<persist::NarrowedPrefetch>(f, kMiB);
    persist::PrefetchBatch batch({p}, 4);
    // The bytes can be copied on as they arrive, but never handed out unverified.
    EXPECT_NO_THROW(p->wait_range(0, f.bytes()));
    try {
      p->verified();
      FAIL() << "a corrupted narrowed file was handed out";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kCatalog);
      EXPECT_EQ(std::string(e.what()), want);
      EXPECT_TRUE(is_one_line(e.what()));
    }
    flip_byte(f.path, at);  // back as written: the next position starts from a good file
    ASSERT_EQ(reader_error(f), "");
  }
}

TEST(NarrowedPrefetch, AMissingOrTruncatedFileFailsWhenItsBytesAreAskedFor) {
  Db db;
  const NarrowedFile f = db.file(0);
  const std::string saved = read_file(f.path);
  write_file(f.path, saved.substr(0, saved.size() - 3));
  for (int round = 0; round < 2; round++) {
    const std::string want = reader_error(f);
    ASSERT_NE(want, "");
    // Starting the read-ahead does not throw: the query may not need the file.
    auto p = std::make_shared<persist::NarrowedPrefetch>(f, kMiB);
    persist::PrefetchBatch batch({p}, 2);
    for (int ask = 0; ask < 2; ask++) {
      try {
        if (ask == 0) p->wait_range(0, kMiB);
        else p->verified();
        FAIL() << "a bad narrowed file was handed out";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::kCatalog);
        EXPECT_EQ(std::string(e.what()), want);
        EXPECT_TRUE(is_one_line(e.what()));
      }
    }
    std::filesystem::remove(f.path);  // second round: the file is gone
  }
  write_file(f.path, saved);
}

TEST(NarrowedPrefetch, ABatchStoppedEarlyLeavesNoConsumerWaiting) {
  Db db;
  const NarrowedFile f = db.file(0);
  auto p = std::make_shared<persist::NarrowedPrefetch>(f, kMiB);
  p->abandon("stopped");  // as a batch destroyed before its threads took every chunk
  EXPECT_THROW(p->wait_range(0, f.bytes()), Error);
  EXPECT_THROW(p->verified(), Error);
  // A batch over several files, dropped at once: every wait returns.
  std::vector<std::shared_ptr<persist::NarrowedPrefetch>> files;
  for (int i = 0; i < 6; i++) files.push_back(std::make_shared<persist::NarrowedPrefetch>(db.file(size_t(i % 2)), kMiB));
  { persist::PrefetchBatch batch(files, 2); }
  for (auto& q : files) {
    try {
      q->verified();  // read in full before the stop, or failed by it
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInternal) << e.what();
    }
  }
}

TEST(NarrowedPrefetch, ChunksComeInWholeChecksumBlocks) {
  Db db;
  EXPECT_THROW(persist::NarrowedPrefetch(db.file(0), kMiB / 2), Error);
  EXPECT_THROW(persist::NarrowedPrefetch(db.file(0), 0), Error);
}

}  // namespace
}  // namespace raydb::test
