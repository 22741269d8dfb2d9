// raydb_sqllogictest [--oracle sqlite] [--backend cpu|auto|cuda] [--complete] FILE...
// Runs sqllogictest files (see slt_record.h) against raydb; prints one line per
// failed record and a summary per file; exit status 1 when any record failed.
//
// raydb_sqllogictest --corpus [--limit-files N] [--max-queries N] [--time-budget S]
//                    [--show-failures N] [--min-pass-rate P] PATH...
// Runs SQLite's public corpus (files or directories of .test files whose results are
// SQLite's; see slt_corpus.h) and prints per-file lines, pass rates and the top failure
// reasons; exit status 0 when the pass rate reaches P percent (every query when not given).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sqllogictest/slt_corpus.h"
#include "sqllogictest/slt_runner.h"

namespace {

int run_files(const raydb::slt::RunOptions& options, const std::vector<std::string>& files) {
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

const char* kUsage =
    "usage: raydb_sqllogictest [--oracle sqlite] [--backend B] [--complete] FILE...\n"
    "       raydb_sqllogictest --corpus [--limit-files N] [--max-queries N] [--time-budget S] [--show-failures N]\n"
    "                          [--min-pass-rate P] [--backend B] PATH...\n";

}  // namespace

int main(int argc, char** argv) {
  raydb::slt::CorpusOptions corpus;
  raydb::slt::RunOptions& options = corpus.run;
  bool corpus_mode = false;
  std::vector<std::string> files;
  try {
    for (int i = 1; i < argc; i++) {
      const std::string a = argv[i];
      auto number = [&](const char* what) {
        if (i + 1 >= argc) throw std::runtime_error(a + " needs " + what);
        const std::string v = argv[++i];
        size_t used = 0;
        double d = 0;
        try {
          d = std::stod(v, &used);
        } catch (const std::exception&) {
        }
        if (used != v.size() || d < 0) throw std::runtime_error(a + " needs " + what + ", got '" + v + "'");
        return d;
      };
      if (a == "--oracle" && i + 1 < argc && std::strcmp(argv[i + 1], "sqlite") == 0) {
        options.oracle_sqlite = true;
        i++;
      } else if (a == "--backend" && i + 1 < argc) {
        options.backend = raydb::parse_backend(argv[++i]);
      } else if (a == "--complete") {
        options.complete = true;
      } else if (a == "--corpus") {
        corpus_mode = true;
      } else if (a == "--limit-files") {
        corpus.limit_files = int(number("a file count"));
      } else if (a == "--max-queries") {
        options.max_queries = int(number("a query count"));
      } else if (a == "--time-budget") {
        corpus.time_budget_s = number("seconds");
      } else if (a == "--show-failures") {
        corpus.show_failures = int(number("a count"));
      } else if (a == "--min-pass-rate") {
        corpus.min_pass_rate = number("a percentage");
      } else if (!a.empty() && a[0] == '-') {
        throw std::runtime_error("unknown option " + a);
      } else {
        files.push_back(a);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n%s", e.what(), kUsage);
    return 2;
  }
  if (files.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  if (!corpus_mode) return run_files(options, files);
  options.progress_every = 1000;
  try {
    return raydb::slt::CorpusRun(corpus).run(files);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
