#include "plan/physical/cost_model.h"

#include <algorithm>
#include <cmath>

namespace raydb::plan {

const char* index_kind_name(IndexKind k) {
  switch (k) {
    case IndexKind::kRt: return "rt";
    case IndexKind::kSorted: return "sorted";
    case IndexKind::kHash: return "hash";
  }
  return "?";
}

const CostConstants& cost_constants() {
  // Measured on the development machine (2-core x86-64 VM, Release, --threads 1):
  static const CostConstants c{
      // `raydb query --threads 1 --timing` on SSB SF 0.1 (600k lineorder rows):
      // count(*) with `lo_orderdate = 19940101` 0.35 ms, without a filter 0.11 ms
      // -> (0.35 - 0.11) / 600k = 0.4 ns per row and filter.
      .scan_ns_per_row = 0.4,
      // Index scans on the same data through a sorted index, --threads 1, median of
      // 20: `lo_orderdate between 19940101 and 19940331` (22.7k rows) 0.29 ms,
      // a point (237 rows) 0.012 ms -> (0.29 - 0.012) / 22.7k = 12 ns per candidate
      // row (row ids materialized, sorted, gathered instead of streamed).
      .fetch_ns_per_row = 12.0,
      // `raydb bench index --log-keys 20 --log-lookups 14 --methods rt,sa,hash
      // --sorted-probes 0 --threads 1`: RT (Embree, triangles, sorted+compressed)
      // 0.91 M lookups/s = 1.1 us at 2^20 keys -> 55 ns per level; sorted array
      // 5.8 M/s = 172 ns -> 8.6 ns per level; hash 42 M/s -> 24 ns. At 2^12 keys
      // the same run gives 121 ns (RT) and 47 ns (sorted): per level the constants
      // overestimate small (cache-resident) indexes, RT more than sorted.
      .rt_ns_per_level = 55.0,
      .sorted_ns_per_level = 8.6,
      .hash_ns_per_lookup = 24.0,
      // JoinTable build (key encode, dense array / CSR) and probe: not measured
      // separately; these values reproduce the measured 0.062 ms of a 3000-row
      // customer hash join probed by 2.4k index-scanned lineorder rows (SF 0.1).
      .join_build_ns_per_row = 10.0,
      .join_probe_ns_per_row = 3.0,
      // Sorting the lookups, launching, the prefix sum: at most ~5 us per batch (a
      // whole point query through the sorted index, parse to result, took 12 us).
      .index_setup_ns = 5000.0,
  };
  return c;
}

namespace {
double levels(uint64_t keys) { return std::max(1.0, std::log2(double(std::max<uint64_t>(keys, 2)))); }
}  // namespace

double lookup_cost_ms(IndexKind kind, uint64_t keys, double lookups) {
  const CostConstants& c = cost_constants();
  double per = 0;
  switch (kind) {
    case IndexKind::kRt: per = c.rt_ns_per_level * levels(keys); break;
    case IndexKind::kSorted: per = c.sorted_ns_per_level * levels(keys); break;
    case IndexKind::kHash: per = c.hash_ns_per_lookup; break;
  }
  return (c.index_setup_ns + per * lookups) * 1e-6;
}

double scan_cost_ms(uint64_t rows, int filters) {
  return cost_constants().scan_ns_per_row * double(rows) * std::max(1, filters) * 1e-6;
}

double index_scan_cost_ms(IndexKind kind, uint64_t keys, double lookups, double candidates) {
  return lookup_cost_ms(kind, keys, lookups) + cost_constants().fetch_ns_per_row * candidates * 1e-6;
}

double hash_join_cost_ms(uint64_t build_rows, int build_filters, double kept, double probes) {
  const CostConstants& c = cost_constants();
  return scan_cost_ms(build_rows, build_filters) + (c.join_build_ns_per_row * kept + c.join_probe_ns_per_row * probes) * 1e-6;
}

double index_join_cost_ms(IndexKind kind, uint64_t keys, double probes, double matches) {
  return lookup_cost_ms(kind, keys, probes) + cost_constants().fetch_ns_per_row * matches * 1e-6;
}

}  // namespace raydb::plan
