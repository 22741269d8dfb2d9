// raydb_sqllogictest [--oracle sqlite] [--backend cpu|auto|cuda] [--complete] FILE...
// Runs sqllogictest files (see slt_record.h) against raydb; prints one line per
// failed record and a summary per file; exit status 1 when any record failed.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sqllogictest/slt_runner.h"

int main(int argc, char** argv) {
  raydb::slt::RunOptions options;
  std::vector<std::string> files;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--oracle" && i + 1 < argc && std::strcmp(argv[i + 1], "sqlite") == 0) {
      options.oracle_sqlite = true;
      i++;
    } else if (a == "--backend" && i + 1 < argc) {
      try {
        options.backend = raydb::parse_backend(argv[++i]);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
      }
    } else if (a == "--complete") {
      options.complete = true;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "error: unknown option %s (--oracle sqlite, --backend B, --complete)\n", a.c_str());
      return 2;
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: raydb_sqllogictest [--oracle sqlite] [--backend B] [--complete] FILE...\n");
    return 2;
  }
  bool failed = false;
  for (const std::string& f : files) {
    raydb::slt::Runner runner(options);
    raydb::slt::FileSummary s;
    try {
      s = runner.run_file(f);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      failed = true;
      continue;
    }
    for (const std::string& msg : s.failures) std::printf("FAIL %s\n", msg.c_str());
    std::printf("%s: %d statements, %d queries (%d checked against sqlite), %d skipped, %zu failed\n", f.c_str(),
                s.statements, s.queries, s.oracle_checked, s.skipped, s.failures.size());
    failed = failed || !s.failures.empty();
  }
  return failed ? 1 : 0;
}
