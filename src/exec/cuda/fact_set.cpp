#include "exec/cuda/fact_set.h"

#include <algorithm>

#include "exec/cuda/range_bitmap.h"

namespace raydb::exec::cuda {

StoredRanges merged(StoredRanges sr) {
  // In place: a key set's million ranges are not copied again.
  size_t m = 0;
  for (size_t i = 0; i < sr.size(); i++) {
    if (m > 0 && sr[i].first <= sr[m - 1].second + 1)
      sr[m - 1].second = std::max(sr[m - 1].second, sr[i].second);
    else
      sr[m++] = sr[i];
  }
  sr.resize(m);
  return sr;
}

std::optional<BitmapShape> bitmap_shape(const StoredRanges& sr) {
  const uint64_t lo = sr.front().first, span = sr.back().second - lo + 1;
  if (!bitmap_pays(span, sr.size())) return std::nullopt;  // range_bitmap.h
  return BitmapShape{lo, span, (span + 31) / 32};
}

FactSet build_fact_set(const StoredRanges& sr) {
  FactSet s;
  if (const std::optional<BitmapShape> shape = bitmap_shape(sr)) {
    s.kind = FactSet::Kind::kBitmap;
    s.bits = range_bitmap(sr, shape->lo, shape->span);
    s.lo = shape->lo;
    s.span = shape->span;
    return s;
  }
  if (std::all_of(sr.begin(), sr.end(), [](const auto& ab) { return ab.first == ab.second; })) {
    std::vector<uint64_t> keys;
    for (auto [a, b] : sr) keys.push_back(a);
    if (std::optional<CuckooSet> set = build_cuckoo_set(keys)) {
      s.kind = FactSet::Kind::kHash;
      s.hash = std::move(set);
      return s;
    }
  }
  for (auto [a, b] : sr) s.pairs.push_back(a), s.pairs.push_back(b);
  return s;
}

}  // namespace raydb::exec::cuda
