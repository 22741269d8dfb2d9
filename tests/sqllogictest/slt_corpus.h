#pragma once
// Runs directories of sqllogictest files whose results are SQLite's (the public corpus:
// select1-5.test, random/, index/) in corpus mode, and summarizes them: one line per
// file (statements ok/failed, queries passed/failed/skipped), the totals and pass rate
// per argument, and the most frequent failure reasons. The corpus is large, so it can
// sample files, cap queries per file and stop at a time budget.
#include <map>
#include <string>
#include <vector>

#include "sqllogictest/slt_runner.h"

namespace raydb::slt {

struct CorpusOptions {
  RunOptions run;             // corpus, max_queries and progress_every are honoured
  int limit_files = 0;        // per argument, spread evenly over its sorted files (0: all)
  double time_budget_s = 0;   // 0: none; files not started by then are counted as not run
  int show_failures = 3;      // failure lines printed per file
  int top_reasons = 15;       // reasons listed in the summary
  double min_pass_rate = -1;  // exit 0 when the overall rate (percent) reaches it; <0: no failure allowed
};

class CorpusRun {
 public:
  explicit CorpusRun(CorpusOptions options) : options_(std::move(options)) {}
  // Each path is a .test file or a directory (walked recursively); prints to stdout,
  // progress to stderr. Returns the process exit status.
  int run(const std::vector<std::string>& paths);

 private:
  struct Totals {
    int files = 0, files_not_run = 0, files_truncated = 0;
    long statements = 0, statements_failed = 0, queries = 0, queries_failed = 0, skipped = 0;
    void add(const FileSummary& s);
    void merge(const Totals& t);
    double pass_rate() const;  // percent of the queries run that passed
  };
  struct Reason {
    long count = 0;
    std::string example;  // the first failure with this reason
  };
  std::vector<std::string> files_of(const std::string& path) const;
  void print_totals(const std::string& name, const Totals& t) const;

  CorpusOptions options_;
  std::map<std::string, Reason> reasons_;
};

// A failure reason with the parts that vary between records (numbers, quoted names)
// masked, so that equal errors group together.
std::string normalize_reason(const std::string& reason);

}  // namespace raydb::slt
