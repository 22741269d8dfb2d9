#include "sqllogictest/slt_corpus.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace raydb::slt {

namespace fs = std::filesystem;

std::string normalize_reason(const std::string& reason) {
  std::string out;
  for (size_t i = 0; i < reason.size();) {
    const char c = reason[i];
    if (c >= '0' && c <= '9') {
      while (i < reason.size() && reason[i] >= '0' && reason[i] <= '9') i++;
      out += 'N';
    } else if (c == '(' && reason.compare(i, 7, "(SELECT") == 0) {
      // A subquery's text inside a message: the rest of the message says what is wrong.
      int depth = 0;
      for (; i < reason.size(); i++) {
        depth += reason[i] == '(' ? 1 : reason[i] == ')' ? -1 : 0;
        if (depth == 0) break;
      }
      out += "(SELECT ...)";
      i++;
    } else if (c == '\'' || c == '"') {
      const size_t end = reason.find(c, i + 1);
      if (end == std::string::npos) {
        out += reason.substr(i);
        break;
      }
      out += c;
      out += "...";
      out += c;
      i = end + 1;
    } else {
      out += c == '\n' ? ' ' : c;
      i++;
    }
  }
  if (out.size() > 140) out = out.substr(0, 140) + "...";
  return out;
}

void CorpusRun::Totals::add(const FileSummary& s) {
  files++;
  files_truncated += s.truncated;
  statements += s.statements;
  statements_failed += s.statements_failed;
  queries += s.queries;
  queries_failed += s.queries_failed;
  skipped += s.skipped;
}

void CorpusRun::Totals::merge(const Totals& t) {
  files += t.files;
  files_not_run += t.files_not_run;
  files_truncated += t.files_truncated;
  statements += t.statements;
  statements_failed += t.statements_failed;
  queries += t.queries;
  queries_failed += t.queries_failed;
  skipped += t.skipped;
}

double CorpusRun::Totals::pass_rate() const {
  return queries == 0 ? 100.0 : 100.0 * double(queries - queries_failed) / double(queries);
}

std::vector<std::string> CorpusRun::files_of(const std::string& path) const {
  std::vector<std::string> all;
  if (fs::is_directory(path)) {
    for (const auto& e : fs::recursive_directory_iterator(path))
      if (e.is_regular_file() && e.path().extension() == ".test") all.push_back(e.path().string());
  } else if (fs::is_regular_file(path)) {
    all.push_back(path);
  } else {
    throw std::runtime_error("no such file or directory: " + path);
  }
  std::sort(all.begin(), all.end());
  if (options_.limit_files <= 0 || int(all.size()) <= options_.limit_files) return all;
  // An even spread, so a sample of random/ or index/ covers each of its subfolders.
  std::vector<std::string> sample;
  for (int i = 0; i < options_.limit_files; i++) sample.push_back(all[size_t(i) * all.size() / size_t(options_.limit_files)]);
  return sample;
}

void CorpusRun::print_totals(const std::string& name, const Totals& t) const {
  std::printf(
      "%s: %d files (%d not run, %d cut short); statements %ld ok, %ld failed; queries %ld passed, %ld failed, %ld "
      "skipped; pass rate %.2f%%\n",
      name.c_str(), t.files + t.files_not_run, t.files_not_run, t.files_truncated, t.statements - t.statements_failed,
      t.statements_failed, t.queries - t.queries_failed, t.queries_failed, t.skipped, t.pass_rate());
}

int CorpusRun::run(const std::vector<std::string>& paths) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  RunOptions run = options_.run;
  run.corpus = true;
  if (options_.time_budget_s > 0)
    run.deadline = start + std::chrono::milliseconds(long(options_.time_budget_s * 1000));
  std::vector<std::pair<std::string, Totals>> groups;
  Totals all;
  for (const std::string& path : paths) {
    const std::vector<std::string> files = files_of(path);
    Totals group;
    for (size_t i = 0; i < files.size(); i++) {
      const std::string& f = files[i];
      if (run.deadline && Clock::now() >= *run.deadline) {
        group.files_not_run++;
        continue;
      }
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      std::fprintf(stderr, "[%s %zu/%zu, %.0f s] %s\n", path.c_str(), i + 1, files.size(), elapsed, f.c_str());
      Runner runner(run);
      FileSummary s;
      try {
        s = runner.run_file(f);
      } catch (const std::exception& e) {
        // A file the parser rejects counts as one failed statement, so it cannot pass unseen.
        s.statements = s.statements_failed = 1;
        s.failures.push_back(e.what());
        s.reasons.push_back("the file cannot be read or parsed");
      }
      for (size_t k = 0; k < s.failures.size() && int(k) < options_.show_failures; k++)
        std::printf("FAIL %s\n", s.failures[k].c_str());
      std::printf("%s: statements %d ok, %d failed; queries %d passed, %d failed, %d skipped%s\n", f.c_str(),
                  s.statements - s.statements_failed, s.statements_failed, s.queries - s.queries_failed,
                  s.queries_failed, s.skipped, s.truncated ? " (cut short)" : "");
      std::fflush(stdout);
      for (size_t k = 0; k < s.reasons.size(); k++) {
        Reason& r = reasons_[normalize_reason(s.reasons[k])];
        if (r.count++ == 0) r.example = s.failures[k];
      }
      group.add(s);
    }
    groups.emplace_back(path, group);
    all.merge(group);
  }
  std::printf("\n== summary (%.0f s)\n", std::chrono::duration<double>(Clock::now() - start).count());
  for (const auto& [name, t] : groups) print_totals(name, t);
  if (groups.size() > 1) print_totals("all", all);
  std::vector<std::pair<std::string, Reason>> top(reasons_.begin(), reasons_.end());
  std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
  if (!top.empty()) std::printf("\n== top failure reasons\n");
  for (size_t k = 0; k < top.size() && int(k) < options_.top_reasons; k++)
    std::printf("%6ld  %s\n        e.g. %s\n", top[k].second.count, top[k].first.c_str(), top[k].second.example.c_str());
  const bool ok = options_.min_pass_rate < 0 ? all.queries_failed == 0 && all.statements_failed == 0
                                             : all.pass_rate() >= options_.min_pass_rate;
  std::printf("\n%ld passed, %ld failed, %ld skipped\n", all.queries - all.queries_failed, all.queries_failed,
              all.skipped);
  return ok ? 0 : 1;
}

}  // namespace raydb::slt
