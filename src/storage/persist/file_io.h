#pragma once
// Small POSIX helpers for durable, atomic writes inside a database directory.
#include <cstddef>
#include <string>
#include <string_view>

namespace raydb::persist {

// Creates (or truncates) `path`, writes `bytes` bytes, fsyncs and closes it. Throws
// Error(kIO) naming the path on any failure, after removing the partial file.
void write_file_durably(const std::string& path, const void* data, size_t bytes);

// Writes several pieces one after the other into one new file (same guarantees).
struct FilePiece {
  const void* data;
  size_t bytes;
};
void write_file_durably(const std::string& path, const FilePiece* pieces, size_t count);

// Reads a whole (small) file into a string; throws Error(kIO) naming the path.
std::string read_small_file(const std::string& path);

// fsync of a directory, so that renames and unlinks inside it are durable.
void fsync_directory(const std::string& dir);

// An flock(2) on the database directory itself. Locking the directory (rather than a
// lock file) creates nothing, so opening or failing to write a database never leaves
// a trace. Writers hold it exclusively for a whole commit; readers hold it shared
// while they read the manifest and map its files, so a writer cannot delete files
// under a reader that is just opening.
class DirectoryLock {
 public:
  enum class Mode { kShared, kExclusive };
  DirectoryLock(const std::string& dir, Mode mode);  // blocks; throws Error(kIO)
  // Tries an exclusive lock without waiting; `locked()` says whether it was had.
  static DirectoryLock try_exclusive(const std::string& dir);
  ~DirectoryLock();
  DirectoryLock(DirectoryLock&& other) noexcept;
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;
  DirectoryLock& operator=(DirectoryLock&&) = delete;

  bool locked() const { return locked_; }

 private:
  DirectoryLock() = default;
  int fd_ = -1;
  bool locked_ = false;
};

// A file-name-safe rendering of an identifier: lower case ASCII letters, digits and
// '_' (everything else becomes '_'), at most 48 characters. Uniqueness comes from the
// generation, table and column numbers that the caller puts around it.
std::string sanitize_file_component(std::string_view name);

}  // namespace raydb::persist
