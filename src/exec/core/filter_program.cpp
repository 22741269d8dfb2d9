#include "exec/core/filter_program.h"

#include <algorithm>

#include "common/expression_depth.h"
#include "exec/core/expression_evaluator.h"

namespace raydb::exec {

using plan::Expr;
using plan::ExprKind;

std::optional<FilterProgram> FilterProgram::compile(const Expr& e, const plan::LogicalQuery& q) {
  if (may_be_null(e)) return std::nullopt;  // three-valued leaves: the generic evaluator
  FilterProgram p;
  if (!p.add(e, q, 1)) return std::nullopt;
  if (p.steps_.size() == 1 && p.steps_[0].op == Op::kRange) return std::nullopt;
  return p;
}

// Appends the postfix steps of `e`, whose result lands at stack height `level`.
// AND/OR combine operand by operand (binary steps), so the stack grows with the
// nesting depth, not with the operand count of a long OR.
bool FilterProgram::add(const Expr& e, const plan::LogicalQuery& q, int level) {
  ExpressionDepthGuard depth_guard;  // one level of recursion (issue 14)
  auto same_table = [&](int t) {
    if (table_ >= 0 && t != table_) return false;
    table_ = t;
    return true;
  };
  if (auto c = ColumnPredicate::compile(e, q)) {
    if (!same_table(c->table_index())) return false;
    steps_.push_back({Op::kRange, uint32_t(ranges_.size())});
    ranges_.push_back(std::move(*c));
    depth_ = std::max(depth_, level);
    return true;
  }
  switch (e.kind) {
    case ExprKind::kCompare: {
      auto l = LinearPredicate::compile(e, q);
      if (!l || !same_table(l->table_index())) return false;
      steps_.push_back({Op::kLinear, uint32_t(linears_.size())});
      linears_.push_back(std::move(*l));
      depth_ = std::max(depth_, level);
      return true;
    }
    case ExprKind::kAnd:
    case ExprKind::kOr: {
      const Op op = e.kind == ExprKind::kAnd ? Op::kAnd : Op::kOr;
      for (size_t i = 0; i < e.children.size(); i++) {
        if (!add(*e.children[i], q, level + (i > 0 ? 1 : 0))) return false;
        if (i > 0) steps_.push_back({op, 2});
      }
      return true;
    }
    case ExprKind::kNot:
      if (!add(*e.children[0], q, level)) return false;
      steps_.push_back({Op::kNot, 1});
      return true;
    default: return false;
  }
}

void FilterProgram::mark(const uint32_t* rows, size_t n, std::vector<uint8_t>& out) const {
  out.resize(n);
  if (n == 0) return;
  // One byte mask per stack slot below the bottom one (`out`), reused on this thread.
  thread_local std::vector<std::vector<uint8_t>> stack;
  if (stack.size() < size_t(depth_)) stack.resize(size_t(depth_));
  for (int i = 1; i < depth_; i++)
    if (stack[size_t(i)].size() < n) stack[size_t(i)].resize(n);
  auto slot = [&](size_t i) { return i == 0 ? out.data() : stack[i].data(); };
  size_t sp = 0;
  for (const Step& s : steps_) {
    switch (s.op) {
      case Op::kRange: ranges_[s.arg].mark(rows, n, slot(sp++)); break;
      case Op::kLinear: linears_[s.arg].mark(rows, n, slot(sp++)); break;
      case Op::kAnd:
      case Op::kOr: {
        sp--;
        uint8_t* a = slot(sp - 1);
        const uint8_t* b = slot(sp);
        if (s.op == Op::kAnd)
          for (size_t i = 0; i < n; i++) a[i] &= b[i];
        else
          for (size_t i = 0; i < n; i++) a[i] |= b[i];
        break;
      }
      case Op::kNot: {
        uint8_t* a = slot(sp - 1);
        for (size_t i = 0; i < n; i++) a[i] ^= 1;
        break;
      }
    }
  }
}

size_t FilterProgram::filter(uint32_t* rows, size_t n) const {
  thread_local std::vector<uint8_t> keep;
  mark(rows, n, keep);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    rows[m] = rows[i];
    m += keep[i];
  }
  return m;
}

}  // namespace raydb::exec
