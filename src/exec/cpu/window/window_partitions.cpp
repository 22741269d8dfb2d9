#include "exec/cpu/window/window_partitions.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace raydb::exec::cpu {

int compare_values(const Vector& v, size_t a, size_t b) {
  switch (v.kind) {
    case VectorKind::kInt:
    case VectorKind::kCode: return (v.ints[a] > v.ints[b]) - (v.ints[a] < v.ints[b]);
    case VectorKind::kHuge: return (v.huge[a] > v.huge[b]) - (v.huge[a] < v.huge[b]);
    case VectorKind::kDouble: {
      const double x = v.doubles[a], y = v.doubles[b];
      const bool nx = std::isnan(x), ny = std::isnan(y);
      return (nx || ny) ? int(nx) - int(ny) : (x > y) - (x < y);
    }
    case VectorKind::kString: {
      const int r = v.strings[a].compare(v.strings[b]);
      return (r > 0) - (r < 0);
    }
  }
  return 0;
}

namespace {

// NULL-aware comparison of one key: NULLs equal each other and sort first or last.
int compare_key(const Vector& v, size_t a, size_t b, bool nulls_first) {
  const bool na = v.is_null(a), nb = v.is_null(b);
  if (na || nb) {
    if (na && nb) return 0;
    return (na ? -1 : 1) * (nulls_first ? 1 : -1);
  }
  return compare_values(v, a, b);
}

}  // namespace

WindowPartitions::WindowPartitions(const std::vector<const Vector*>& partition, const std::vector<Key>& order,
                                   size_t n) {
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), 0u);
  auto part_cmp = [&](uint32_t a, uint32_t b) {
    for (const Vector* v : partition)
      if (int c = compare_key(*v, a, b, false)) return c;
    return 0;
  };
  auto order_cmp = [&](uint32_t a, uint32_t b) {
    for (const Key& k : order) {
      int c = compare_key(*k.values, a, b, k.nulls_first != k.descending);
      if (c) return k.descending ? -c : c;
    }
    return 0;
  };
  if (!partition.empty() || !order.empty())
    std::stable_sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
      if (int c = part_cmp(a, b)) return c < 0;
      return order_cmp(a, b) < 0;
    });
  part_.push_back(0);
  for (size_t i = 1; i < n; i++)
    if (!partition.empty() && part_cmp(order_[i - 1], order_[i]) != 0) part_.push_back(i);
  part_.push_back(n);
  if (n == 0) part_.assign(1, 0);  // no partitions at all
  // Peer groups within each partition: without ORDER BY the whole partition.
  peer_begin_.resize(n);
  peer_end_.resize(n);
  for (size_t p = 0; p + 1 < part_.size(); p++) {
    size_t begin = part_[p];
    for (size_t i = part_[p]; i < part_[p + 1]; i++) {
      if (i > begin && !order.empty() && order_cmp(order_[i - 1], order_[i]) != 0) begin = i;
      peer_begin_[i] = uint32_t(begin);
    }
    size_t end = part_[p + 1];
    for (size_t i = part_[p + 1]; i-- > part_[p];) {
      peer_end_[i] = uint32_t(end);
      if (peer_begin_[i] == i) end = i;
    }
  }
}

}  // namespace raydb::exec::cpu
