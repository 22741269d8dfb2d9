#include "access/rt_index/key_codec.h"

#include <algorithm>

#include "common/error.h"

namespace raydb::access {

const char* key_type_name(KeyType t) {
  switch (t) {
    case KeyType::kInt32: return "int32";
    case KeyType::kUInt32: return "uint32";
    case KeyType::kInt64: return "int64";
    case KeyType::kUInt64: return "uint64";
    case KeyType::kDate: return "date";
    case KeyType::kDictCode: return "dict";
  }
  return "?";
}

std::vector<uint64_t> encode_keys(KeyType type, const void* data, size_t n) {
  std::vector<uint64_t> out(n);
  switch (type) {
    case KeyType::kInt32:
    case KeyType::kDate: {
      const auto* p = static_cast<const int32_t*>(data);
      for (size_t i = 0; i < n; ++i) out[i] = encode_key(p[i]);
      break;
    }
    case KeyType::kUInt32:
    case KeyType::kDictCode: {
      const auto* p = static_cast<const uint32_t*>(data);
      for (size_t i = 0; i < n; ++i) out[i] = p[i];
      break;
    }
    case KeyType::kInt64: {
      const auto* p = static_cast<const int64_t*>(data);
      for (size_t i = 0; i < n; ++i) out[i] = encode_key(p[i]);
      break;
    }
    case KeyType::kUInt64: {
      const auto* p = static_cast<const uint64_t*>(data);
      std::copy(p, p + n, out.begin());
      break;
    }
  }
  return out;
}

bool encode_range(KeyType type, int64_t lo, int64_t hi, uint64_t* out_lo, uint64_t* out_hi) {
  int64_t dmin, dmax;
  switch (type) {
    case KeyType::kInt32:
    case KeyType::kDate:
      dmin = std::numeric_limits<int32_t>::min();
      dmax = std::numeric_limits<int32_t>::max();
      break;
    case KeyType::kUInt32:
    case KeyType::kDictCode:
      dmin = 0;
      dmax = std::numeric_limits<uint32_t>::max();
      break;
    case KeyType::kInt64:
      dmin = std::numeric_limits<int64_t>::min();
      dmax = std::numeric_limits<int64_t>::max();
      break;
    case KeyType::kUInt64:  // logical values are given as int64: the non-negative half
      dmin = 0;
      dmax = std::numeric_limits<int64_t>::max();
      break;
    default:
      fail(ErrorKind::kInternal, "encode_range: unknown key type");
  }
  lo = std::max(lo, dmin);
  hi = std::min(hi, dmax);
  if (lo > hi) return false;
  switch (type) {
    case KeyType::kInt32:
    case KeyType::kDate:
      *out_lo = encode_key(static_cast<int32_t>(lo));
      *out_hi = encode_key(static_cast<int32_t>(hi));
      break;
    case KeyType::kInt64:
      *out_lo = encode_key(lo);
      *out_hi = encode_key(hi);
      break;
    default:
      *out_lo = static_cast<uint64_t>(lo);
      *out_hi = static_cast<uint64_t>(hi);
  }
  return true;
}

}  // namespace raydb::access
