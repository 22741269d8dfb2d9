#pragma once
// The input of a selection: a column of n stored values (32-bit or 64-bit, see
// order_key.h), which rows take part (a WHERE result) and which are NULL. Rows that
// are NULL or not selected are ignored: n_valid below counts the rest. Group ids, when
// given, put every row into one of `groups` groups (grouped selection).
#include <cstdint>

#include "exec/core/order_statistics/order_key.h"

namespace raydb::exec::orderstat {

struct ColumnInput {
  KeyType type = KeyType::kInt32;
  const void* values = nullptr;      // n values of value_bytes(type) bytes
  uint64_t n = 0;
  const uint8_t* select = nullptr;   // optional: nonzero = the row passed the WHERE clause
  const uint8_t* nulls = nullptr;    // optional: nonzero = NULL (exec::Vector::nulls)
  const uint32_t* group_ids = nullptr;  // optional: group of each row, < groups
  uint32_t groups = 1;               // 1 when group_ids is null
  // Optional promise (from verified column statistics): every counting row's key lies
  // in [key_lo, key_hi]. The GPU radix select starts below the leading bits the two
  // share, which every key then has too; the default promises nothing.
  uint64_t key_lo = 0, key_hi = ~uint64_t(0);

  RAYDB_HOST_DEVICE bool counts(uint64_t i) const {
    return (!select || select[i]) && (!nulls || !nulls[i]);
  }
  RAYDB_HOST_DEVICE uint32_t group(uint64_t i) const { return group_ids ? group_ids[i] : 0; }
  RAYDB_HOST_DEVICE uint64_t key(uint64_t i) const { return key_at(type, values, i); }
};

// The leading bits of a key_bits(in.type)-bit key that every counting key shares by
// the input's promise (key_lo/key_hi), and their value: the selections decide them
// before the first pass (all bits when key_lo == key_hi; none without a promise).
inline int promised_lead_bits(const ColumnInput& in, uint64_t* lead_value) {
  const int bits = key_bits(in.type);
  const uint64_t top = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  const uint64_t lo = in.key_lo, hi = in.key_hi < top ? in.key_hi : top;
  *lead_value = 0;
  if (lo > hi) return 0;
  const int lead = lo == hi ? bits : __builtin_clzll(lo ^ hi) - (64 - bits);
  if (lead > 0) *lead_value = lead == 64 ? lo : lo >> (bits - lead);
  return lead;
}

}  // namespace raydb::exec::orderstat
