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

// GPU constants: H200 measurements at 2^26 uint32 keys and 2^27 lookups
// (docs/benchmarks/rt-index-h200.md, session 2): launch ms / 2^27 per lookup. They
// are the defaults until `raydb calibrate` measures the machine at hand.
namespace {
struct GpuLookupNs {
  double point, point_sorted, range16, range16_sorted;
};
GpuLookupNs gpu_lookup_ns(IndexKind kind) {
  const double n = double(1ull << 27);
  switch (kind) {
    case IndexKind::kRt: return {35.98e6 / n, 18.32e6 / n, 57.08e6 / n, 21.01e6 / n};
    case IndexKind::kSorted: return {35.00e6 / n, 3.60e6 / n, 59.86e6 / n, 4.22e6 / n};
    case IndexKind::kHash: return {8.96e6 / n, 2.90e6 / n, 1e9, 1e9};  // points only
  }
  return {};
}
constexpr double kGpuSortNsPerLookup = 0.2;      // CUB radix sort of the batch (~26 ms / 2^27)
constexpr double kGpuLaunchNs = 20000.0;         // a few kernel launches + a copy back
constexpr double kGpuReadBytesPerNs = 4000.0;    // ~4 TB/s device read bandwidth
constexpr double kGpuFetchNsPerRow = 0.05;       // write + gather one candidate row id
}  // namespace

double lookup_cost_ms(IndexKind kind, ExecDevice dev, uint64_t keys, const LookupBatch& b) {
  if (dev == ExecDevice::kCpu) {
    return lookup_cost_ms(kind, keys, b.lookups);  // hits are costed by fetch_cost_ms
  }
  const GpuLookupNs c = gpu_lookup_ns(kind);
  // Scale by depth relative to the 2^26-key measurement (search and traversal costs
  // grow with log2(keys)); ranges beyond 16 hits add a per-hit scan.
  const double depth = std::max(1.0, std::log2(double(std::max<uint64_t>(keys, 2)))) / 26.0;
  const double extra_hits = b.ranges ? std::max(0.0, b.hits_per_lookup - 16) * 0.01 : 0;
  const double unsorted = (b.ranges ? c.range16 : c.point) * depth + extra_hits;
  const double sorted = (b.ranges ? c.range16_sorted : c.point_sorted) * depth + extra_hits;
  const double per = b.presorted ? sorted : std::min(unsorted, sorted + kGpuSortNsPerLookup);
  return (kGpuLaunchNs + per * b.lookups) * 1e-6;
}

double scan_cost_ms(ExecDevice dev, uint64_t rows, double bytes, int filters) {
  if (dev == ExecDevice::kCpu) return scan_cost_ms(rows, filters);
  return (kGpuLaunchNs + bytes / kGpuReadBytesPerNs) * 1e-6;
}

double fetch_cost_ms(ExecDevice dev, double candidates) {
  return (dev == ExecDevice::kCpu ? cost_constants().fetch_ns_per_row : kGpuFetchNsPerRow) * candidates * 1e-6;
}

}  // namespace raydb::plan
