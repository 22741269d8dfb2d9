#include "storage/persist/narrowed_prefetch.h"

#include <unistd.h>
#include <xxhash.h>

#include <algorithm>

#include "storage/persist/checksum.h"
#include "storage/persist/narrowed_io.h"

namespace raydb::persist {

NarrowedPrefetch::NarrowedPrefetch(NarrowedFile f, uint64_t chunk_bytes)
    : file_(std::move(f)), chunk_bytes_(chunk_bytes), chunks_(0) {
  if (chunk_bytes_ == 0 || chunk_bytes_ % kChecksumBlockBytes != 0)
    fail(ErrorKind::kInternal, "prefetch chunks come in whole checksum blocks");
  chunks_ = (file_.bytes() + chunk_bytes_ - 1) / chunk_bytes_;
  unsettled_ = chunks_;
  state_ = std::make_unique<std::atomic<uint8_t>[]>(std::max<uint64_t>(chunks_, 1));
  for (uint64_t i = 0; i < chunks_; i++) state_[i].store(kPending);
  try {
    fd_ = open_narrowed(file_);
  } catch (const Error& e) {
    // Kept for the consumer, which throws it where the chunked reader would have.
    failed_ = true;
    error_kind_ = e.kind();
    error_ = e.what();
    for (uint64_t i = 0; i < chunks_; i++) state_[i].store(kFailed);
    unsettled_ = 0;
    verdict_ = true;
    return;
  }
  try {
    bytes_ = HostBytes(file_.bytes());
  } catch (...) {
    ::close(fd_);
    throw;
  }
  block_sums_.assign((file_.bytes() + kChecksumBlockBytes - 1) / kChecksumBlockBytes, 0);
  if (chunks_ == 0) settle(0, kRead, nullptr);  // an empty file: its verdict now
}

NarrowedPrefetch::~NarrowedPrefetch() {
  if (fd_ >= 0) ::close(fd_);
}

bool NarrowedPrefetch::read_chunk(uint64_t i) {
  if (i >= chunks_ || state_[i].load() != kPending) return false;
  const uint64_t at = i * chunk_bytes_;
  const uint64_t len = std::min(chunk_bytes_, file_.bytes() - at);
  char* p = bytes_.data() + at;
  if (const int err = read_range(fd_, at, p, len)) {
    try {
      fail_read(file_, err);
    } catch (const Error& e) {
      settle(i, kFailed, &e);
    }
    return false;
  }
  // Hashed while the chunk is still in cache; blocks are disjoint slots of block_sums_.
  for (uint64_t b = 0; b < len; b += kChecksumBlockBytes)
    block_sums_[(at + b) / kChecksumBlockBytes] = XXH3_64bits(p + b, std::min<uint64_t>(kChecksumBlockBytes, len - b));
  settle(i, kRead, nullptr);
  return true;
}

void NarrowedPrefetch::abandon(const std::string& why) {
  const Error e(ErrorKind::kInternal, why);
  for (uint64_t i = 0; i < chunks_; i++)
    if (state_[i].load() == kPending) settle(i, kFailed, &e);
}

void NarrowedPrefetch::settle(uint64_t chunk, uint8_t state, const Error* e) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (chunks_ > 0) {
    if (state_[chunk].load() != kPending) return;
    state_[chunk].store(state);
    unsettled_--;
  }
  if (e && !failed_) {
    failed_ = true;
    error_kind_ = e->kind();
    error_ = e->what();
  }
  if (unsettled_ == 0 && !verdict_) {
    if (!failed_) {
      try {
        verify_block_sums(file_, block_sums_);
      } catch (const Error& bad) {
        failed_ = true;
        error_kind_ = bad.kind();
        error_ = bad.what();
      }
    }
    verdict_ = true;
  }
  cv_.notify_all();
}

void NarrowedPrefetch::rethrow() const { throw Error(error_kind_, error_); }

void NarrowedPrefetch::wait_range(uint64_t begin, uint64_t end) const {
  std::unique_lock<std::mutex> lock(mutex_);
  if (begin < end && chunks_ > 0) {
    const uint64_t first = begin / chunk_bytes_, last = std::min(chunks_ - 1, (end - 1) / chunk_bytes_);
    auto settled = [&] {
      for (uint64_t i = first; i <= last; i++)
        if (state_[i].load() == kPending) return false;
      return true;
    };
    cv_.wait(lock, settled);
    for (uint64_t i = first; i <= last; i++)
      if (state_[i].load() == kFailed) rethrow();
  }
  if (failed_ && fd_ < 0) rethrow();  // the file did not open
}

const char* NarrowedPrefetch::verified() const {
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [this] { return verdict_; });
  if (failed_) rethrow();
  return bytes_.data();
}

}  // namespace raydb::persist
