#include "storage/narrow_encoder.h"

#include <omp.h>

#include <algorithm>
#include <bit>

#include "common/error.h"
#include "common/int_math.h"

namespace raydb {

namespace {

// The bitmap of `n` values over [mn, mx] (bit v - mn set when v occurs), or empty when
// the range passes 2^26 (one bitmap pass). Threads by the rows, each with its own
// bitmap: a temp table's 118 K keys over a 4 M range took 16 zeroed 500 KB copies.
template <typename Get>
std::vector<uint64_t> value_bitmap(uint64_t n, int64_t mn, int64_t mx, const Get& get) {
  const uint64_t range = value_count(mn, mx);
  if (range > (uint64_t(1) << 26)) return {};
  std::vector<uint64_t> bits((range + 63) / 64, 0);
  const int threads = int(std::min<uint64_t>(uint64_t(omp_get_max_threads()), std::max<uint64_t>(1, n / (1 << 20))));
  if (threads <= 1) {
    for (uint64_t i = 0; i < n; i++) {
      const uint64_t o = unsigned_span(mn, get(i));
      bits[o >> 6] |= uint64_t(1) << (o & 63);
    }
    return bits;
  }
  std::vector<std::vector<uint64_t>> local(static_cast<size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
    auto& b = local[size_t(omp_get_thread_num())];
    b.assign(bits.size(), 0);
#pragma omp for schedule(static)
    for (uint64_t i = 0; i < n; i++) {
      uint64_t o = unsigned_span(mn, get(i));
      b[o >> 6] |= uint64_t(1) << (o & 63);
    }
  }
  for (auto& b : local)
    for (size_t w = 0; w < bits.size(); w++) bits[w] |= b[w];
  return bits;
}

}  // namespace

int NarrowEncoder::width_for(uint64_t range) {
  if (range < (uint64_t(1) << 8)) return 1;
  if (range < (uint64_t(1) << 16)) return 2;
  if (range < (uint64_t(1) << 32)) return 4;
  return 8;
}

NarrowEncoder::NarrowEncoder(const Type& type, const void* data, uint64_t rows, const ColumnStats& stats)
    : data_(data), rows_(rows), wide_(type.physical_width() == 8) {
  if (type.id == TypeId::kDouble) fail(ErrorKind::kInternal, "a DOUBLE column has no narrowed form");
  const int64_t mn = stats.min <= stats.max ? stats.min : 0, mx = stats.min <= stats.max ? stats.max : 0;
  base_ = mn;
  width_ = width_for(unsigned_span(mn, mx));
  if (width_ >= 4 && rows >= 65536) {
    // Dictionary form for at most 65536 distinct values: a value's code is its rank
    // among them, the bits set before it (a prefix count per word), so the encoder
    // holds range / 8 bytes plus a count per 64 values, not 8 bytes per value of the
    // range (32 MB for a 4 M range; 512 MB at 2^26).
    std::vector<uint64_t> bits = value_bitmap(rows, mn, mx, [this](uint64_t i) { return value(i); });
    size_t count = 0;
    for (uint64_t w : bits) count += size_t(std::popcount(w));
    if (!bits.empty() && count <= 65536) {
      width_ = 2;
      decode_.reserve(count);
      rank_before_.resize(bits.size());
      uint32_t before = 0;
      for (size_t w = 0; w < bits.size(); w++) {
        rank_before_[w] = before;
        before += uint32_t(std::popcount(bits[w]));
        for (uint64_t x = bits[w]; x; x &= x - 1) decode_.push_back(mn + int64_t(w * 64 + size_t(std::countr_zero(x))));
      }
      rank_bits_ = std::move(bits);
    }
  }
}

uint64_t NarrowEncoder::rank(int64_t v) const {
  const uint64_t o = unsigned_span(base_, v);
  const uint64_t below = rank_bits_[o >> 6] & ((uint64_t(1) << (o & 63)) - 1);
  return uint64_t(rank_before_[o >> 6]) + uint64_t(std::popcount(below));
}

int64_t NarrowEncoder::value(uint64_t row) const {
  return wide_ ? static_cast<const int64_t*>(data_)[row] : int64_t(static_cast<const int32_t*>(data_)[row]);
}

void NarrowEncoder::encode(uint64_t begin, uint64_t len, void* out) const {
  const int64_t n = int64_t(len);
#pragma omp parallel for schedule(static) if (n > (1 << 16))
  for (int64_t k = 0; k < n; k++) {
    const uint64_t i = uint64_t(k);
    const int64_t v = value(begin + i);
    const uint64_t st = decode_.empty() ? unsigned_span(base_, v) : rank(v);
    switch (width_) {
      case 1: static_cast<uint8_t*>(out)[i] = uint8_t(st); break;
      case 2: static_cast<uint16_t*>(out)[i] = uint16_t(st); break;
      case 4: static_cast<uint32_t*>(out)[i] = uint32_t(st); break;
      default: static_cast<uint64_t*>(out)[i] = st; break;
    }
  }
}

}  // namespace raydb
