#include "sql/unique_key_index.h"

#include <algorithm>
#include <atomic>
#include <bit>

#include "sql/column_words.h"

namespace raydb::sql {

namespace {

// Below this many rows a parallel region costs more than it saves.
constexpr uint64_t kParallelRows = uint64_t(1) << 16;

template <typename N>
bool is_null(const N* nulls, uint64_t r) {
  return nulls != nullptr && nulls[r] != 0;
}

// Min and max of the non-NULL keys (lo > hi: none), in one parallel pass.
template <typename T, typename N>
void key_bounds(const T* keys, const N* nulls, uint64_t n, int64_t& lo, int64_t& hi) {
  int64_t l = INT64_MAX, h = INT64_MIN;
#pragma omp parallel for schedule(static) reduction(min : l) reduction(max : h) if (n > kParallelRows)
  for (uint64_t r = 0; r < n; r++)
    if (!is_null(nulls, r)) l = std::min<int64_t>(l, keys[r]), h = std::max<int64_t>(h, keys[r]);
  lo = l, hi = h;
}

void fill_empty(uint32_t* rows, uint64_t slots) {
#pragma omp parallel for schedule(static) if (slots > kParallelRows)
  for (uint64_t s = 0; s < slots; s++) rows[s] = kNoMatch;
}

enum class Fill { kOk, kTwice, kOutside };

}  // namespace

// Direct array over [lo_, lo_ + span_): each row writes itself into its key's slot,
// then each row checks that its slot holds it; a key held twice leaves one row in the
// slot, so its other rows fail the check whatever the threads' order. Relaxed atomic
// stores and loads (plain moves on x86; a compare-and-swap per key cost more than the
// second pass).
template <typename T, typename N>
int UniqueKeyIndex::fill_direct(const T* keys, const N* nulls, uint64_t n) {
  rows_.reset(new uint32_t[span_]);  // not value-initialized: filled once, in parallel
  fill_empty(rows_.get(), span_);
  bool outside = false, twice = false;
  const int64_t lo = lo_;
  const uint64_t span = span_;
  uint32_t* rows = rows_.get();
#pragma omp parallel for schedule(static) reduction(|| : outside) if (n > kParallelRows)
  for (uint64_t r = 0; r < n; r++) {
    if (is_null(nulls, r)) continue;
    const uint64_t at = uint64_t(int64_t(keys[r])) - uint64_t(lo);
    if (at >= span) outside = true;
    else std::atomic_ref<uint32_t>(rows[at]).store(uint32_t(r), std::memory_order_relaxed);
  }
  if (outside) return int(Fill::kOutside);
#pragma omp parallel for schedule(static) reduction(|| : twice) if (n > kParallelRows)
  for (uint64_t r = 0; r < n; r++) {
    if (is_null(nulls, r)) continue;
    const uint64_t at = uint64_t(int64_t(keys[r])) - uint64_t(lo);
    twice = twice || std::atomic_ref<uint32_t>(rows[at]).load(std::memory_order_relaxed) != uint32_t(r);
  }
  return int(twice ? Fill::kTwice : Fill::kOk);
}

// Open addressing at load at most 1/2, filled serially (keys spread wider than 4x
// their count: no TPC-H key on the hot paths).
template <typename T, typename N>
int UniqueKeyIndex::fill_hashed(const T* keys, const N* nulls, uint64_t n) {
  const size_t slots = std::bit_ceil(std::max<size_t>(2 * size_t(n), 16));
  mask_ = slots - 1;
  rows_.reset(new uint32_t[slots]);
  fill_empty(rows_.get(), slots);
  keys_.resize(slots);
  for (uint64_t r = 0; r < n; r++) {
    if (is_null(nulls, r)) continue;
    const int64_t k = keys[r];
    for (size_t s = slot(k);; s = (s + 1) & mask_) {
      if (rows_[s] == kNoMatch) {
        rows_[s] = uint32_t(r), keys_[s] = k;
        break;
      }
      if (keys_[s] == k) return int(Fill::kTwice);
    }
  }
  return int(Fill::kOk);
}

// Bounds from the column's statistics (exact min/max of its stored values, NULL
// placeholders included, so they hold every key); a key outside them (statistics not
// as documented) finds exact bounds by a scan and fills again.
template <typename T, typename N>
bool UniqueKeyIndex::fill(const T* keys, const N* nulls, uint64_t n, const ColumnStats& stats) {
  int64_t lo = stats.min, hi = stats.max;
  if (lo > hi) key_bounds(keys, nulls, n, lo, hi);
  for (int attempt = 0;; attempt++) {
    lo_ = lo > hi ? 0 : lo;
    span_ = lo > hi ? 0 : uint64_t(hi) - uint64_t(lo) + 1;  // 0 with lo <= hi: all 2^64 values
    direct_ = lo > hi || (span_ != 0 && span_ <= 4 * n + 1024);
    const Fill f = Fill(direct_ ? fill_direct(keys, nulls, n) : fill_hashed(keys, nulls, n));
    if (f != Fill::kOutside || attempt > 0) return f == Fill::kOk;
    key_bounds(keys, nulls, n, lo, hi);
  }
}

std::optional<UniqueKeyIndex> UniqueKeyIndex::build(const Column& keys, const Column* nulls, uint64_t n) {
  if (n >= kNoMatch || n > keys.size() || (nulls && n > nulls->size())) return std::nullopt;
  UniqueKeyIndex index;
  const ColumnStats stats = n == keys.size() ? keys.stats() : ColumnStats{};
  const bool ok = with_column_words(keys, [&](auto* k) {
    if (!nulls) return index.fill(k, static_cast<const int32_t*>(nullptr), n, stats);
    return with_column_words(*nulls, [&](auto* f) { return index.fill(k, f, n, stats); });
  });
  if (!ok) return std::nullopt;
  return index;
}

}  // namespace raydb::sql
