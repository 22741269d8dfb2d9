#pragma once
// Logical SQL types and their physical (stored) representation.
//
//   INTEGER       int32
//   BIGINT        int64
//   DOUBLE        double
//   DECIMAL(p,s)  int64 scaled by 10^s (p <= 18), so sums and comparisons are exact
//   DATE          int32 days since 1970-01-01
//   VARCHAR       int32 code into an order-preserving dictionary (code order == string order)
//   BOOLEAN       results of predicates only; never stored
//   HUGEINT       int128; results of SUM over BIGINT/DECIMAL, never stored
#include <cstdint>
#include <string>
#include <string_view>

namespace raydb {

enum class TypeId : uint8_t { kNull, kBoolean, kInteger, kBigint, kHugeint, kDouble, kDecimal, kDate, kVarchar };

struct Type {
  TypeId id = TypeId::kNull;
  uint8_t precision = 0;  // DECIMAL only
  uint8_t scale = 0;      // DECIMAL only

  static Type null() { return {TypeId::kNull}; }
  static Type boolean() { return {TypeId::kBoolean}; }
  static Type integer() { return {TypeId::kInteger}; }
  static Type bigint() { return {TypeId::kBigint}; }
  static Type hugeint() { return {TypeId::kHugeint}; }
  static Type float64() { return {TypeId::kDouble}; }
  static Type decimal(int precision, int scale) {
    return {TypeId::kDecimal, uint8_t(precision), uint8_t(scale)};
  }
  static Type date() { return {TypeId::kDate}; }
  static Type varchar() { return {TypeId::kVarchar}; }

  // Parses "INT", "INTEGER", "BIGINT", "DOUBLE", "DECIMAL(p,s)", "DATE", "VARCHAR",
  // "VARCHAR(n)", "TEXT" (case-insensitive). Throws Error(kInvalidInput) otherwise.
  static Type parse(std::string_view text);

  bool is_integral() const { return id == TypeId::kInteger || id == TypeId::kBigint || id == TypeId::kHugeint; }
  bool is_numeric() const { return is_integral() || id == TypeId::kDouble || id == TypeId::kDecimal; }
  bool storable() const { return id != TypeId::kNull && id != TypeId::kBoolean && id != TypeId::kHugeint; }
  // Bytes per stored value (0 for types that are never stored).
  int physical_width() const;
  std::string to_string() const;

  friend bool operator==(const Type& a, const Type& b) {
    return a.id == b.id && (a.id != TypeId::kDecimal || (a.precision == b.precision && a.scale == b.scale));
  }
};

// 10^n for n in [0, 38], as int128 (exact).
__int128 pow10_i128(int n);
int64_t pow10_i64(int n);  // n in [0, 18]

// Days since 1970-01-01 <-> calendar date (proleptic Gregorian).
int32_t days_from_civil(int y, unsigned m, unsigned d);
void civil_from_days(int32_t z, int& y, unsigned& m, unsigned& d);
// "YYYY-MM-DD" -> days; false when malformed or not a real date.
bool parse_date(std::string_view text, int32_t& days);
std::string format_date(int32_t days);

// Exact decimal text -> scaled int64 ("12.5" at scale 2 -> 1250). False on malformed
// text, more fractional digits than the scale allows (after dropping trailing zeros),
// or more than `precision` digits in all.
bool parse_decimal(std::string_view text, int precision, int scale, int64_t& out);
std::string format_decimal(__int128 scaled, int scale);
std::string format_int128(__int128 v);

}  // namespace raydb
