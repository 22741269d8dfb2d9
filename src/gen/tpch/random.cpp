#include "gen/tpch/random.h"

namespace raydb::tpch {

int64_t park_miller_power(uint64_t n) {
  int64_t result = 1, base = kParkMillerMultiplier;
  for (; n; n >>= 1) {  // square and multiply; every product stays below 2^62
    if (n & 1) result = result * base % kParkMillerModulus;
    base = base * base % kParkMillerModulus;
  }
  return result;
}

ColumnStream::ColumnStream(int64_t seed, int64_t draws_per_row, uint64_t first_row)
    : row_start_(seed % kParkMillerModulus * park_miller_power(uint64_t(draws_per_row) * first_row) %
                 kParkMillerModulus),
      row_step_(park_miller_power(uint64_t(draws_per_row))),
      value_(row_start_) {}

}  // namespace raydb::tpch
