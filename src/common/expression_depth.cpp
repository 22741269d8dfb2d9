#include "common/expression_depth.h"

#include <pthread.h>

#include <exception>

#include "common/error.h"

namespace raydb {

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kStackReserve = size_t(2) << 20;  // instrumented frames are larger
#else
constexpr size_t kStackReserve = size_t(512) << 10;
#endif

thread_local int t_depth = 0;
thread_local const char* t_stack_low = nullptr;  // lowest usable address of this thread's stack

const char* stack_low() {
  if (!t_stack_low) {
    pthread_attr_t attr;
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &addr, &size);
      pthread_attr_destroy(&attr);
    }
    t_stack_low = static_cast<const char*>(addr);
  }
  return t_stack_low;
}

}  // namespace

void expression_too_deeply_nested(int limit) {
  fail(ErrorKind::kInvalidInput, "expression too deeply nested (limit {})", limit);
}

ExpressionDepthGuard::ExpressionDepthGuard() {
  // The frame address, not a local's: under ASan locals may live on a fake stack.
  const char* here = static_cast<const char*>(__builtin_frame_address(0));
  const char* low = stack_low();
  if (++t_depth > kMaxExpressionDepth || (low && here > low && size_t(here - low) < kStackReserve)) {
    t_depth--;
    expression_too_deeply_nested(kMaxExpressionDepth);
  }
}

ExpressionDepthGuard::~ExpressionDepthGuard() { t_depth--; }

void run_with_large_stack(const std::function<void()>& f, size_t bytes) {
  struct Job {
    const std::function<void()>* f;
    std::exception_ptr error;
  } job{&f, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, bytes);
  pthread_t th;
  auto body = [](void* p) -> void* {
    auto* j = static_cast<Job*>(p);
    try {
      (*j->f)();
    } catch (...) {
      j->error = std::current_exception();
    }
    return nullptr;
  };
  const int rc = pthread_create(&th, &attr, body, &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    f();  // no thread for it: run here (the depth guards still hold)
    return;
  }
  pthread_join(th, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace raydb
