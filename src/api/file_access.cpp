// COPY's file access policy (FileAccess in raydb.h): in a confined database, a path is
// allowed only when its real location (symlinks and `..` resolved) lies inside one of
// the allowed directories, so that neither `..` nor a symlink reaches outside them.
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "api/database_impl.h"
#include "common/error.h"

namespace raydb {

namespace {

// realpath(3) of an existing path; empty when it does not resolve.
std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  if (!::realpath(path.c_str(), buf)) return {};
  return buf;
}

bool inside(const std::string& path, const std::string& dir) {
  if (dir == "/") return true;
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
}

// Where `path` really is: the file itself when it exists (a symlink resolves to its
// target); for a file still to be written, its resolved directory plus its name.
std::string resolve_target(const std::string& path, bool write) {
  std::string real = real_path(path);
  if (!real.empty() || !write) return real;
  std::filesystem::path p(path);
  const std::string name = p.filename().string();
  if (name.empty() || name == "." || name == "..") return {};
  std::string parent = real_path(p.has_parent_path() ? p.parent_path().string() : ".");
  if (parent.empty()) return {};
  return parent == "/" ? "/" + name : parent + "/" + name;
}

}  // namespace

void Database::Impl::check_file_access(const std::string& path, bool write) const {
  if (!file_access.confined) return;
  if (file_access.allowed_dirs.empty())
    fail(ErrorKind::kIO, "file access from SQL is disabled on this server ('{}'; see raydb serve --allow-dir)", path);
  const std::string target = resolve_target(path, write);
  if (!target.empty())
    for (const std::string& dir : file_access.allowed_dirs) {
      const std::string real_dir = real_path(dir);
      if (!real_dir.empty() && inside(target, real_dir)) return;
    }
  fail(ErrorKind::kIO, "file '{}' is missing or outside the directories this server allows (--allow-dir)", path);
}

}  // namespace raydb
