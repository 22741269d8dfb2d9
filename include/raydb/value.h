#pragma once
// One typed scalar: constants in SQL, cells of a query result.
#include <string>

#include "raydb/types.h"

namespace raydb {

class Value {
 public:
  Value() = default;  // NULL
  static Value null(Type t = Type::null()) {
    Value v;
    v.type_ = t;
    return v;
  }
  static Value boolean(bool b) { return make_int(Type::boolean(), b ? 1 : 0); }
  static Value integer(int32_t i) { return make_int(Type::integer(), i); }
  static Value bigint(int64_t i) { return make_int(Type::bigint(), i); }
  static Value hugeint(__int128 i) {
    Value v(Type::hugeint());
    v.h_ = i;
    return v;
  }
  static Value float64(double d) {
    Value v(Type::float64());
    v.d_ = d;
    return v;
  }
  static Value decimal(int64_t scaled, int precision, int scale) {
    return make_int(Type::decimal(precision, scale), scaled);
  }
  // DECIMAL with an int128 payload (results of SUM over decimals: precision up to 38).
  static Value decimal_wide(__int128 scaled, int precision, int scale) {
    Value v(Type::decimal(precision, scale));
    v.h_ = scaled;
    return v;
  }
  static Value date(int32_t days) { return make_int(Type::date(), days); }
  static Value timestamp(int64_t micros) { return make_int(Type::timestamp(), micros); }
  static Value varchar(std::string s) {
    Value v(Type::varchar());
    v.s_ = std::move(s);
    return v;
  }

  const Type& type() const { return type_; }
  bool is_null() const { return null_; }
  // Integer payload for BOOLEAN, INTEGER, BIGINT, DECIMAL (scaled), DATE and TIMESTAMP.
  int64_t as_int() const { return int64_t(h_); }
  __int128 as_hugeint() const { return h_; }
  double as_double() const;  // any numeric type, decimals unscaled
  const std::string& as_string() const { return s_; }

  // Text as SQL prints it: integers plain, decimals with exactly `scale` digits,
  // doubles in shortest round-trip form, dates as YYYY-MM-DD, NULL as "NULL".
  std::string to_string() const;

  // Exact equality of type and payload (NULL == NULL here; this is for tests and
  // result comparison, not SQL semantics).
  friend bool operator==(const Value& a, const Value& b);

 private:
  explicit Value(Type t) : type_(t), null_(false) {}
  static Value make_int(Type t, int64_t i) {
    Value v(t);
    v.h_ = i;
    return v;
  }
  Type type_;
  bool null_ = true;
  __int128 h_ = 0;  // all integer-like payloads, sign-extended
  double d_ = 0;
  std::string s_;
};

}  // namespace raydb
