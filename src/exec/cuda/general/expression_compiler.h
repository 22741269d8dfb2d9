#pragma once
// Compiles a bound expression into a GPU program (device_program.h) with the CPU
// evaluator's semantics, or says why it cannot. Pure C++ (no CUDA), so plan analysis
// answers the same in every build.
//
// What compiles: column references (integral, DECIMAL, DATE, DOUBLE, VARCHAR as
// dictionary codes), constants, + - * / % and negation (exact, with the evaluator's
// overflow bounds; DOUBLE one IEEE operation at a time), comparisons, AND/OR/NOT,
// BETWEEN, IN lists (over 64 constants: one set instruction, in_set.h), IS [NOT] NULL,
// LIKE, CAST between numeric types (from DOUBLE with the CPU's 80-bit rounding), CASE,
// the date fields and date_trunc (civil_date.h), and string functions of one VARCHAR
// column and constants (mapped per dictionary code, dictionary_function.h).
// A predicate over one VARCHAR column and constants (LIKE, string comparisons and
// ranges, IN lists of strings, and/or/not of these) becomes a lookup table over the
// column's dictionary codes, filled on the host by the CPU's own ColumnPredicate.
// Other string values (CASE mixing constants and columns, columns of several
// dictionaries, comparisons between them, LIKE over expressions) are codes of one
// merged domain per program (string_domain.h): each column's codes go through a
// translation table, constants become their rank, LIKE a table over the domain.
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "exec/core/vector.h"
#include "exec/cuda/general/device_program.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec::cuda::general {

struct HostLookup {
  std::vector<int64_t> values;
  std::vector<uint8_t> nulls;
  int64_t base = 0;
  // A large table kept by a cache (a string function's per-code map, 27 MB for 3 M
  // phone numbers): read in place of values/nulls, so a compile copies no entries.
  // Bound programs keep its device copy (bound_program.cpp) while it is among the last few.
  std::shared_ptr<const HostLookup> shared;
};

struct CompiledProgram {
  std::vector<ProgInstr> ins;
  std::vector<const plan::Expr*> source;  // per instruction: the expression it computes (error messages)
  struct Col {
    int table = 0;
    ColumnPtr column;
  };
  std::vector<Col> columns;
  std::vector<HostLookup> lookups;
  Type type;                            // the result's SQL type
  // kInt, kHuge, kCode (codes of `dict`: a column's dictionary or the program's own
  // merged domain) or kDouble (the 8 bits).
  VectorKind kind = VectorKind::kInt;
  const Dictionary* dict = nullptr;     // kCode
  // The merged string domain when the program needs one (`dict` then points to it);
  // result vectors holding its codes are decoded before the program is released.
  std::shared_ptr<const Dictionary> domain;
  std::vector<Type> cast_from;          // per instruction: a cast's source type (error messages)
  uint64_t tables = 0;                  // tables read (bit mask)
};

class ExpressionCompiler {
 public:
  explicit ExpressionCompiler(const plan::LogicalQuery& q) : q_(q) {}
  std::variant<CompiledProgram, std::string> compile(const plan::Expr& e) const;
  // A probe-side join key compared with build keys of `build_dict` codes: codes of
  // another dictionary are translated through a lookup (absent strings: NULL, no match).
  std::variant<CompiledProgram, std::string> compile_join_probe(const plan::Expr& e, const Dictionary* build_dict) const;

 private:
  const plan::LogicalQuery& q_;
};

}  // namespace raydb::exec::cuda::general
