#include "common/progress.h"

#include "common/settings.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace raydb {
namespace {
bool g_quiet = quiet_from_environment();
int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

void set_progress_quiet(bool quiet) { g_quiet = quiet; }
bool progress_quiet() { return g_quiet; }

Progress::Progress(std::string what, uint64_t total) : what_(std::move(what)), total_(total), start_ns_(now_ns()) {
  last_print_ns_ = start_ns_;
}

void Progress::add(uint64_t n) {
  uint64_t done = done_.fetch_add(n) + n;
  if (g_quiet) return;
  int64_t t = now_ns();
  int64_t last = last_print_ns_.load();
  if (t - last < 500'000'000 || !last_print_ns_.compare_exchange_strong(last, t)) return;
  std::fprintf(stderr, "%s: %llu/%llu (%.0f%%)\n", what_.c_str(), (unsigned long long)done,
               (unsigned long long)total_, total_ ? 100.0 * double(done) / double(total_) : 100.0);
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (g_quiet) return;
  std::fprintf(stderr, "%s: %llu rows in %.2f s\n", what_.c_str(), (unsigned long long)done_.load(),
               double(now_ns() - start_ns_) / 1e9);
}

}  // namespace raydb
