#pragma once
// Logical SQL types and their physical (stored) representation.
//
//   INTEGER       int32
//   BIGINT        int64
//   DOUBLE        double
//   DECIMAL(p,s)  int64 scaled by 10^s (p <= 18), so sums and comparisons are exact
//   DATE          int32 days since 1970-01-01
//   VARCHAR       int32 code into an order-preserving dictionary (code order == string order)
//   BOOLEAN       int32 0/1 (stored like INTEGER so every 4-byte path reads it; the
//                 binder reads a stored BOOLEAN column c as c <> 0)
//   TIMESTAMP     int64 microseconds since 1970-01-01 00:00:00, no time zone
//                 (PostgreSQL's `timestamp`)
//   HUGEINT       int128; results of SUM over BIGINT/DECIMAL, never stored
#include <cstdint>
#include <string>
#include <string_view>

namespace raydb {

enum class TypeId : uint8_t { kNull, kBoolean, kInteger, kBigint, kHugeint, kDouble, kDecimal, kDate, kVarchar, kTimestamp };

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
  static Type timestamp() { return {TypeId::kTimestamp}; }

  // Parses "INT", "INTEGER", "BIGINT", "DOUBLE", "DECIMAL(p,s)", "DATE", "VARCHAR",
  // "VARCHAR(n)", "TEXT", "BOOLEAN", "TIMESTAMP" (case-insensitive). Throws Error(kInvalidInput) otherwise.
  static Type parse(std::string_view text);

  bool is_integral() const { return id == TypeId::kInteger || id == TypeId::kBigint || id == TypeId::kHugeint; }
  bool is_numeric() const { return is_integral() || id == TypeId::kDouble || id == TypeId::kDecimal; }
  bool storable() const { return id != TypeId::kNull && id != TypeId::kHugeint; }
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

// TIMESTAMP: microseconds since 1970-01-01 00:00:00 (no time zone).
constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;
// "YYYY-MM-DD", "YYYY-MM-DD HH:MM[:SS[.f{1,9}]]" (also 'T' between date and time; a
// fraction beyond microseconds must be zeros) -> micros; false when malformed, not a
// real date/time, or outside years 1..9999.
bool parse_timestamp(std::string_view text, int64_t& micros);
// As PostgreSQL and DuckDB print it: "2024-01-02 03:04:05.123" (fraction without
// trailing zeros, none when whole seconds).
std::string format_timestamp(int64_t micros);
// Floor division of micros into days and the micros within that day.
inline int32_t timestamp_days(int64_t micros) {
  int64_t d = micros / kMicrosPerDay;
  if (micros % kMicrosPerDay < 0) d--;
  return int32_t(d);
}
// BOOLEAN text as PostgreSQL reads it: true/false, t/f, yes/no, y/n, on/off, 1/0
// (case-insensitive, surrounding spaces allowed); false when none of them.
bool parse_boolean(std::string_view text, bool& out);

// Exact decimal text -> scaled int64 ("12.5" at scale 2 -> 1250). False on malformed
// text, more fractional digits than the scale allows (after dropping trailing zeros),
// or more than `precision` digits in all.
bool parse_decimal(std::string_view text, int precision, int scale, int64_t& out);
std::string format_decimal(__int128 scaled, int scale);
std::string format_int128(__int128 v);

}  // namespace raydb
