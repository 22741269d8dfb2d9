#include "raydb/value.h"

#include <cmath>

#include <fmt/format.h>

namespace raydb {

double Value::as_double() const {
  switch (type_.id) {
    case TypeId::kDouble: return d_;
    case TypeId::kDecimal: return double(h_) / double(pow10_i128(type_.scale));
    default: return double(h_);
  }
}

std::string Value::to_string() const {
  if (null_) return "NULL";
  switch (type_.id) {
    case TypeId::kNull: return "NULL";
    case TypeId::kBoolean: return h_ ? "true" : "false";
    case TypeId::kInteger:
    case TypeId::kBigint:
    case TypeId::kHugeint: return format_int128(h_);
    case TypeId::kDouble: {
      if (std::isnan(d_)) return "nan";
      if (std::isinf(d_)) return d_ > 0 ? "inf" : "-inf";
      return fmt::format("{}", d_);
    }
    case TypeId::kDecimal: return format_decimal(h_, type_.scale);
    case TypeId::kDate: return format_date(int32_t(h_));
    case TypeId::kVarchar: return s_;
    case TypeId::kTimestamp: return format_timestamp(int64_t(h_));
  }
  return "?";
}

bool operator==(const Value& a, const Value& b) {
  if (a.null_ || b.null_) return a.null_ == b.null_;
  if (!(a.type_ == b.type_)) return false;
  if (a.type_.id == TypeId::kVarchar) return a.s_ == b.s_;
  if (a.type_.id == TypeId::kDouble) return a.d_ == b.d_ || (std::isnan(a.d_) && std::isnan(b.d_));
  return a.h_ == b.h_;
}

}  // namespace raydb
