#pragma once
// Bounds on expression recursion (issue 14): every stage that recurses over an
// expression tree (parser, binder, folder, planner, both executors) holds an
// ExpressionDepthGuard per level, so a too-deep expression is a clear one-line error
// instead of a stack overflow. Long flat chains (`1 + 1 + ... ` with 30,000 terms) are
// left-deep trees, not nested syntax: the parser reads them iteratively, and the API
// runs long SQL texts on a thread with a large stack (run_with_large_stack) so the
// recursive stages take them.
#include <cstddef>
#include <functional>

namespace raydb {

// Parenthesized / NOT / unary minus / function / CASE nesting the parser accepts.
constexpr int kMaxExpressionNesting = 1000;
// Depth of an expression tree (chains included) any recursive stage accepts.
constexpr int kMaxExpressionDepth = 100000;

// Throws Error(kInvalidInput) "expression too deeply nested (limit N)".
[[noreturn]] void expression_too_deeply_nested(int limit);

// One level of recursion over an expression on this thread: throws (as above, with
// kMaxExpressionDepth) past that depth, or when the thread's stack is close to its end.
class ExpressionDepthGuard {
 public:
  ExpressionDepthGuard();
  ~ExpressionDepthGuard();
  ExpressionDepthGuard(const ExpressionDepthGuard&) = delete;
  ExpressionDepthGuard& operator=(const ExpressionDepthGuard&) = delete;
};

// SQL texts at least this long run on a large stack (they may hold long chains).
constexpr size_t kLargeStackSqlBytes = 16384;
// Runs f on a new thread with a stack of `bytes` (reserved, touched only as used) and
// rethrows what it throws.
void run_with_large_stack(const std::function<void()>& f, size_t bytes = size_t(1) << 30);

}  // namespace raydb
