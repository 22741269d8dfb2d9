#include "exec/core/order_statistics/order_statistics.h"

namespace raydb::exec::orderstat {

std::vector<uint64_t> ranks_for_specs(const std::vector<RankSpec>& specs, const std::vector<uint64_t>& counts,
                                      std::vector<RankPair>* pairs) {
  const size_t m = specs.size();
  std::vector<uint64_t> ranks(counts.size() * 2 * m, kNoRank);
  pairs->assign(counts.size() * m, RankPair{});
  for (uint32_t g = 0; g < counts.size(); g++)
    for (size_t j = 0; j < m; j++) {
      const RankPair p = ranks_for(specs[j], counts[g], g);
      (*pairs)[g * m + j] = p;
      if (!p.valid) continue;
      ranks[(g * m + j) * 2] = p.lo;
      if (p.hi != p.lo) ranks[(g * m + j) * 2 + 1] = p.hi;
    }
  return ranks;
}

OrderStats assemble(const std::vector<RankSpec>& specs, std::vector<uint64_t> counts,
                    const std::vector<RankPair>& pairs, const std::vector<uint64_t>& keys) {
  OrderStats r;
  r.groups = uint32_t(counts.size());
  r.specs = uint32_t(specs.size());
  r.values.resize(pairs.size());
  for (size_t i = 0; i < pairs.size(); i++) {
    const RankPair& p = pairs[i];
    if (!p.valid) continue;
    OrderStat& s = r.values[i];
    s.is_null = false;
    s.lo_key = keys[i * 2];
    s.interpolated = p.hi != p.lo;
    s.hi_key = s.interpolated ? keys[i * 2 + 1] : s.lo_key;
    s.d = s.interpolated ? p.d : 0.0;
  }
  r.counts = std::move(counts);
  return r;
}

OrderStats order_statistics(const ColumnInput& in, const std::vector<RankSpec>& specs, std::vector<uint64_t> counts,
                            const SelectOptions& options) {
  std::vector<RankPair> pairs;
  const std::vector<uint64_t> ranks = ranks_for_specs(specs, counts, &pairs);
  const std::vector<uint64_t> keys = select_keys(in, ranks, uint32_t(2 * specs.size()), options);
  return assemble(specs, std::move(counts), pairs, keys);
}

OrderStats order_statistics(const ColumnInput& in, const std::vector<RankSpec>& specs, const SelectOptions& options) {
  return order_statistics(in, specs, count_per_group(in, options.threads), options);
}

double as_double(KeyType t, const OrderStat& s) {
  const double lo = real_from_key(t, s.lo_key);
  return s.interpolated ? interpolate_double(lo, real_from_key(t, s.hi_key), s.d) : lo;
}

int64_t as_scaled(KeyType t, const OrderStat& s) {
  const int64_t lo = int_from_key(t, s.lo_key);
  return s.interpolated ? interpolate_scaled(lo, int_from_key(t, s.hi_key), s.d) : lo;
}

int64_t as_timestamp_micros_from_days(const OrderStat& s) {
  constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;
  const int64_t lo = int64_t(int32_from_key(uint32_t(s.lo_key))) * kMicrosPerDay;
  if (!s.interpolated) return lo;
  return interpolate_micros(lo, int64_t(int32_from_key(uint32_t(s.hi_key))) * kMicrosPerDay, s.d);
}

}  // namespace raydb::exec::orderstat
