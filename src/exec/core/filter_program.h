#pragma once
// A boolean combination (AND, OR, NOT; CNF, DNF or any nesting) of single-column
// range predicates (ColumnPredicate: comparisons, BETWEEN, IN lists of any length,
// LIKE) and semi-linear predicates (LinearPredicate) over one table, as a postfix
// program. Subtrees over one column collapse into one range leaf, so an OR of IN
// lists on a column is a single leaf; what remains are the combinations across
// columns. Both backends run it: the CPU's scan per batch (mark), the CUDA star
// kernels per tile (exec/cuda/block/pred.cuh), so no predicate of this shape falls
// back to the generic evaluator or the general path.
//
// NULLs: stored columns hold none today and the leaves compile only NULL-free
// constants, so every leaf is TRUE or FALSE and NOT is a plain complement. A leaf
// over a nullable column would need the unknown state; compile declines
// may_be_null expressions, so such a predicate stays on the generic evaluator.
#include <cstdint>
#include <optional>
#include <vector>

#include "exec/core/column_predicate.h"
#include "exec/core/linear_predicate.h"

namespace raydb::exec {

class FilterProgram {
 public:
  enum class Op : uint8_t { kRange, kLinear, kAnd, kOr, kNot };
  struct Step {
    Op op = Op::kRange;
    uint32_t arg = 0;  // kRange / kLinear: leaf index; kAnd / kOr: operand count
  };

  // Compiles `e` when it is an AND/OR/NOT tree whose leaves are range or semi-linear
  // predicates over one table and it is not a single range predicate (the caller's
  // ColumnPredicate covers that); nullopt otherwise.
  static std::optional<FilterProgram> compile(const plan::Expr& e, const plan::LogicalQuery& q);

  int table_index() const { return table_; }
  const std::vector<Step>& steps() const { return steps_; }
  const std::vector<ColumnPredicate>& ranges() const { return ranges_; }
  const std::vector<LinearPredicate>& linears() const { return linears_; }
  // The deepest evaluation stack the program needs.
  int depth() const { return depth_; }

  // out[i] = 1 when row rows[i] satisfies the program, else 0 (out resized to n).
  void mark(const uint32_t* rows, size_t n, std::vector<uint8_t>& out) const;
  // Keeps the rows of rows[0..n) that satisfy the program (compacting in place);
  // returns the new count.
  size_t filter(uint32_t* rows, size_t n) const;

 private:
  bool add(const plan::Expr& e, const plan::LogicalQuery& q, int level);

  int table_ = -1;
  int depth_ = 0;
  std::vector<Step> steps_;
  std::vector<ColumnPredicate> ranges_;
  std::vector<LinearPredicate> linears_;
};

}  // namespace raydb::exec
