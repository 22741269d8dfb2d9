#pragma once
// Conversions of the value on top of the stack, as the CPU evaluator's convert() and
// Vector::double_at: to DOUBLE, between exact types (scale and bounds), and from
// DOUBLE to exact types with the CPU's long double rounding.
#include "exec/cuda/general/program_builder.h"
#include "exec/cuda/general/program_operand.h"

namespace raydb::exec::cuda::general {

class ValueConversions {
 public:
  explicit ValueConversions(ProgramBuilder& b) : b_(b) {}

  // The top of the stack as a double: integers converted, decimals then divided by
  // 10^scale. NULL constants stay NULL.
  bool to_double(const plan::Expr& e, const Operand& o);
  // convert(v, to) of the evaluator.
  bool cast(const plan::Expr& e, const Operand& from, const Type& to);
  // The evaluator's result bounds for arithmetic of type t (arith_exact).
  static void arith_bounds(const Type& t, __int128& lo, __int128& hi);

 private:
  // From DOUBLE: the factor 10^scale and the bounds as the CPU's long double holds
  // them (program_interpreter.cuh, cast_double_exact).
  bool cast_double(const plan::Expr& e, const Operand& from, const Type& to);

  ProgramBuilder& b_;
};

}  // namespace raydb::exec::cuda::general
