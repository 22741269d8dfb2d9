#include "access/rt_scan/sieve.h"

#include "common/error.h"

namespace raydb::access::rt_scan {

SieveBorders sieve_borders(const MappingTable& t, uint32_t bins) {
  SieveBorders b;
  b.x.push_back(0);
  if (t.valid == 0) return b;
  if (bins == 0) fail(ErrorKind::kInvalidInput, "rt scan: bins must be at least 1");
  const size_t d = t.values.size();
  for (uint32_t i = 1; i <= bins; ++i) {
    const uint64_t ideal = static_cast<uint64_t>(i) * t.valid / bins;
    // The value holding rank `ideal` spans [first[j], first[j + 1]): move to the nearer end.
    const size_t j = t.dense() ? static_cast<size_t>(ideal)
                               : std::upper_bound(t.first.begin(), t.first.begin() + d, static_cast<uint32_t>(ideal)) -
                                     t.first.begin() - 1;
    uint32_t x = t.first_rank(j);
    if (ideal - x > t.first_rank(j + 1) - ideal) x = t.first_rank(j + 1);
    if (i == bins) x = t.valid;
    if (x > b.x.back()) b.x.push_back(x);
  }
  return b;
}

namespace {

uint32_t floor_border(const SieveBorders& b, uint32_t v) {
  return static_cast<uint32_t>(std::upper_bound(b.x.begin(), b.x.end(), v) - b.x.begin() - 1);
}
uint32_t ceil_border(const SieveBorders& b, uint32_t v) {
  return static_cast<uint32_t>(std::lower_bound(b.x.begin(), b.x.end(), v) - b.x.begin());
}
uint32_t nearest_border(const SieveBorders& b, uint32_t v) {
  const uint32_t k = floor_border(b, v);
  if (k + 1 < b.x.size() && b.x[k + 1] - v < v - b.x[k]) return k + 1;
  return k;
}

}  // namespace

SieveChoice choose_sieve(const SieveBorders& b, const RankSet& p, SieveMode mode, uint32_t valid) {
  SieveChoice c;
  if (mode != SieveMode::kOff && b.bins() > 0) {
    std::vector<std::pair<uint32_t, uint32_t>> spans;
    for (const RankRange& r : p) {
      uint32_t i, j;
      if (mode == SieveMode::kPositive) {
        i = ceil_border(b, r.lo);
        j = floor_border(b, r.hi);
      } else if (mode == SieveMode::kNegative) {
        i = floor_border(b, r.lo);
        j = ceil_border(b, r.hi);
      } else {
        i = nearest_border(b, r.lo);
        j = nearest_border(b, r.hi);
      }
      if (i < j) spans.push_back({i, j});
    }
    std::sort(spans.begin(), spans.end());
    for (auto s : spans) {  // merge overlapping / adjacent spans
      if (!c.spans.empty() && s.first <= c.spans.back().second)
        c.spans.back().second = std::max(c.spans.back().second, s.second);
      else
        c.spans.push_back(s);
    }
  }
  for (auto s : c.spans) c.approx.push_back({b.x[s.first], b.x[s.second]});
  c.residual = symmetric_difference(c.approx, p, valid);
  return c;
}

HostSieve build_host_sieve(const SieveBorders& b, std::span<const uint32_t> ranks, const ScanColumn& column) {
  HostSieve s;
  const uint64_t n = ranks.size();
  s.words = (n + 63) / 64;
  const uint32_t m = b.bins();
  if (!column.nulls.empty()) {
    s.valid.assign(s.words, 0);
    for (uint64_t w = 0; w < s.words; ++w) {
      const uint64_t rows = std::min<uint64_t>(64, n - w * 64);
      const uint64_t all = rows == 64 ? ~uint64_t{0} : (uint64_t{1} << rows) - 1;
      s.valid[w] = ~column.nulls[w] & all;
    }
  }
  if (m < 2) return s;
  s.f.assign(static_cast<uint64_t>(m - 1) * s.words, 0);
  const int64_t words = static_cast<int64_t>(s.words);
#pragma omp parallel if(words > kParallelMin / 64)
  {
    std::vector<uint64_t> eq(m, 0);  // rows of this word per bin
    std::vector<uint32_t> touched;
#pragma omp for schedule(static)
    for (int64_t w = 0; w < words; ++w) {
      touched.clear();
      const uint64_t base = static_cast<uint64_t>(w) * 64, end = std::min<uint64_t>(n, base + 64);
      uint32_t low = m;  // lowest bin in this word
      for (uint64_t r = base; r < end; ++r) {
        if (ranks[r] >= b.x.back()) continue;  // NULL rows are below no border
        const uint32_t bin = floor_border(b, ranks[r]);
        if (eq[bin] == 0) touched.push_back(bin);
        eq[bin] |= uint64_t{1} << (r - base);
        low = std::min(low, bin);
      }
      uint64_t acc = 0;
      for (uint32_t i = low + 1; i < m; ++i) {  // F_i = rows in bins below i
        acc |= eq[i - 1];
        s.f[(i - 1) * s.words + w] = acc;
      }
      for (uint32_t bin : touched) eq[bin] = 0;
    }
  }
  return s;
}

uint64_t sieve_word(const HostSieve& s, const SieveBorders& b, const SieveChoice& c, uint64_t w, uint64_t tail) {
  const uint32_t m = b.bins();
  uint64_t acc = 0;
  for (auto [i, j] : c.spans) {
    const uint64_t hi = j == m ? (s.valid.empty() ? tail : s.valid[w]) : s.vec(j)[w];
    const uint64_t lo = i == 0 ? 0 : s.vec(i)[w];
    acc |= hi & ~lo;
  }
  return acc;
}

}  // namespace raydb::access::rt_scan
