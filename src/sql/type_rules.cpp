#include "sql/type_rules.h"

#include <algorithm>

namespace raydb::sql {

using plan::AggFunc;
using plan::ArithOp;

namespace {
int rank(TypeId id) {  // integral width order
  return id == TypeId::kInteger ? 0 : id == TypeId::kBigint ? 1 : 2;
}
int decimal_scale(const Type& t) { return t.id == TypeId::kDecimal ? t.scale : 0; }
}  // namespace

std::optional<Type> arithmetic_type(ArithOp op, const Type& l0, const Type& r0) {
  Type l = l0, r = r0;
  if (l.id == TypeId::kNull && r.id == TypeId::kNull) return Type::null();
  if (l.id == TypeId::kNull) l = r.id == TypeId::kDate ? Type::integer() : r;
  if (r.id == TypeId::kNull) r = l.id == TypeId::kDate ? Type::integer() : l;

  // Dates: DATE +- INTEGER -> DATE, INTEGER + DATE -> DATE, DATE - DATE -> INTEGER days.
  if (l.id == TypeId::kDate || r.id == TypeId::kDate) {
    if (l.id == TypeId::kDate && r.id == TypeId::kInteger && (op == ArithOp::kAdd || op == ArithOp::kSub))
      return Type::date();
    if (l.id == TypeId::kInteger && r.id == TypeId::kDate && op == ArithOp::kAdd) return Type::date();
    if (l.id == TypeId::kDate && r.id == TypeId::kDate && op == ArithOp::kSub) return Type::integer();
    return std::nullopt;
  }
  if (!l.is_numeric() || !r.is_numeric()) return std::nullopt;
  if (l.id == TypeId::kDouble || r.id == TypeId::kDouble) return Type::float64();
  if (l.id == TypeId::kDecimal || r.id == TypeId::kDecimal) {
    // Integral operands act as DECIMAL(18,0).
    int s1 = decimal_scale(l), s2 = decimal_scale(r);
    switch (op) {
      case ArithOp::kAdd:
      case ArithOp::kSub:
      case ArithOp::kMod: return Type::decimal(18, std::max(s1, s2));
      case ArithOp::kMul:
        if (s1 + s2 > 18) return std::nullopt;
        return Type::decimal(18, s1 + s2);
      case ArithOp::kDiv: return Type::float64();
    }
  }
  // Both integral.
  int w = std::max(rank(l.id), rank(r.id));
  if (w == 2) return Type::hugeint();
  // INTEGER / INTEGER is BIGINT, as * is: -2^31 / -1 = 2^31 is exact, never an error.
  if (op == ArithOp::kDiv) return Type::bigint();
  if (op == ArithOp::kMod) return w == 1 ? Type::bigint() : Type::integer();  // |x % y| <= |x|
  if (w == 0) return Type::bigint();  // INTEGER op INTEGER cannot overflow a BIGINT
  return op == ArithOp::kMul ? Type::hugeint() : Type::bigint();
}

std::optional<Type> negate_type(const Type& t) {
  switch (t.id) {
    case TypeId::kNull: return Type::null();
    case TypeId::kInteger: return Type::bigint();  // -(-2^31) does not fit an INTEGER
    case TypeId::kBigint:
    case TypeId::kHugeint:
    case TypeId::kDouble:
    case TypeId::kDecimal: return t;
    default: return std::nullopt;
  }
}

bool comparable(const Type& a, const Type& b) {
  if (a.id == TypeId::kNull || b.id == TypeId::kNull) return true;
  if (a.is_numeric() && b.is_numeric()) return true;
  return a.id == b.id;
}

std::optional<Type> common_type(const Type& a, const Type& b) {
  if (a.id == TypeId::kNull) return b;
  if (b.id == TypeId::kNull) return a;
  if (a == b) return a;
  if (a.is_numeric() && b.is_numeric()) {
    if (a.id == TypeId::kDouble || b.id == TypeId::kDouble) return Type::float64();
    if (a.id == TypeId::kDecimal || b.id == TypeId::kDecimal)
      return Type::decimal(18, std::max(decimal_scale(a), decimal_scale(b)));
    return rank(a.id) >= rank(b.id) ? a : b;
  }
  return std::nullopt;  // includes DECIMAL vs DECIMAL of equal id but handled above
}

std::optional<Type> aggregate_type(AggFunc f, const Type& arg) {
  switch (f) {
    case AggFunc::kCountStar:
    case AggFunc::kCount: return Type::bigint();
    case AggFunc::kSum:
      switch (arg.id) {
        case TypeId::kInteger: return Type::bigint();
        case TypeId::kBigint:
        case TypeId::kHugeint: return Type::hugeint();
        case TypeId::kDecimal: return Type::decimal(38, arg.scale);
        case TypeId::kDouble: return Type::float64();
        default: return std::nullopt;
      }
    case AggFunc::kAvg:
      if (arg.is_numeric()) return Type::float64();
      return std::nullopt;
    case AggFunc::kMin:
    case AggFunc::kMax:
      if (arg.id == TypeId::kNull) return std::nullopt;
      return arg;  // BOOLEAN too: false < true
    case AggFunc::kOrderStat: return std::nullopt;  // typed by bind_order_stat (depends on its kind)
  }
  return std::nullopt;
}

bool castable(const Type& from, const Type& to) {
  if (from.id == TypeId::kNull || from == to) return true;
  if (from.is_numeric() && to.is_numeric()) return true;
  // Text to and from every other type, parsed or printed at run time (bad text is an
  // execution error naming the value).
  if (to.id == TypeId::kVarchar) return true;
  // DATE <-> TIMESTAMP, BOOLEAN <-> INTEGER/BIGINT, as PostgreSQL casts them.
  auto either = [&](TypeId a, TypeId b) { return (from.id == a && to.id == b) || (from.id == b && to.id == a); };
  if (either(TypeId::kDate, TypeId::kTimestamp) || either(TypeId::kBoolean, TypeId::kInteger) ||
      either(TypeId::kBoolean, TypeId::kBigint))
    return true;
  return from.id == TypeId::kVarchar && to.id != TypeId::kNull;
}

}  // namespace raydb::sql
