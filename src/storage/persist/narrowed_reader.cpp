#include "storage/persist/narrowed_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "common/error.h"
#include "storage/persist/checksum.h"

namespace raydb::persist {

NarrowedReader::NarrowedReader(const NarrowedFile& f) : file_(f) {
  fd_ = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) fail(ErrorKind::kCatalog, "missing narrowed column file {} ({}): {}", f.path, f.what, std::strerror(errno));
  struct stat st;
  if (::fstat(fd_, &st) != 0 || uint64_t(st.st_size) != f.bytes()) {
    ::close(fd_);
    fail(ErrorKind::kCatalog, "narrowed column file {} ({}) has {} bytes, the manifest says {}", f.path, f.what,
         uint64_t(st.st_size), f.bytes());
  }
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
    uint64_t done = 0;
    while (done < len) {
      const ssize_t r = ::pread(fd_, p + done, len - done, off_t(offset_ + at + done));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        error.store(r < 0 ? errno : EIO);
        break;
      }
      done += uint64_t(r);
    }
    if (done == len) block_sums_[first + size_t(b)] = XXH3_64bits(p, len);
  }
  if (int e = error.load())
    fail(ErrorKind::kIO, "cannot read narrowed column file {} ({}): {}", file_.path, file_.what, std::strerror(e));
  offset_ += n;
  return n;
}

void NarrowedReader::verify() const {
  if (remaining() != 0) fail(ErrorKind::kInternal, "narrowed column file {} verified before its end", file_.path);
  const uint64_t sum = file_.bytes() == 0
                           ? file_checksum(nullptr, 0)
                           : XXH3_64bits(block_sums_.data(), block_sums_.size() * sizeof(uint64_t));
  if (sum != file_.checksum)
    fail(ErrorKind::kCatalog, "narrowed column file {} ({}) is corrupted: its checksum does not match the manifest's",
         file_.path, file_.what);
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
