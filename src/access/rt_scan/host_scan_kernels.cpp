#include "access/rt_scan/host_scan_kernels.h"

namespace raydb::access::rt_scan {

namespace {

uint64_t tail_mask(uint64_t rows, uint64_t w) {
  const uint64_t left = rows - w * 64;
  return left >= 64 ? ~uint64_t{0} : (uint64_t{1} << left) - 1;
}

}  // namespace

const char* scan_method_name(ScanMethod m) {
  switch (m) {
    case ScanMethod::kRt: return "rt";
    case ScanMethod::kCpuScan: return "cpu-scan";
    case ScanMethod::kCpuSieve: return "cpu-sieve";
    case ScanMethod::kGpuScan: return "gpu-scan";
    case ScanMethod::kGpuSieve: return "gpu-sieve";
  }
  return "?";
}

uint64_t BitVector::count() const {
  uint64_t n = 0;
  for (uint64_t w : words) n += static_cast<uint64_t>(__builtin_popcountll(w));
  return n;
}

uint64_t ScanBuildStats::host_bytes() const {
  uint64_t n = 0;
  for (const StructureStats& s : structures) n += s.host_bytes;
  return n;
}

uint64_t ScanBuildStats::device_bytes() const {
  uint64_t n = 0;
  for (const StructureStats& s : structures) n += s.device_bytes;
  return n;
}

BitVector host_zeros(uint64_t rows) {
  BitVector b;
  b.rows = rows;
  b.words.assign((rows + 63) / 64, 0);
  return b;
}

BitVector host_ones(uint64_t rows) {
  BitVector b = host_zeros(rows);
  for (uint64_t w = 0; w < b.words.size(); ++w) b.words[w] = tail_mask(rows, w);
  return b;
}

void host_combine(BitVector& a, const BitVector& b, bool is_or) {
  const int64_t n = static_cast<int64_t>(a.words.size());
  uint64_t* x = a.words.data();
  const uint64_t* y = b.words.data();
  if (is_or) {
#pragma omp parallel for schedule(static) if(n > kParallelMin / 64)
    for (int64_t w = 0; w < n; ++w) x[w] |= y[w];
  } else {
#pragma omp parallel for schedule(static) if(n > kParallelMin / 64)
    for (int64_t w = 0; w < n; ++w) x[w] &= y[w];
  }
}

namespace {

// Bits of rows base..base+63 whose value is in one of the ranges (unsigned distance
// test: lo <= v <= hi as v - lo <= hi - lo modulo 2^64, branch-free, vectorizable).
uint64_t scan_word(const int64_t* v, uint64_t count, const std::vector<std::pair<int64_t, int64_t>>& ranges) {
  uint64_t m = 0;
  for (const auto& [lo, hi] : ranges) {
    const uint64_t ulo = static_cast<uint64_t>(lo), width = static_cast<uint64_t>(hi) - ulo;
    uint64_t r = 0;
    for (uint64_t i = 0; i < count; ++i) r |= static_cast<uint64_t>(static_cast<uint64_t>(v[i]) - ulo <= width) << i;
    m |= r;
  }
  return m;
}

}  // namespace

BitVector host_scan(const std::vector<ScanTermView>& terms, uint64_t rows) {
  BitVector out = host_zeros(rows);
  const int64_t words = static_cast<int64_t>(out.words.size());
#pragma omp parallel for schedule(static) if(words > kParallelMin / 64)
  for (int64_t w = 0; w < words; ++w) {
    const uint64_t base = static_cast<uint64_t>(w) * 64, count = std::min<uint64_t>(64, rows - base);
    uint64_t acc = tail_mask(rows, w);
    for (const ScanTermView& t : terms) {
      uint64_t m = scan_word(t.column.values.data() + base, count, t.ranges);
      if (!t.column.nulls.empty()) m &= ~t.column.nulls[w];
      acc &= m;
      if (acc == 0) break;
    }
    out.words[w] = acc;
  }
  return out;
}

BitVector host_sieve_and(const std::vector<SieveTermView>& terms, uint64_t rows) {
  BitVector out = host_zeros(rows);
  const int64_t words = static_cast<int64_t>(out.words.size());
#pragma omp parallel for schedule(static) if(words > kParallelMin / 64)
  for (int64_t w = 0; w < words; ++w) {
    const uint64_t tail = tail_mask(rows, w);
    uint64_t acc = tail;
    for (const SieveTermView& t : terms) {
      acc &= t.choice->spans.empty() ? 0 : sieve_word(*t.sieve, *t.borders, *t.choice, w, tail);
      if (acc == 0) break;
    }
    out.words[w] = acc;
  }
  return out;
}

}  // namespace raydb::access::rt_scan
