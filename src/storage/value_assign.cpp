#include "storage/value_assign.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "common/error.h"

namespace raydb {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

[[noreturn]] void out_of_range(const Value& v, const ColumnBuilder& c, std::string_view table) {
  fail(ErrorKind::kInvalidInput, "value {} is out of range for column {}.{} ({})", v.to_string(), table, c.name(),
       c.type().to_string());
}

// Divides by 10^drop, rounding half away from zero (numeric's rule).
__int128 rescale(__int128 x, int from_scale, int to_scale) {
  if (to_scale >= from_scale) return x * pow10_i128(to_scale - from_scale);
  const __int128 d = pow10_i128(from_scale - to_scale);
  __int128 q = x / d, r = x % d;
  if (2 * (r < 0 ? -r : r) >= d) q += x < 0 ? -1 : 1;
  return q;
}

// Integer-physical targets: INTEGER, BIGINT, DECIMAL.
void append_exact(ColumnBuilder& c, const Value& v, std::string_view table) {
  const Type& t = c.type();
  const int to_scale = t.id == TypeId::kDecimal ? t.scale : 0;
  __int128 x = 0;
  if (v.type().id == TypeId::kDouble) {
    const double d = v.as_double();
    if (!std::isfinite(d)) out_of_range(v, c, table);
    const double scaled = t.id == TypeId::kDecimal ? std::round(d * double(pow10_i64(to_scale))) : std::nearbyint(d);
    if (!(std::fabs(scaled) < 1.7e38)) out_of_range(v, c, table);
    x = __int128(scaled);
  } else {
    x = rescale(v.as_hugeint(), v.type().id == TypeId::kDecimal ? v.type().scale : 0, to_scale);
  }
  __int128 hi = t.id == TypeId::kInteger ? INT32_MAX : INT64_MAX, lo = t.id == TypeId::kInteger ? INT32_MIN : INT64_MIN;
  if (t.id == TypeId::kDecimal) hi = pow10_i128(t.precision) - 1, lo = -hi;
  if (x < lo || x > hi) out_of_range(v, c, table);
  c.append_int(int64_t(x));
}

// A string literal read as the column's type (an untyped literal in PostgreSQL).
Value parse_literal(const std::string& text, const ColumnBuilder& c, std::string_view table) {
  const std::string_view s = trim(text);
  const Type& t = c.type();
  auto bad = [&]() -> Value {
    fail(ErrorKind::kInvalidInput, "invalid input for column {}.{} ({}): '{}'", table, c.name(), t.to_string(), text);
  };
  switch (t.id) {
    case TypeId::kInteger:
    case TypeId::kBigint: {
      int64_t n = 0;
      const char* b = s.data() + (!s.empty() && s[0] == '+');
      auto [p, ec] = std::from_chars(b, s.data() + s.size(), n);
      if (ec == std::errc::result_out_of_range)
        fail(ErrorKind::kInvalidInput, "value {} is out of range for column {}.{} ({})", text, table, c.name(),
             t.to_string());
      if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return bad();
      return Value::bigint(n);
    }
    case TypeId::kDecimal: {
      int64_t scaled = 0;
      if (!parse_decimal(s, 18, t.scale, scaled)) return bad();
      return Value::decimal(scaled, 18, t.scale);
    }
    case TypeId::kDouble: {
      std::string z(s);
      char* end = nullptr;
      const double d = std::strtod(z.c_str(), &end);
      if (z.empty() || end != z.c_str() + z.size()) return bad();
      return Value::float64(d);
    }
    case TypeId::kDate: {
      int32_t days = 0;
      if (!parse_date(s, days)) return bad();
      return Value::date(days);
    }
    case TypeId::kTimestamp: {
      int64_t micros = 0;
      if (!parse_timestamp(s, micros)) return bad();
      return Value::timestamp(micros);
    }
    case TypeId::kBoolean: {
      bool b = false;
      if (!parse_boolean(s, b)) return bad();
      return Value::boolean(b);
    }
    default: return bad();
  }
}

}  // namespace

void append_assigned(ColumnBuilder& c, const Value& v, bool literal, std::string_view table) {
  const Type& t = c.type();
  if (v.is_null()) return c.append_null(table);
  const TypeId from = v.type().id;
  if (t.id == TypeId::kVarchar) return c.append_string(from == TypeId::kVarchar ? v.as_string() : v.to_string());
  if (from == TypeId::kVarchar) {
    if (!literal)
      fail(ErrorKind::kInvalidInput, "column {}.{} is of type {} but the value '{}' is VARCHAR (CAST it)", table,
           c.name(), t.to_string(), v.as_string());
    return append_assigned(c, parse_literal(v.as_string(), c, table), false, table);
  }
  const bool numeric = v.type().is_numeric();
  // PostgreSQL's assignment casts: DATE <-> TIMESTAMP (a timestamp's date part), and
  // BOOLEAN only from BOOLEAN.
  if (t.id == TypeId::kTimestamp || t.id == TypeId::kBoolean) {
    if (from == t.id) return c.append_int(v.as_int());
    if (t.id == TypeId::kTimestamp && from == TypeId::kDate) return c.append_int(v.as_int() * kMicrosPerDay);
    fail(ErrorKind::kInvalidInput, "column {}.{} is of type {} but the value {} is {}", table, c.name(),
         t.to_string(), v.to_string(), v.type().to_string());
  }
  if (t.id == TypeId::kDate && from == TypeId::kTimestamp) return c.append_int(timestamp_days(v.as_int()));
  if (t.id == TypeId::kDate) {
    if (from != TypeId::kDate)
      fail(ErrorKind::kInvalidInput, "column {}.{} is of type DATE but the value {} is {}", table, c.name(),
           v.to_string(), v.type().to_string());
    return c.append_int(v.as_int());
  }
  if (!numeric)
    fail(ErrorKind::kInvalidInput, "column {}.{} is of type {} but the value {} is {}", table, c.name(),
         t.to_string(), v.to_string(), v.type().to_string());
  if (t.id == TypeId::kDouble) return c.append_double(v.as_double());
  append_exact(c, v, table);
}

Type storable_type_for(const Type& t, std::string_view column) {
  switch (t.id) {
    case TypeId::kHugeint: return Type::bigint();
    case TypeId::kDecimal: return t.precision > 18 ? Type::decimal(18, std::min<int>(t.scale, 18)) : t;
    case TypeId::kNull:
      fail(ErrorKind::kInvalidInput, "column {} has no type (a bare NULL); CAST it to the type to store", column);
    default: return t;
  }
}

TablePtr assign_rows(const Table& target, const Table& src) {
  if (src.column_count() != target.column_count())
    fail(ErrorKind::kBinder, "{}: the input has {} columns, the table {}", target.name(), src.column_count(),
         target.column_count());
  std::vector<ColumnPtr> cols;
  for (size_t c = 0; c < target.column_count(); c++) {
    const Column& in = src.column(c);
    ColumnBuilder b(target.column(c).name(), target.column(c).type(), target.column(c).nullable());
    b.reserve(src.row_count());
    const bool text = in.type().id == TypeId::kVarchar;
    for (uint64_t i = 0; i < src.row_count(); i++) append_assigned(b, in.get(i), text, target.name());
    cols.push_back(b.finish());
  }
  return std::make_shared<const Table>(target.name(), std::move(cols));
}

}  // namespace raydb
