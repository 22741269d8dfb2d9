#include "server/pg_types.h"

#include <cmath>

namespace raydb::server {

int32_t type_oid(const Type& t) {
  switch (t.id) {
    case TypeId::kBoolean: return oid::kBool;
    case TypeId::kInteger: return oid::kInt4;
    case TypeId::kBigint: return oid::kInt8;
    case TypeId::kHugeint:
    case TypeId::kDecimal: return oid::kNumeric;
    case TypeId::kDouble: return oid::kFloat8;
    case TypeId::kDate: return oid::kDate;
    case TypeId::kTimestamp: return oid::kTimestamp;
    case TypeId::kVarchar:
    case TypeId::kNull: return oid::kText;
  }
  return oid::kText;
}

int16_t type_size(const Type& t) {
  switch (t.id) {
    case TypeId::kBoolean: return 1;
    case TypeId::kInteger:
    case TypeId::kDate: return 4;
    case TypeId::kBigint:
    case TypeId::kTimestamp:
    case TypeId::kDouble: return 8;
    default: return -1;
  }
}

int32_t type_modifier(const Type& t) {
  if (t.id == TypeId::kDecimal) return ((int32_t(t.precision) << 16) | t.scale) + 4;
  return -1;
}

std::optional<std::string> text_value(const QueryResult::ColumnData& c, size_t row) {
  if (!c.nulls.empty() && c.nulls[row]) return std::nullopt;
  switch (c.type.id) {
    case TypeId::kNull: return std::nullopt;
    case TypeId::kBoolean: return std::string(c.ints[row] ? "t" : "f");
    case TypeId::kInteger:
    case TypeId::kBigint: return std::to_string(c.ints[row]);
    case TypeId::kDate: return format_date(int32_t(c.ints[row]));
    case TypeId::kTimestamp: return format_timestamp(c.ints[row]);
    case TypeId::kHugeint: return format_int128(c.huge[row]);
    case TypeId::kDecimal:
      return format_decimal(c.type.precision > 18 ? c.huge[row] : __int128(c.ints[row]), c.type.scale);
    case TypeId::kDouble: {
      const double d = c.doubles[row];
      if (std::isnan(d)) return std::string("NaN");
      if (std::isinf(d)) return std::string(d > 0 ? "Infinity" : "-Infinity");
      return Value::float64(d).to_string();
    }
    case TypeId::kVarchar: return c.strings[row];
  }
  return std::nullopt;
}

}  // namespace raydb::server
