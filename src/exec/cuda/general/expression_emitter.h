#pragma once
// Emits the postfix program of one bound expression (expression_compiler.h), one
// method per expression kind; binary operators emit their taller operand first
// (Sethi-Ullman order) so deep expressions fit the interpreter's stack.
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "exec/cuda/general/program_builder.h"
#include "exec/cuda/general/program_operand.h"
#include "exec/cuda/general/program_strings.h"
#include "exec/cuda/general/value_conversions.h"

namespace raydb::exec::cuda::general {

class ExpressionEmitter {
 public:
  ExpressionEmitter(const plan::LogicalQuery& q, CompiledProgram& p) : b_(q, p), conv_(b_) {}

  // nullopt when the expression does not compile (why() says why, if known).
  std::optional<Operand> emit(const plan::Expr& e);
  const std::string& why() const { return b_.why(); }
  // Fixes the program's string domain (program_strings.h); call once, after emit().
  const Dictionary* finish() { return strings_.finish(b_.program()); }

 private:
  std::optional<Operand> column(const plan::Expr& e);
  std::optional<Operand> constant(const plan::Expr& e);
  std::optional<Operand> negate(const plan::Expr& e);
  std::optional<Operand> arith(const plan::Expr& e);
  std::optional<Operand> compare(const plan::Expr& e, plan::CompareOp op, const plan::Expr& l, const plan::Expr& r);
  std::optional<Operand> and_or(const plan::Expr& e);
  std::optional<Operand> not_(const plan::Expr& e);
  std::optional<Operand> between(const plan::Expr& e);
  std::optional<Operand> in_list(const plan::Expr& e);
  std::optional<Operand> in_key_set(const plan::Expr& e);
  std::optional<Operand> in_set(const plan::Expr& e);
  std::optional<Operand> function(const plan::Expr& e);
  std::optional<Operand> date_part(const plan::Expr& e, uint8_t part);
  std::optional<Operand> dictionary_function(const plan::Expr& e);
  std::optional<Operand> like(const plan::Expr& e);
  std::optional<Operand> is_null(const plan::Expr& e);
  std::optional<Operand> cast(const plan::Expr& e);
  std::optional<Operand> case_(const plan::Expr& e);
  // A boolean predicate over one VARCHAR column and non-NULL constants: a table over
  // the dictionary's codes, each entry decided by the CPU's ColumnPredicate.
  std::optional<Operand> column_table(const plan::Expr& e);
  // The height of e's tree, each node's computed once per emitter: recomputed at every
  // binary operator it made a left-deep chain of n terms cost n^2 / 2 visits (a sum of
  // 30,000 terms took 49 s to admit under `auto`, 282 s under the sanitizers).
  int height(const plan::Expr& e);
  // The two operands of a binary operator, each followed by `convert`.
  template <class Convert>
  std::pair<std::optional<Operand>, std::optional<Operand>> operands(const plan::Expr& l, const plan::Expr& r,
                                                                     Convert convert);

  ProgramBuilder b_;
  ProgramStrings strings_;
  ValueConversions conv_;
  std::unordered_map<const plan::Expr*, int> heights_;
};

}  // namespace raydb::exec::cuda::general
