#pragma once
// The int64 fast path of exact (integral and DECIMAL) + - * for one batch: both
// operands and the result are kInt. Operands are scaled by fa / fb (aligning decimal
// scales for + and -), combined, and bounded by [lo, hi], all in int64 with overflow
// flags instead of the evaluator's per-row int128 path (which calls a library routine
// for each checked 128-bit multiplication). NULL rows compute 0.
#include <cstdint>

#include "exec/core/vector.h"
#include "plan/logical/expression.h"

namespace raydb::exec {

enum class Arith64 {
  kDone,      // r holds the results
  kOverflow,  // some result is outside [lo, hi]: the expression overflows
  kWiden,     // an intermediate left int64: redo the batch in int128 (it may still fit)
};

// r must be sized for a.size rows with its null mask set. op is kAdd, kSub or kMul.
Arith64 arith_exact_int64(plan::ArithOp op, const Vector& a, const Vector& b, int64_t fa, int64_t fb, int64_t lo,
                          int64_t hi, Vector& r);

}  // namespace raydb::exec
