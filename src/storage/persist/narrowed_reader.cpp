#include "storage/persist/narrowed_reader.h"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "common/error.h"
#include "storage/persist/checksum.h"
#include "storage/persist/narrowed_io.h"

namespace raydb::persist {

NarrowedReader::NarrowedReader(const NarrowedFile& f) : file_(f) {
  fd_ = open_narrowed(f);
  // Sequential reads: ask the kernel for a large read-ahead window.
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  block_sums_.reserve((f.bytes() + kChecksumBlockBytes - 1) / kChecksumBlockBytes);
}

NarrowedReader::~NarrowedReader() {
  if (fd_ >= 0) ::close(fd_);
}

uint64_t NarrowedReader::read(void* out, uint64_t cap) {
  if (cap % kChecksumBlockBytes != 0) fail(ErrorKind::kInternal, "narrowed reads come in whole checksum blocks");
  const uint64_t n = std::min(cap, remaining());
  const int64_t blocks = int64_t((n + kChecksumBlockBytes - 1) / kChecksumBlockBytes);
  const size_t first = block_sums_.size();
  block_sums_.resize(first + size_t(blocks));
  std::atomic<int> error{0};
  // One block per iteration: the threads read in parallel (page cache copies scale
  // with cores) and hash what they just read.
#pragma omp parallel for schedule(dynamic, 4) if (blocks > 1)
  for (int64_t b = 0; b < blocks; b++) {
    const uint64_t at = uint64_t(b) * kChecksumBlockBytes;
    const uint64_t len = std::min<uint64_t>(kChecksumBlockBytes, n - at);
    char* p = static_cast<char*>(out) + at;
    if (const int e = read_range(fd_, offset_ + at, p, len)) {
      error.store(e);
      continue;
    }
    block_sums_[first + size_t(b)] = XXH3_64bits(p, len);
  }
  if (int e = error.load()) fail_read(file_, e);
  offset_ += n;
  return n;
}

void NarrowedReader::verify() const {
  if (remaining() != 0) fail(ErrorKind::kInternal, "narrowed column file {} verified before its end", file_.path);
  verify_block_sums(file_, block_sums_);
}

std::vector<int64_t> read_narrowed_values(const NarrowedFile& f) {
  std::vector<char> bytes((f.bytes() + kChecksumBlockBytes - 1) / kChecksumBlockBytes * kChecksumBlockBytes);
  NarrowedReader reader(f);
  while (reader.remaining() > 0) reader.read(bytes.data() + reader.offset(), bytes.size() - reader.offset());
  reader.verify();
  std::vector<int64_t> decode(f.distinct);
  if (f.distinct) std::memcpy(decode.data(), bytes.data() + f.value_bytes(), f.distinct * 8);
  std::vector<int64_t> values(f.rows);
  for (uint64_t i = 0; i < f.rows; i++) {
    uint64_t s = 0;
    std::memcpy(&s, bytes.data() + i * uint64_t(f.width), size_t(f.width));  // little-endian host
    if (f.distinct) {
      if (s >= f.distinct)
        fail(ErrorKind::kCatalog, "narrowed column file {} ({}) is corrupted: row {} has rank {} of {} values", f.path,
             f.what, i, s, f.distinct);
      values[i] = decode[s];
    } else {
      values[i] = int64_t(uint64_t(f.base) + s);
    }
  }
  return values;
}

void verify_narrowed_file(const NarrowedFile& f, const Column& c) {
  const std::vector<int64_t> values = read_narrowed_values(f);
  if (values.size() != c.size())
    fail(ErrorKind::kCatalog, "narrowed column file {} ({}) holds {} rows, the column {}", f.path, f.what,
         values.size(), c.size());
  for (uint64_t i = 0; i < c.size(); i++)
    if (values[i] != c.get_int(i))
      fail(ErrorKind::kCatalog, "narrowed column file {} ({}) differs from its column at row {} ({} against {})",
           f.path, f.what, i, values[i], c.get_int(i));
}

}  // namespace raydb::persist
