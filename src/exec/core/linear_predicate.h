#pragma once
// A semi-linear predicate over one table (the 2004 paper's "a*x + b*y - c*z op k"):
//   sum_i coef_i * x_i + constant  op  0
// with x_i the stored values of integer-domain columns (integers, decimal-scaled
// integers, day numbers) and op one of = <> < <= > >=. Comparisons between columns
// are the case of two terms and constant 0. Compiled from the SQL comparison with
// decimal scales aligned exactly (integer arithmetic), so the hot loops multiply
// and add stored integers only.
//
// Exactness: the bounds of every subexpression over the columns' [min, max]
// statistics must stay within its SQL type (otherwise the CPU evaluator could raise
// an overflow error the fused form would not, and compile declines); the whole sum
// is evaluated in 64 bits when |constant| + sum |coef_i| * max|x_i| fits int64 (no
// partial sum can wrap), else in 128 bits (`wide`).
#include <cstdint>
#include <optional>
#include <vector>

#include "plan/logical/logical_query.h"
#include "storage/column.h"

namespace raydb::exec {

class LinearPredicate {
 public:
  struct Term {
    const Column* column = nullptr;
    int column_index = -1;
    int64_t coef = 0;
  };

  // Compiles a comparison of linear integer/decimal/date expressions over columns of
  // one table and constants (+, -, unary -, multiplication by a constant); nullopt
  // for anything else (the caller evaluates it generically).
  static std::optional<LinearPredicate> compile(const plan::Expr& e, const plan::LogicalQuery& q);

  int table_index() const { return table_; }
  const std::vector<Term>& terms() const { return terms_; }
  __int128 constant() const { return constant_; }
  plan::CompareOp op() const { return op_; }
  bool wide() const { return wide_; }

  // True when the row's stored values x[0..terms) satisfy the predicate.
  bool test(const int64_t* x) const;
  // out[i] = 1 when row rows[i] satisfies the predicate, else 0.
  void mark(const uint32_t* rows, size_t n, uint8_t* out) const;

 private:
  int table_ = -1;
  std::vector<Term> terms_;
  __int128 constant_ = 0;
  plan::CompareOp op_ = plan::CompareOp::kEq;
  bool wide_ = false;
};

}  // namespace raydb::exec
