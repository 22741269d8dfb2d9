#include "exec/cuda/general/in_set.h"

#include <algorithm>

#include "exec/core/vector.h"

namespace raydb::exec::cuda::general {

using plan::ExprKind;

namespace {

int scale_of_type(const Type& t) { return t.id == TypeId::kDecimal ? t.scale : 0; }

// An exact number's item as x's stored integer (x at scale sx); nullopt when the item
// can never equal an int64 x (a fraction below x's scale, or beyond int64).
std::optional<int64_t> as_stored(__int128 v, int sc, int sx) {
  __int128 t = 0;
  if (sx >= sc) {
    if (__builtin_mul_overflow(v, pow10_i128(sx - sc), &t)) return std::nullopt;
  } else {
    const __int128 f = pow10_i128(sc - sx);
    if (v % f != 0) return std::nullopt;
    t = v / f;
  }
  if (t < __int128(INT64_MIN) || t > __int128(INT64_MAX)) return std::nullopt;
  return int64_t(t);
}

}  // namespace

std::optional<InSet> InSet::integers(const plan::Expr& e, const Type& x) {
  InSet s;
  const int sx = scale_of_type(x);
  for (size_t k = 1; k < e.children.size(); k++) {
    const plan::Expr& c = *e.children[k];
    if (c.kind != ExprKind::kConstant) return std::nullopt;
    if (c.value.is_null()) {
      s.has_null = true;
      continue;
    }
    const VectorKind kind = kind_of(c.type);
    if (c.type.id == TypeId::kDouble || c.type.id == TypeId::kVarchar ||
        (kind != VectorKind::kInt && kind != VectorKind::kHuge))
      return std::nullopt;
    const int sc = scale_of_type(c.type);
    // The CPU compares through doubles when scaling leaves int128; at most 18 digits
    // apart it never does for an int64 x (|x| * 10^18 < 2^127).
    if (sx - sc > 18 || sc - sx > 18) return std::nullopt;
    const Vector v = Vector::constant(c.value, c.type, 1);
    if (auto t = as_stored(v.int_at(0), sc, sx)) s.values.push_back(*t);
  }
  std::sort(s.values.begin(), s.values.end());
  s.values.erase(std::unique(s.values.begin(), s.values.end()), s.values.end());
  return s;
}

std::optional<InSet> InSet::strings(const plan::Expr& e) {
  InSet s;
  for (size_t k = 1; k < e.children.size(); k++) {
    const plan::Expr& c = *e.children[k];
    if (c.kind != ExprKind::kConstant) return std::nullopt;
    if (c.value.is_null()) {
      s.has_null = true;
      continue;
    }
    if (c.type.id != TypeId::kVarchar) return std::nullopt;
    s.texts.push_back(c.value.as_string());
  }
  return s;
}

}  // namespace raydb::exec::cuda::general
