#pragma once
// What one compiled sub-expression leaves on the interpreter's stack, as the
// expression compiler's classes (expression_emitter.h and its helpers) pass it along.
#include "exec/core/vector.h"

namespace raydb::exec::cuda::general {

struct Operand {
  Type type;
  VectorKind kind = VectorKind::kInt;
  const Dictionary* dict = nullptr;
};

inline bool is_string(const Operand& o) { return o.kind == VectorKind::kCode || o.type.id == TypeId::kVarchar; }
inline bool is_numeric(const Operand& o) { return o.kind == VectorKind::kInt || o.kind == VectorKind::kHuge; }
inline int scale_of(const Type& t) { return t.id == TypeId::kDecimal ? t.scale : 0; }

}  // namespace raydb::exec::cuda::general
