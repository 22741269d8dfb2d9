#pragma once
// quantile_cont's interpolation between the values lo (rank floor(RN)) and hi (rank
// ceil(RN)) with weight d = RN - floor(RN), by result type, as DuckDB computes it.
// DuckDB's source writes lo * (1 - d) + hi * d for DOUBLE and lo + (hi - lo) * d
// truncated for scaled integers; its x86-64 build contracts them into one fused
// multiply-add, and these formulas reproduce that build bit for bit (measured on
// random inputs: 300 of 300 equal, the uncontracted form 284). Writing the fma
// explicitly also makes the CPU and the GPU (where nvcc would contract on its own
// terms) give identical bits. Callers use these only when the two ranks differ.
#include <cmath>
#include <cstdint>

#include "common/host_device.h"

namespace raydb::exec::orderstat {

// DOUBLE results (quantile_cont / median of INTEGER, BIGINT, DOUBLE).
RAYDB_HOST_DEVICE double interpolate_double(double lo, double hi, double d) { return fma(lo, 1.0 - d, hi * d); }

// Scaled-integer results (DECIMAL keeps its type): truncated toward zero, clamped.
RAYDB_HOST_DEVICE int64_t interpolate_scaled(int64_t lo, int64_t hi, double d) {
  const double r = fma(double(hi) - double(lo), d, double(lo));
  if (r >= 9223372036854775807.0) return INT64_MAX;
  if (r <= -9223372036854775808.0) return INT64_MIN;
  return int64_t(r);
}

// TIMESTAMP results in microseconds (DATE interpolates to a TIMESTAMP): rounded.
RAYDB_HOST_DEVICE int64_t interpolate_micros(int64_t lo, int64_t hi, double d) {
  return int64_t(llround(fma(double(lo), 1.0 - d, double(hi) * d)));
}

}  // namespace raydb::exec::orderstat
