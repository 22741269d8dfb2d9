#pragma once
// The pieces every reader of a narrowed column file shares (storage/narrowed_file.h):
// opening it against the manifest's size, reading a byte range with pread, hashing it
// per 1 MiB checksum block, and comparing the blocks' hashes with the manifest's
// checksum, with the one-line errors the readers have always given. The chunked
// reader (narrowed_reader.h) and the prefetch (narrowed_prefetch.h) are built on them.
#include <cstdint>
#include <vector>

#include "storage/narrowed_file.h"

namespace raydb::persist {

// The open descriptor; kCatalog (one line naming the file) when it is missing or its
// size is not the manifest's.
int open_narrowed(const NarrowedFile& f);
// Reads `len` bytes at `offset` into `out` (retrying short reads); 0, or the errno of
// the failed read (EIO for an unexpected end of file).
int read_range(int fd, uint64_t offset, void* out, uint64_t len);
// kIO "cannot read narrowed column file P (t.c): <errno text>".
[[noreturn]] void fail_read(const NarrowedFile& f, int err);
// kCatalog "narrowed column file P (t.c) is corrupted: ..." unless the hashes of the
// file's 1 MiB blocks, in order, give the manifest's checksum (checksum.h).
void verify_block_sums(const NarrowedFile& f, const std::vector<uint64_t>& block_sums);

}  // namespace raydb::persist
