#include "sql/constant_folder.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace raydb::sql {

using plan::ArithOp;

namespace {

constexpr __int128 kInt128Max = ~(__int128(1) << 127);
constexpr __int128 kInt128Min = __int128(1) << 127;

bool fits(__int128 v, const Type& t) {
  switch (t.id) {
    case TypeId::kInteger:
    case TypeId::kDate: return v >= INT32_MIN && v <= INT32_MAX;
    case TypeId::kBigint: return v >= INT64_MIN && v <= INT64_MAX;
    case TypeId::kHugeint: return true;
    case TypeId::kDecimal: {
      __int128 lim = pow10_i128(t.precision);
      return v > -lim && v < lim;
    }
    default: return false;
  }
}

Value make_int_value(__int128 v, const Type& t) {
  switch (t.id) {
    case TypeId::kInteger: return Value::integer(int32_t(v));
    case TypeId::kBigint: return Value::bigint(int64_t(v));
    case TypeId::kHugeint: return Value::hugeint(v);
    case TypeId::kDate: return Value::date(int32_t(v));
    default: return Value::decimal(int64_t(v), t.precision, t.scale);
  }
}

int scale_of(const Value& v) { return v.type().id == TypeId::kDecimal ? v.type().scale : 0; }

// v scaled by 10^(to - from); false on overflow.
bool rescale_up(__int128 v, int from, int to, __int128& out) {
  out = v;
  for (int i = from; i < to; i++)
    if (__builtin_mul_overflow(out, __int128(10), &out)) return false;
  return true;
}

// Divides by 10^digits rounding half away from zero.
__int128 round_div_pow10(__int128 v, int digits) {
  if (digits <= 0) return v;
  __int128 p = pow10_i128(digits);
  __int128 q = v / p, r = v % p;
  if (2 * (r < 0 ? -r : r) >= p) q += v < 0 ? -1 : 1;
  return q;
}

std::optional<__int128> int_op(ArithOp op, __int128 a, __int128 b) {
  __int128 r;
  switch (op) {
    case ArithOp::kAdd:
      if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
      return r;
    case ArithOp::kSub:
      if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
      return r;
    case ArithOp::kMul:
      if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
      return r;
    case ArithOp::kDiv:
    case ArithOp::kMod:
      if (b == 0 || (a == kInt128Min && b == -1)) return std::nullopt;
      return op == ArithOp::kDiv ? a / b : a % b;  // C++ truncates toward zero, as SQL does
  }
  return std::nullopt;
}

std::optional<Value> parse_string_as(const std::string& text, const Type& to) {
  std::string_view s = text;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  switch (to.id) {
    case TypeId::kInteger:
    case TypeId::kBigint: {
      int64_t v = 0;
      const char* b = s.data();
      if (!s.empty() && s.front() == '+') b++;
      auto r = std::from_chars(b, s.data() + s.size(), v);
      if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || !fits(v, to)) return std::nullopt;
      return make_int_value(v, to);
    }
    case TypeId::kDecimal: {
      int64_t v = 0;
      if (!parse_decimal(s, to.precision, to.scale, v)) return std::nullopt;
      return Value::decimal(v, to.precision, to.scale);
    }
    case TypeId::kDouble: {
      std::string z(s);
      char* end = nullptr;
      errno = 0;
      double d = std::strtod(z.c_str(), &end);
      if (z.empty() || end != z.c_str() + z.size() || errno == ERANGE) return std::nullopt;
      return Value::float64(d);
    }
    case TypeId::kDate: {
      int32_t days = 0;
      if (!parse_date(s, days)) return std::nullopt;
      return Value::date(days);
    }
    case TypeId::kTimestamp: {
      int64_t micros = 0;
      if (!parse_timestamp(s, micros)) return std::nullopt;
      return Value::timestamp(micros);
    }
    case TypeId::kBoolean: {
      bool b = false;
      if (!parse_boolean(s, b)) return std::nullopt;
      return Value::boolean(b);
    }
    case TypeId::kVarchar: return Value::varchar(text);
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<Value> fold_arithmetic(ArithOp op, const Value& l, const Value& r, const Type& result) {
  if (l.is_null() || r.is_null()) return Value::null(result);
  switch (result.id) {
    case TypeId::kDouble: {
      double a = l.type().id == TypeId::kHugeint ? double(l.as_hugeint()) : l.as_double();
      double b = r.type().id == TypeId::kHugeint ? double(r.as_hugeint()) : r.as_double();
      switch (op) {
        case ArithOp::kAdd: return Value::float64(a + b);
        case ArithOp::kSub: return Value::float64(a - b);
        case ArithOp::kMul: return Value::float64(a * b);
        case ArithOp::kDiv:
          if (b == 0) return std::nullopt;
          return Value::float64(a / b);
        case ArithOp::kMod:
          if (b == 0) return std::nullopt;
          return Value::float64(std::fmod(a, b));
      }
      return std::nullopt;
    }
    case TypeId::kDecimal: {
      // Integral operands are DECIMAL(18,0); + - % align scales, * adds them.
      __int128 a = l.as_hugeint(), b = r.as_hugeint();
      int sa = scale_of(l), sb = scale_of(r);
      if (op != ArithOp::kMul) {
        if (!rescale_up(a, sa, result.scale, a) || !rescale_up(b, sb, result.scale, b)) return std::nullopt;
      }
      auto v = int_op(op, a, b);
      if (!v || !fits(*v, result)) return std::nullopt;
      return make_int_value(*v, result);
    }
    case TypeId::kDate: {
      // DATE +- INTEGER, INTEGER + DATE: day arithmetic.
      auto v = int_op(op, l.as_hugeint(), r.as_hugeint());
      if (!v || !fits(*v, result)) return std::nullopt;
      return Value::date(int32_t(*v));
    }
    case TypeId::kInteger:
    case TypeId::kBigint:
    case TypeId::kHugeint: {
      auto v = int_op(op, l.as_hugeint(), r.as_hugeint());  // DATE - DATE lands here too
      if (!v || !fits(*v, result)) return std::nullopt;
      return make_int_value(*v, result);
    }
    default: return std::nullopt;
  }
}

std::optional<Value> fold_negate(const Value& v, const Type& result) {
  if (v.is_null()) return Value::null(result);
  if (result.id == TypeId::kDouble) return Value::float64(-v.as_double());
  __int128 x = v.as_hugeint();
  if (x == kInt128Min) return std::nullopt;
  if (!fits(-x, result)) return std::nullopt;
  return make_int_value(-x, result);
}

std::optional<Value> cast_constant(const Value& v, const Type& to) {
  if (v.is_null()) return Value::null(to);
  const Type& from = v.type();
  if (from == to) return v;
  if (from.id == TypeId::kVarchar) return parse_string_as(v.as_string(), to);
  if (to.id == TypeId::kVarchar) {
    if (from.id == TypeId::kNull) return std::nullopt;
    return Value::varchar(v.to_string());
  }
  // DATE <-> TIMESTAMP (midnight; the date part), BOOLEAN <-> integers (PostgreSQL's casts).
  if (from.id == TypeId::kDate && to.id == TypeId::kTimestamp) {
    int64_t micros = 0;
    if (__builtin_mul_overflow(v.as_int(), kMicrosPerDay, &micros)) return std::nullopt;
    return Value::timestamp(micros);
  }
  if (from.id == TypeId::kTimestamp && to.id == TypeId::kDate) return Value::date(timestamp_days(v.as_int()));
  if (from.id == TypeId::kBoolean && to.is_integral()) return make_int_value(v.as_int() != 0, to);
  if (from.is_integral() && to.id == TypeId::kBoolean) return Value::boolean(v.as_hugeint() != 0);
  if (!from.is_numeric() || !to.is_numeric()) return std::nullopt;
  if (to.id == TypeId::kDouble) {
    return Value::float64(from.id == TypeId::kHugeint ? double(v.as_hugeint()) : v.as_double());
  }
  int target_scale = to.id == TypeId::kDecimal ? to.scale : 0;
  __int128 scaled;
  if (from.id == TypeId::kDouble) {
    double d = v.as_double() * double(pow10_i128(target_scale));
    if (!std::isfinite(d)) return std::nullopt;
    // As the evaluator: to DECIMAL half away from zero (PostgreSQL goes through
    // numeric), to an integer type half to even (PostgreSQL's rint): 2.5 -> 2.
    d = to.id == TypeId::kDecimal ? std::round(d) : std::nearbyint(d);
    if (d >= 1.7e38 || d <= -1.7e38) return std::nullopt;
    scaled = __int128(d);
  } else {
    int from_scale = scale_of(v);
    if (from_scale <= target_scale) {
      if (!rescale_up(v.as_hugeint(), from_scale, target_scale, scaled)) return std::nullopt;
    } else {
      scaled = round_div_pow10(v.as_hugeint(), from_scale - target_scale);
    }
  }
  if (!fits(scaled, to)) return std::nullopt;
  return make_int_value(scaled, to);
}

}  // namespace raydb::sql
