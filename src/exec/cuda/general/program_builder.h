#pragma once
// Appends instructions to one CompiledProgram: tracks the stack depth (so nothing
// overflows the interpreter's kStackDepth slots), the columns it reads, and the first
// reason it cannot compile.
#include <optional>
#include <string>

#include "exec/cuda/general/expression_compiler.h"

namespace raydb::exec::cuda::general {

class ProgramBuilder {
 public:
  ProgramBuilder(const plan::LogicalQuery& q, CompiledProgram& p) : q_(q), p_(p) {}

  const plan::LogicalQuery& query() const { return q_; }
  CompiledProgram& program() { return p_; }

  // Records the first reason; false / nullopt for the caller to return.
  bool reject(std::string reason);
  std::nullopt_t fail(std::string reason);
  const std::string& why() const { return why_; }

  // `in` computes `src`, popping `pops` and pushing `pushes` values; cast_from is a
  // cast's source type (for its error message).
  void push(const plan::Expr& src, ProgInstr in, int pops, int pushes, Type cast_from = Type());
  // A logical operator over the top `pops` booleans (AND/OR: 2, NOT: 1).
  void push_logic(const plan::Expr& src, ProgOp op, int pops);
  // Checked before each sub-expression: its first push must still fit the stack
  // (operators pop their operands before pushing, so leaves reach the maximum).
  bool check_depth();
  // The program's column slot of a column reference (added on first use).
  int column_slot(const plan::Expr& e);

 private:
  const plan::LogicalQuery& q_;
  CompiledProgram& p_;
  int depth_ = 0;
  std::string why_;
};

}  // namespace raydb::exec::cuda::general
