#pragma once
// Progress lines on stderr for long work (generation, loads, index builds).
// Quiet when RAYDB_QUIET is set or stderr is not wanted (set_quiet).
#include <atomic>
#include <cstdint>
#include <string>

namespace raydb {

void set_progress_quiet(bool quiet);
bool progress_quiet();
// Prints "<what>: <done>/<total> (<pct>%)" at most every 0.5 s, and once at the end.
class Progress {
 public:
  Progress(std::string what, uint64_t total);
  void add(uint64_t n);  // thread-safe
  void finish();

 private:
  std::string what_;
  uint64_t total_;
  std::atomic<uint64_t> done_{0};
  std::atomic<int64_t> last_print_ns_{0};
  bool finished_ = false;
  int64_t start_ns_;
};

}  // namespace raydb
