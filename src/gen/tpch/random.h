#pragma once
// The random streams of the TPC-H kit's dbgen, reproduced so that raydb generates
// the same rows: every column has its own Park-Miller "minimal standard" stream
// (x' = 16807 x mod 2^31 - 1), and every row of a table consumes a fixed number of
// draws from each of its streams whatever it uses (dbgen's row_stop). Row r of a
// stream therefore starts at seed x 16807^(r x draws_per_row), which modular
// exponentiation reaches directly: any block of rows can be generated on its own,
// so generation is parallel and its output does not depend on the thread count.
#include <cstdint>

namespace raydb::tpch {

constexpr int64_t kParkMillerModulus = 2147483647;  // 2^31 - 1
constexpr int64_t kParkMillerMultiplier = 16807;

// 16807^n mod 2^31 - 1: the factor that advances a stream by n draws.
int64_t park_miller_power(uint64_t n);

class ColumnStream {
 public:
  ColumnStream() = default;
  // The stream whose first value is `seed`, positioned at the start of row
  // `first_row` (0-based) of a table that draws `draws_per_row` values per row.
  ColumnStream(int64_t seed, int64_t draws_per_row, uint64_t first_row);

  // dbgen's UnifInt: a value in [lo, hi], computed in double precision exactly as
  // the kit does (the draw divided by the modulus, times the range, truncated).
  int64_t uniform(int64_t lo, int64_t hi) {
    step();
    return lo + int64_t(double(value_) / double(kParkMillerModulus) * double(hi - lo + 1));
  }
  // dbgen's UnifInt(0, MAX_LONG) as the kit computes it: the range 2^31 overflows
  // its 32-bit arithmetic to -2^31, so the value is <= 0. v-strings take 6 bits
  // at a time from it.
  int64_t alphabet_bits() {
    step();
    return int64_t(double(value_) / double(kParkMillerModulus) * -2147483648.0);
  }
  // Moves to the start of the next row, whatever this row drew.
  void next_row() {
    row_start_ = row_start_ * row_step_ % kParkMillerModulus;
    value_ = row_start_;
  }
  int64_t value() const { return value_; }

 private:
  void step() { value_ = value_ * kParkMillerMultiplier % kParkMillerModulus; }

  int64_t row_start_ = 1;
  int64_t row_step_ = 1;  // 16807^draws_per_row
  int64_t value_ = 1;
};

}  // namespace raydb::tpch
