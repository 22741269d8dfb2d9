#include "support/test_support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <memory>
#include <stdexcept>

namespace raydb::test {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "raydb-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string source_dir() { return RAYDB_SOURCE_DIR; }

void write_file(const std::string& path, const std::string& content) {
  std::ofstream f(path, std::ios::binary);
  f << content;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

namespace {

CommandResult run_raydb_from(const std::string& args, const TempDir& tmp, const std::string& stdin_path) {
  std::string cmd = std::string("RAYDB_QUIET=1 ") + RAYDB_BINARY + " " + args + " >" + tmp.file("out") + " 2>" +
                    tmp.file("err") + " <" + stdin_path;
  int status = std::system(cmd.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(tmp.file("out"));
  r.err = read_file(tmp.file("err"));
  return r;
}

}  // namespace

CommandResult run_raydb(const std::string& args) {
  TempDir tmp;
  return run_raydb_from(args, tmp, "/dev/null");
}

CommandResult run_raydb_with_stdin(const std::string& args, const std::string& input) {
  TempDir tmp;
  write_file(tmp.file("in"), input);
  return run_raydb_from(args, tmp, tmp.file("in"));
}

}  // namespace raydb::test

namespace raydb::test {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  return out;
}

std::map<std::string, std::string> snapshot_tree(const std::string& dir) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    std::string rel = fs::relative(it->path(), dir).string();
    if (it->is_directory()) {
      out[rel] = "dir";
      continue;
    }
    std::string bytes = read_file(it->path().string());
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : bytes) {
      h ^= c;
      h *= 1099511628211ull;
    }
    out[rel] = std::to_string(bytes.size()) + ":" + std::to_string(h);
  }
  return out;
}

void copy_tree(const std::string& from, const std::string& to) {
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
}

namespace cli {
std::string gen_ssb(const std::string& db, const std::string& sf) {
  return "gen ssb --sf " + sf + " --db " + shell_quote(db);
}
std::string load_csv(const std::string& db, const std::string& table, const std::string& schema,
                     const std::string& csv_file) {
  return "load csv --header --db " + shell_quote(db) + " --table " + shell_quote(table) + " --schema " +
         shell_quote(schema) + " " + shell_quote(csv_file);
}
std::string query(const std::string& db, const std::string& sql, const std::string& extra) {
  return "query --db " + shell_quote(db) + (extra.empty() ? "" : " " + extra) + " " + shell_quote(sql);
}
}  // namespace cli

std::string shared_ssb_database(const std::string& sf, std::string& error) {
  struct Entry {
    std::unique_ptr<TempDir> dir;
    std::string path, error;
  };
  static std::map<std::string, Entry> cache;
  auto it = cache.find(sf);
  if (it == cache.end()) {
    Entry e;
    e.dir = std::make_unique<TempDir>();
    std::string path = e.dir->file("ssb-sf" + sf);
    CommandResult r = run_raydb(cli::gen_ssb(path, sf));
    if (r.exit_code != 0) e.error = "raydb " + cli::gen_ssb(path, sf) + " failed (exit " + std::to_string(r.exit_code) + "): " + r.err;
    else e.path = path;
    it = cache.emplace(sf, std::move(e)).first;
  }
  error = it->second.error;
  return it->second.path;
}

}  // namespace raydb::test
