#include "cli/cli_util.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "raydb/system.h"

namespace raydb::cli {

std::string read_sql(const std::string& positional, const std::string& file) {
  if (!positional.empty() && !file.empty()) fail(ErrorKind::kInvalidInput, "give the SQL either as an argument or with -f, not both");
  if (file.empty()) {
    if (positional.empty()) fail(ErrorKind::kInvalidInput, "no SQL given (pass it as an argument or with -f FILE)");
    return positional;
  }
  std::stringstream ss;
  if (file == "-") {
    ss << std::cin.rdbuf();
  } else {
    std::ifstream f(file, std::ios::binary);
    if (!f) fail(ErrorKind::kIO, "cannot read SQL file {}", file);
    ss << f.rdbuf();
  }
  return ss.str();
}

std::unique_ptr<Database> open_database(const std::string& dir, bool create) {
  return create ? Database::open_or_create(dir) : Database::open(dir);
}

void print_result(const QueryResult& r, OutputFormat f) {
  std::string s = format_result(r, f);
  std::fwrite(s.data(), 1, s.size(), stdout);
  std::fflush(stdout);
}

void start_gpu_warmup_for(const QueryOptions& options, bool one_shot) {
  if (options.backend == Backend::kCpu || !options.settings.device_warmup()) return;
  if (one_shot && options.backend == Backend::kAuto) return;
  start_gpu_warmup();
}

void apply_settings(const std::vector<std::string>& pairs, QueryOptions& options) {
  for (auto& p : pairs) {
    const size_t eq = p.find('=');
    if (eq == std::string::npos || eq == 0)
      fail(ErrorKind::kInvalidInput, "--set takes name=value, got '{}'", p);
    options.settings.set(p.substr(0, eq), p.substr(eq + 1));
  }
}

std::vector<std::string> comma_words(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace raydb::cli
