#pragma once
// Key types the RT index takes, and their order-preserving map to uint64 (the radix
// sort trick): every index in access/rt_index/ works on these normalized keys, so a
// signed, date or dictionary-code range is an unsigned range with the same members.
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace raydb::access {

enum class KeyType { kInt32, kUInt32, kInt64, kUInt64, kDate, kDictCode };

const char* key_type_name(KeyType t);

// 32-bit types stay below 2^32 (so their keys live in the grid's low rows, z = 0).
inline uint64_t encode_key(int32_t v) { return static_cast<uint32_t>(v) ^ 0x80000000u; }
inline uint64_t encode_key(uint32_t v) { return v; }
inline uint64_t encode_key(int64_t v) { return static_cast<uint64_t>(v) ^ (uint64_t{1} << 63); }
inline uint64_t encode_key(uint64_t v) { return v; }
inline int32_t decode_int32(uint64_t k) { return static_cast<int32_t>(static_cast<uint32_t>(k) ^ 0x80000000u); }
inline int64_t decode_int64(uint64_t k) { return static_cast<int64_t>(k ^ (uint64_t{1} << 63)); }

// Encodes a raw column (int32_t for kInt32/kDate, uint32_t for kUInt32/kDictCode,
// int64_t/uint64_t for the 64-bit types).
std::vector<uint64_t> encode_keys(KeyType type, const void* data, size_t n);

// Encodes a signed 64-bit logical value of a column of `type` (SQL constants): the
// range [lo, hi] of logical values clamped to the type's domain; false when the
// clamped range is empty.
bool encode_range(KeyType type, int64_t lo, int64_t hi, uint64_t* out_lo, uint64_t* out_hi);

}  // namespace raydb::access
