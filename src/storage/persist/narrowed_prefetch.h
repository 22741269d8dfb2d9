#pragma once
// One narrowed column file (storage/narrowed_file.h) read ahead into ordinary host
// memory, chunk by chunk, by the threads of a PrefetchBatch (prefetch_batch.h), while
// the query that will upload it waits for the GPU context. Each chunk is a whole
// number of 1 MiB checksum blocks and is hashed as it is read; the file's checksum is
// a hash of its blocks' hashes in order (checksum.h), so verifying in parallel is the
// same check as verifying front to back. A consumer may copy a chunk on as soon as it
// is read (wait_range), but gets the file's bytes as an answer's input only through
// verified(), which throws the readers' one-line errors: missing file, wrong size,
// read error, "is corrupted".
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/host_bytes.h"
#include "storage/narrowed_file.h"

namespace raydb::persist {

class NarrowedPrefetch {
 public:
  // Opens the file (a failure is kept and thrown by the waits) and maps its host copy.
  // `chunk_bytes`: a positive multiple of kChecksumBlockBytes.
  NarrowedPrefetch(NarrowedFile f, uint64_t chunk_bytes);
  ~NarrowedPrefetch();
  NarrowedPrefetch(const NarrowedPrefetch&) = delete;
  NarrowedPrefetch& operator=(const NarrowedPrefetch&) = delete;

  const NarrowedFile& file() const { return file_; }
  uint64_t chunks() const { return chunks_; }
  uint64_t chunk_bytes() const { return chunk_bytes_; }
  // Reads and hashes chunk i (on a batch thread); false when it failed (the error is kept).
  bool read_chunk(uint64_t i);
  // Marks every chunk not read yet as failed with `why` (the batch stopped early).
  void abandon(const std::string& why);
  // Waits until bytes [begin, end) are read; throws the file's error when one of
  // their chunks (or the open) failed. The bytes are not verified yet.
  void wait_range(uint64_t begin, uint64_t end) const;
  // Waits for the whole file and its checksum; the bytes, or the file's error.
  const char* verified() const;
  // The host copy (valid up to file().bytes()); read only what wait_range covered.
  const char* data() const { return bytes_.data(); }

 private:
  enum : uint8_t { kPending = 0, kRead = 1, kFailed = 2 };
  void settle(uint64_t chunk, uint8_t state, const Error* e);  // under no lock; wakes the waiters
  [[noreturn]] void rethrow() const;                           // the kept error (lock held by caller)
  NarrowedFile file_;
  uint64_t chunk_bytes_, chunks_;
  int fd_ = -1;
  HostBytes bytes_;
  std::vector<uint64_t> block_sums_;
  std::unique_ptr<std::atomic<uint8_t>[]> state_;
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  uint64_t unsettled_;      // chunks neither read nor failed
  bool verdict_ = false;    // unsettled_ reached 0 and the checksum was compared
  bool failed_ = false;     // error_ holds why
  ErrorKind error_kind_ = ErrorKind::kInternal;
  std::string error_;
};

}  // namespace raydb::persist
