#pragma once
// The row loops every CPU selection pass shares (internal to order_statistics/): the
// column split into one contiguous range per OpenMP thread, and within a range every
// counting row's key computed on the fly from the stored value, with the key type and
// the presence of masks and group ids hoisted out of the loop by templates, so a pass
// reads only the column (and masks) and writes nothing but its counters.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "exec/core/order_statistics/column_input.h"

namespace raydb::exec::orderstat::detail {

inline int thread_count(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

// f(part, begin, end) for `parts(n, threads)` contiguous parts of [0, n), spread
// over OpenMP threads. The split depends only on n and threads, so two passes see the
// same parts (a scatter pass relies on that) even when OpenMP runs fewer threads.
inline int parts(uint64_t n, int threads) {
  return int(std::max<uint64_t>(1, std::min<uint64_t>(uint64_t(thread_count(threads)), n / 4096 + 1)));
}
template <class F>
void parallel_ranges(uint64_t n, int threads, F&& f) {
  const int t = parts(n, threads);
#pragma omp parallel num_threads(t)
  {
    for (int p = omp_get_thread_num(); p < t; p += omp_get_num_threads())
      f(p, n * uint64_t(p) / uint64_t(t), n * uint64_t(p + 1) / uint64_t(t));
  }
}

template <KeyType T>
inline auto typed_key(std::conditional_t<key_bits(T) == 32, uint32_t, uint64_t> bits) {
  if constexpr (key_bits(T) == 32)
    return key32(T, bits);
  else
    return key64(T, bits);
}

// f(row, key, group) for every row of [b, e) that counts (selected, not NULL); key is
// uint32_t for 32-bit types and uint64_t for 64-bit ones.
template <KeyType T, bool kMasks, bool kGroups, class F>
inline void scan_rows(const ColumnInput& in, uint64_t b, uint64_t e, F& f) {
  using Bits = std::conditional_t<key_bits(T) == 32, uint32_t, uint64_t>;
  const Bits* v = static_cast<const Bits*>(in.values);
  for (uint64_t i = b; i < e; i++) {
    if constexpr (kMasks)
      if (!in.counts(i)) continue;
    f(i, typed_key<T>(v[i]), kGroups ? in.group_ids[i] : 0u);
  }
}

template <KeyType T, class F>
inline void scan_rows_t(const ColumnInput& in, uint64_t b, uint64_t e, F& f) {
  const bool masks = in.select || in.nulls, groups = in.group_ids != nullptr;
  if (masks && groups) scan_rows<T, true, true>(in, b, e, f);
  else if (masks) scan_rows<T, true, false>(in, b, e, f);
  else if (groups) scan_rows<T, false, true>(in, b, e, f);
  else scan_rows<T, false, false>(in, b, e, f);
}

// scan_rows with the key type dispatched at run time: f is a generic lambda
// (uint64_t row, auto key, uint32_t group), instantiated for both key widths.
template <class F>
inline void scan_range(const ColumnInput& in, uint64_t b, uint64_t e, F& f) {
  switch (in.type) {
    case KeyType::kInt32: scan_rows_t<KeyType::kInt32>(in, b, e, f); break;
    case KeyType::kUInt32: scan_rows_t<KeyType::kUInt32>(in, b, e, f); break;
    case KeyType::kInt64: scan_rows_t<KeyType::kInt64>(in, b, e, f); break;
    case KeyType::kUInt64: scan_rows_t<KeyType::kUInt64>(in, b, e, f); break;
    case KeyType::kDouble: scan_rows_t<KeyType::kDouble>(in, b, e, f); break;
  }
}

}  // namespace raydb::exec::orderstat::detail
