#pragma once
// What to select, as DuckDB and PostgreSQL define it, turned into 0-based ranks in the
// ascending order of the n non-NULL selected values of a group:
//
//   kKthSmallest k   rank k - 1 (k is 1-based; k < 1 or k > n gives NULL)
//   kKthLargest  k   rank n - k
//   kDisc q          quantile_disc / percentile_disc: rank max(1, ceil(n q)) - 1, so
//                    q = 0 is the first value and q = 1 the last
//   kCont q          quantile_cont / percentile_cont / median (q = 0.5): RN = (n - 1) q,
//                    ranks floor(RN) and ceil(RN), and their values interpolated with
//                    d = RN - floor(RN) (see interpolate.h)
//
// Empty groups give NULL. q is kept as DuckDB binds it: a decimal integral / scaling
// (SQL literals such as 0.7 are DECIMAL(2,1); a DOUBLE is rounded to 15 decimal places,
// measured: quantile_disc(x, 0.1 + 0.2) over 0..9 is 2, not 3). quantile_disc then
// computes ceil(n q) exactly in integers, and quantile_cont RN in double arithmetic
// with q as the double integral / scaling. Checked against DuckDB 2.0.1 (see
// tests/exec/order_statistics/duckdb_semantics_test.cpp).
#include <cstdint>

#include "common/host_device.h"

namespace raydb::exec::orderstat {

struct Quantile {
  int64_t integral = 1;   // q = integral / scaling, 0 <= q <= 1
  int64_t scaling = 2;
  // A decimal literal: 0.25 is decimal(25, 100). Throws when outside [0, 1].
  static Quantile decimal(int64_t integral, int64_t scaling);
  // A DOUBLE, rounded to 15 decimal places as DuckDB binds it. Throws outside [0, 1].
  static Quantile of(double q);
  double value() const { return double(integral) / double(scaling); }
};

enum class RankKind : uint8_t { kKthSmallest, kKthLargest, kDisc, kCont };

struct RankSpec {
  RankKind kind = RankKind::kCont;
  Quantile q;                       // kDisc, kCont
  int64_t k = 1;                    // kKthSmallest, kKthLargest (1-based)
  const int64_t* k_per_group = nullptr;  // optional: k of each group instead of `k`

  static RankSpec median() { return {RankKind::kCont, Quantile{1, 2}}; }
  static RankSpec disc(Quantile q) { return {RankKind::kDisc, q}; }
  static RankSpec cont(Quantile q) { return {RankKind::kCont, q}; }
  static RankSpec kth_smallest(int64_t k) { return {RankKind::kKthSmallest, {}, k}; }
  static RankSpec kth_largest(int64_t k) { return {RankKind::kKthLargest, {}, k}; }
};

// The ranks one spec needs in a group of n values: lo and hi (equal unless kCont
// interpolates) and the interpolation weight d of hi. valid is false for NULL results
// (n = 0, k out of range).
struct RankPair {
  bool valid = false;
  uint64_t lo = 0, hi = 0;
  double d = 0;
};

RankPair ranks_for(const RankSpec& spec, uint64_t n, uint32_t group = 0);

}  // namespace raydb::exec::orderstat
