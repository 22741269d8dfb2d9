#pragma once
// Order-preserving keys: every column type that has an order becomes an unsigned
// integer whose unsigned order is the SQL order, so one selection algorithm (bitwise,
// radix, sort) serves every type, on the CPU and on the GPU (RAYDB_HOST_DEVICE).
//
//   kInt32   INTEGER, DATE (days)            x ^ 2^31 (flip the sign bit), 32-bit key
//   kUInt32  dictionary codes (order-preserving, so code order is string order)
//   kInt64   BIGINT, DECIMAL(p<=18) as scaled int64   x ^ 2^63, 64-bit key
//   kUInt64  unsigned 64-bit codes
//   kDouble  DOUBLE: double_order_key (exec/core/exact_double_sum.h), the key MIN/MAX
//            use: IEEE total order, every NaN one key above +inf (PostgreSQL and
//            DuckDB sort NaN last). -0.0 gets the key just below +0.0: the two are
//            equal in rank (the position of every other value is the same whichever
//            way the tie between them is broken), and breaking it as MIN/MAX do keeps
//            quantile_disc(x, 0) == min(x) and quantile_disc(x, 1) == max(x) bit for
//            bit. DuckDB agrees: median(-0.0) is -0.0, median(-0.0, 0.0, 1.0) is 0.0.
#include <cstdint>
#include <cstring>

#include "exec/core/exact_double_sum.h"

namespace raydb::exec::orderstat {

enum class KeyType : uint8_t { kInt32, kUInt32, kInt64, kUInt64, kDouble };

RAYDB_HOST_DEVICE constexpr int key_bits(KeyType t) { return t == KeyType::kInt32 || t == KeyType::kUInt32 ? 32 : 64; }
RAYDB_HOST_DEVICE constexpr int value_bytes(KeyType t) { return key_bits(t) / 8; }

RAYDB_HOST_DEVICE uint32_t int32_key(int32_t x) { return uint32_t(x) ^ 0x80000000u; }
RAYDB_HOST_DEVICE int32_t int32_from_key(uint32_t k) { return int32_t(k ^ 0x80000000u); }
RAYDB_HOST_DEVICE uint64_t int64_key(int64_t x) { return uint64_t(x) ^ kDoubleSign; }
RAYDB_HOST_DEVICE int64_t int64_from_key(uint64_t k) { return int64_t(k ^ kDoubleSign); }
RAYDB_HOST_DEVICE uint64_t double_key(double x) { return double_order_key(double_bits(x)); }
RAYDB_HOST_DEVICE double double_from_key(uint64_t k) { return bits_double(double_from_order_key(k)); }

// Key of the raw 32-bit or 64-bit stored value `bits` (the value's bytes as an integer).
RAYDB_HOST_DEVICE uint32_t key32(KeyType t, uint32_t bits) { return t == KeyType::kInt32 ? bits ^ 0x80000000u : bits; }
RAYDB_HOST_DEVICE uint64_t key64(KeyType t, uint64_t bits) {
  if (t == KeyType::kDouble) return double_order_key(bits);
  return t == KeyType::kInt64 ? bits ^ kDoubleSign : bits;
}

// Key of row i of an array of values of type t.
RAYDB_HOST_DEVICE uint64_t key_at(KeyType t, const void* values, uint64_t i) {
  if (key_bits(t) == 32) return key32(t, static_cast<const uint32_t*>(values)[i]);
  return key64(t, static_cast<const uint64_t*>(values)[i]);
}

// The value of a key as int64 (integer types) or double (every type; integers
// converted as C++ converts them).
RAYDB_HOST_DEVICE int64_t int_from_key(KeyType t, uint64_t k) {
  switch (t) {
    case KeyType::kInt32: return int32_from_key(uint32_t(k));
    case KeyType::kUInt32: return int64_t(uint32_t(k));
    case KeyType::kInt64: return int64_from_key(k);
    default: return int64_t(k);
  }
}
RAYDB_HOST_DEVICE double real_from_key(KeyType t, uint64_t k) {
  if (t == KeyType::kDouble) return double_from_key(k);
  if (t == KeyType::kUInt64) return double(k);
  return double(int_from_key(t, k));
}

}  // namespace raydb::exec::orderstat
