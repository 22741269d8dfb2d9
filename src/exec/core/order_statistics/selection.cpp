#include "exec/core/order_statistics/selection.h"

#include <algorithm>

#include "common/error.h"
#include "exec/core/order_statistics/algorithms.h"
#include "exec/core/order_statistics/scan.h"

namespace raydb::exec::orderstat {

namespace {
// Grouped radix selection keeps one 256-bucket histogram per (group, distinct prefix)
// and part; up to this many per pass they stay in the L2 cache (64 * 2 KiB).
constexpr uint64_t kMaxHistograms = 64;
}  // namespace

const char* algorithm_name(Algorithm a) {
  switch (a) {
    case Algorithm::kBitwise: return "bitwise";
    case Algorithm::kRadix: return "radix";
    case Algorithm::kSort: return "sort";
  }
  return "?";
}

bool parse_algorithm(std::string_view name, Algorithm* out) {
  for (Algorithm a : {Algorithm::kBitwise, Algorithm::kRadix, Algorithm::kSort})
    if (name == algorithm_name(a)) {
      *out = a;
      return true;
    }
  return false;
}

std::vector<uint64_t> count_per_group(const ColumnInput& in, int threads) {
  const int nparts = detail::parts(in.n, threads);
  std::vector<std::vector<uint64_t>> local(static_cast<size_t>(nparts));
  detail::parallel_ranges(in.n, threads, [&](int p, uint64_t b, uint64_t e) {
    auto& c = local[size_t(p)];
    c.assign(in.groups, 0);
    if (!in.group_ids && !in.select && !in.nulls) {  // nothing to look at
      c[0] = e - b;
      return;
    }
    auto f = [&](uint64_t, auto, uint32_t g) { c[g]++; };
    detail::scan_range(in, b, e, f);
  });
  std::vector<uint64_t> counts(in.groups, 0);
  for (const auto& c : local)
    for (uint32_t g = 0; g < in.groups && g < c.size(); g++) counts[g] += c[g];
  return counts;
}

void promise_key_range(ColumnInput& in, int threads) {
  const int nparts = detail::parts(in.n, threads);
  std::vector<uint64_t> lo(size_t(nparts), ~uint64_t(0)), hi(size_t(nparts), 0);
  detail::parallel_ranges(in.n, threads, [&](int p, uint64_t b, uint64_t e) {
    uint64_t l = ~uint64_t(0), h = 0;
    auto f = [&](uint64_t, auto key, uint32_t) {
      l = std::min<uint64_t>(l, key);
      h = std::max<uint64_t>(h, key);
    };
    detail::scan_range(in, b, e, f);
    lo[size_t(p)] = l;
    hi[size_t(p)] = h;
  });
  const uint64_t l = *std::min_element(lo.begin(), lo.end()), h = *std::max_element(hi.begin(), hi.end());
  if (l > h) return;  // no counting row
  in.key_lo = l;
  in.key_hi = h;
}

std::vector<uint64_t> select_keys(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m,
                                  const SelectOptions& options) {
  if (in.groups == 0 || (in.groups > 1 && !in.group_ids && in.n > 0))
    fail(ErrorKind::kInternal, "order statistics: {} groups without group ids", in.groups);
  if (ranks.size() != size_t(in.groups) * m)
    fail(ErrorKind::kInternal, "order statistics: {} ranks for {} groups x {}", ranks.size(), in.groups, m);
  std::vector<uint64_t> out(ranks.size(), 0);
  bool any = false;
  for (uint64_t r : ranks) any |= r != kNoRank;
  if (!any || in.n == 0) return out;
  switch (options.algorithm) {
    case Algorithm::kBitwise:
      detail::bitwise_select(in, ranks, m, options.threads, out);
      break;
    case Algorithm::kRadix: {
      const bool few = uint64_t(in.groups) * m <= kMaxHistograms;
      if (options.group_mode == GroupMode::kHistograms || (options.group_mode == GroupMode::kAuto && few))
        detail::histogram_select(in, ranks, m, options.threads, out);
      else
        detail::segmented_select(in, ranks, m, false, options.threads, out);
      break;
    }
    case Algorithm::kSort:
      detail::segmented_select(in, ranks, m, true, options.threads, out);
      break;
  }
  return out;
}

}  // namespace raydb::exec::orderstat
