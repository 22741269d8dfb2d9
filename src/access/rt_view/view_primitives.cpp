#include "access/rt_view/view_primitives.h"

#include <algorithm>

#include "access/rt_view/dense_ids.h"

namespace raydb::rtview {
namespace {

// Row -> dense tuple id; nullopt past max_primitives.
std::optional<uint64_t> tuple_ids(const ViewRows& v, uint64_t max_primitives, std::vector<uint32_t>& ids) {
  ids = v.group_ids;
  uint64_t count = v.rows != 0 ? std::max<uint64_t>(1, v.group_count) : 0;
  if (count > max_primitives) return std::nullopt;
  for (size_t a = 0; a < v.filter_codes.size() && count != 0; ++a) {
    count = densify(ids, v.filter_codes[a], count, std::max<uint32_t>(1, v.filter_domains[a].size));
    if (count > max_primitives) return std::nullopt;
  }
  return count;
}

// True when no sum over any set of rows can leave int64: rows * max |value| < 2^63.
bool sums_fit(const ViewRows& v) {
  for (const auto& col : v.inputs) {
    unsigned __int128 largest = 0;
    for (const int64_t x : col) largest = std::max<unsigned __int128>(largest, x < 0 ? -static_cast<__int128>(x) : x);
    if (largest * v.rows > static_cast<unsigned __int128>(INT64_MAX)) return false;
  }
  return true;
}

}  // namespace

std::optional<uint64_t> count_primitives(const ViewRows& v, uint64_t max_primitives) {
  std::vector<uint32_t> ids;
  const std::optional<uint64_t> n = tuple_ids(v, max_primitives, ids);
  if (!n || sums_fit(v)) return n;
  const std::optional<MergedRows> m = merge_rows(v, max_primitives);  // checks each primitive's sums
  return m ? std::optional<uint64_t>(m->primitives) : std::nullopt;
}

std::optional<MergedRows> merge_rows(const ViewRows& v, uint64_t max_primitives) {
  std::vector<uint32_t> of_row;
  const std::optional<uint64_t> n = tuple_ids(v, max_primitives, of_row);
  if (!n) return std::nullopt;
  const size_t k = static_cast<size_t>(*n), attrs = v.filter_codes.size(), inputs = v.inputs.size();
  MergedRows m;
  m.primitives = static_cast<uint32_t>(k);
  m.counts.assign(k, 0);
  m.group_ids.assign(k, 0);
  m.filter_codes.assign(attrs, std::vector<uint32_t>(k, 0));
  std::vector<std::vector<__int128>> sums(inputs, std::vector<__int128>(k, 0));
  m.min.assign(inputs, std::vector<int64_t>(k, INT64_MAX));
  m.max.assign(inputs, std::vector<int64_t>(k, INT64_MIN));
  // One pass in row order: sequential reads, writes into arrays of k entries.
  for (uint64_t r = 0; r < v.rows; ++r) {
    const uint32_t p = of_row[r];
    if (m.counts[p]++ == 0) {  // the first row gives the tuple's codes
      m.group_ids[p] = v.group_ids[r];
      for (size_t a = 0; a < attrs; ++a) m.filter_codes[a][p] = v.filter_codes[a][r];
    }
    for (size_t i = 0; i < inputs; ++i) {
      const int64_t x = v.inputs[i][r];
      sums[i][p] += x;  // |sum| <= rows * 2^63 < 2^94: no int128 overflow
      m.min[i][p] = std::min(m.min[i][p], x);
      m.max[i][p] = std::max(m.max[i][p], x);
    }
  }
  m.sum.assign(inputs, std::vector<int64_t>(k, 0));
  for (size_t i = 0; i < inputs; ++i)
    for (size_t p = 0; p < k; ++p) {
      if (sums[i][p] > INT64_MAX || sums[i][p] < INT64_MIN) return std::nullopt;
      m.sum[i][p] = static_cast<int64_t>(sums[i][p]);
    }
  return m;
}

}  // namespace raydb::rtview
