#pragma once
// Shared helpers for tests: temporary directories, running the raydb binary.
#include <string>

namespace raydb::test {

// A fresh empty directory under the system temp dir, removed at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

struct CommandResult {
  int exit_code = 0;
  std::string out;  // stdout
  std::string err;  // stderr
};
// Runs `build/raydb <args>` through the shell (args are passed verbatim).
CommandResult run_raydb(const std::string& args);
std::string source_dir();  // repository root
void write_file(const std::string& path, const std::string& content);
std::string read_file(const std::string& path);

}  // namespace raydb::test
