#include "common/cancel.h"

#include "common/error.h"

namespace raydb {

namespace {
thread_local const std::atomic<bool>* t_flag = nullptr;
}  // namespace

CancelScope::CancelScope(const std::atomic<bool>* flag) : previous_(t_flag) {
  // A nested statement (a subquery) without its own flag keeps the outer one.
  if (flag) t_flag = flag;
}

CancelScope::~CancelScope() { t_flag = previous_; }

const std::atomic<bool>* current_cancel_flag() { return t_flag; }

void throw_if_cancelled(const std::atomic<bool>* flag) {
  if (cancel_requested(flag)) throw Error(ErrorKind::kCancelled, "query cancelled");
}

void throw_if_cancelled() { throw_if_cancelled(t_flag); }

}  // namespace raydb
