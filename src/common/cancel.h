#pragma once
// Cooperative cancellation of a running statement. Whoever may cancel (the shell's
// Ctrl-C handler, the server's CancelRequest) owns an atomic flag and hands it to the
// query through QueryOptions::cancel; the query driver installs it as the calling
// thread's flag for the statement's execution (CancelScope), and the executors poll it
// between units of work (CPU morsels, GPU kernel launches) and stop with
// Error(kCancelled, "query cancelled"). The flag is thread-local so that the many
// loops below the driver need no extra parameter; parallel loops read it on the
// calling thread and pass it to their workers. Setting the flag from a signal handler
// is safe (a lock-free atomic store).
#include <atomic>

namespace raydb {

class CancelScope {
 public:
  explicit CancelScope(const std::atomic<bool>* flag);
  ~CancelScope();
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;

 private:
  const std::atomic<bool>* previous_;
};

// The flag installed on this thread (nullptr: the statement cannot be cancelled).
const std::atomic<bool>* current_cancel_flag();
inline bool cancel_requested(const std::atomic<bool>* flag) {
  return flag && flag->load(std::memory_order_relaxed);
}
// Throws Error(kCancelled) when the flag was set.
void throw_if_cancelled(const std::atomic<bool>* flag);
// The same for this thread's flag.
void throw_if_cancelled();

}  // namespace raydb
