#pragma once
// Reads a narrowed column file (storage/narrowed_file.h) front to back in large
// chunks with parallel pread calls (no mmap page faults), hashing each 1 MiB block
// while it is still in cache, so the file's checksum is known when its last byte has
// been read: verifying costs no second pass over the file. The GPU loader reads into
// pinned buffers with it; raydb check and tests read whole files.
#include <cstdint>
#include <vector>

#include "storage/column.h"
#include "storage/narrowed_file.h"

namespace raydb::persist {

class NarrowedReader {
 public:
  // Opens the file; kCatalog (one line naming it) when it is missing or its size is
  // not the manifest's.
  explicit NarrowedReader(const NarrowedFile& f);
  ~NarrowedReader();
  NarrowedReader(const NarrowedReader&) = delete;
  NarrowedReader& operator=(const NarrowedReader&) = delete;

  uint64_t offset() const { return offset_; }  // bytes read so far
  uint64_t remaining() const { return file_.bytes() - offset_; }
  // Reads the next min(cap, remaining()) bytes into `out` and hashes them; `cap` is a
  // multiple of kChecksumBlockBytes (checksum.h). Returns the bytes read; kIO on a
  // read error.
  uint64_t read(void* out, uint64_t cap);
  // Once every byte was read: kCatalog "narrowed column file P (t.c) is corrupted:
  // ..." unless the checksum is the manifest's.
  void verify() const;

 private:
  const NarrowedFile& file_;
  int fd_ = -1;
  uint64_t offset_ = 0;
  std::vector<uint64_t> block_sums_;
};

// The file read whole and verified, decoded back to values (value = base + stored,
// or decode[stored]); throws as NarrowedReader does, and kCatalog when a stored value
// lies outside the decode values.
std::vector<int64_t> read_narrowed_values(const NarrowedFile& f);

// raydb check: the file's checksum and every decoded value equal to the column's
// (kCatalog naming the first row that differs).
void verify_narrowed_file(const NarrowedFile& f, const Column& c);

}  // namespace raydb::persist
