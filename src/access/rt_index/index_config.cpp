#include "access/rt_index/index_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/error.h"

namespace raydb::access {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool parse_bool(const std::string& name, const std::string& v) {
  std::string l = lower(v);
  if (l == "true" || l == "on" || l == "1") return true;
  if (l == "false" || l == "off" || l == "0") return false;
  fail(ErrorKind::kInvalidInput, "index option {} takes true or false, got '{}'", name, v);
}

uint32_t parse_uint(const std::string& name, const std::string& v, uint32_t lo, uint32_t hi) {
  uint64_t x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size() || x < lo || x > hi)
    fail(ErrorKind::kInvalidInput, "index option {} takes an integer from {} to {}, got '{}'", name, lo, hi, v);
  return uint32_t(x);
}

}  // namespace

IndexConfig parse_index_config(const std::string& kind, const std::vector<std::pair<std::string, std::string>>& options) {
  IndexConfig c;
  std::string k = lower(kind);
  if (k == "rt") c.kind = IndexKind::kRt;
  else if (k == "sorted") c.kind = IndexKind::kSorted;
  else if (k == "hash") c.kind = IndexKind::kHash;
  else fail(ErrorKind::kInvalidInput, "unknown index kind '{}' (expected RT, SORTED or HASH)", kind);
  std::vector<std::string> seen;
  for (auto& [raw_name, value] : options) {
    std::string name = lower(raw_name);
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      fail(ErrorKind::kInvalidInput, "index option {} is given twice", name);
    seen.push_back(name);
    if (name == "sorted_probes") {
      c.rt.sorted_probes = c.baseline.sorted_probes = parse_bool(name, value);
      continue;
    }
    if (c.kind != IndexKind::kRt)
      fail(ErrorKind::kInvalidInput, "unknown option '{}' for a {} index (it takes: sorted_probes)", raw_name,
           index_kind_name(c.kind));
    if (name == "sort_keys") c.rt.sort_keys = parse_bool(name, value);
    else if (name == "compress_duplicates") c.rt.compress_duplicates = parse_bool(name, value);
    else if (name == "closest_hit_ranges") c.rt.closest_hit_ranges = parse_bool(name, value);
    else if (name == "compact") c.rt.compact = parse_bool(name, value);
    else if (name == "bucket_size") c.rt.bucket_size = parse_uint(name, value, 1, 65536);
    else if (name == "partitions") c.rt.partitions = parse_uint(name, value, 1, 1024);
    else if (name == "primitive") {
      std::string v = lower(value);
      if (v == "triangle") c.rt.primitive = RtPrimitive::kTriangle;
      else if (v == "box") c.rt.primitive = RtPrimitive::kBox;
      else fail(ErrorKind::kInvalidInput, "index option primitive takes triangle or box, got '{}'", value);
    } else {
      fail(ErrorKind::kInvalidInput,
           "unknown option '{}' for an rt index (it takes: bucket_size, compress_duplicates, closest_hit_ranges, "
           "sort_keys, partitions, primitive, sorted_probes, compact)",
           raw_name);
    }
  }
  // The combinations RtIndex rejects, checked here so CREATE INDEX fails before it
  // writes the catalog rather than at the first query.
  if (c.kind == IndexKind::kRt && c.rt.bucket_size > 1) {
    if (!c.rt.sort_keys) fail(ErrorKind::kInvalidInput, "index option bucket_size > 1 needs sort_keys = true");
    if (!c.rt.closest_hit_ranges)
      fail(ErrorKind::kInvalidInput, "index option bucket_size > 1 needs closest_hit_ranges = true");
  }
  return c;
}

std::unique_ptr<KeyIndex> build_key_index(const IndexConfig& config, rt::Tracer& tracer, std::span<const uint64_t> keys) {
  switch (config.kind) {
    case IndexKind::kRt: return std::make_unique<RtIndex>(tracer, keys, std::span<const int64_t>(), config.rt);
    case IndexKind::kSorted: return std::make_unique<SortedArrayIndex>(keys, std::span<const int64_t>(), config.baseline);
    case IndexKind::kHash: return std::make_unique<HashIndex>(keys, std::span<const int64_t>(), config.baseline);
    case IndexKind::kRtScan: break;  // not a key index (access/rt_scan)
  }
  fail(ErrorKind::kInternal, "unknown index kind");
}

}  // namespace raydb::access
