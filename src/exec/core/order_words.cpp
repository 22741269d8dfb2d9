#include "exec/core/order_words.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <string_view>

#include "exec/core/radix_order.h"
#include "storage/view_code_table.h"

namespace raydb::exec {

namespace {

size_t value_words(const Vector& v) { return v.kind == VectorKind::kHuge ? 2 : 1; }

// A DOUBLE as a signed word in compare_order_rows' order.
int64_t double_word(double x) {
  if (x == 0) x = 0;                                       // -0.0 ties with 0.0
  if (std::isnan(x)) return int64_t(0x7ff8000000000000);  // every NaN one value, above +inf
  const int64_t b = std::bit_cast<int64_t>(x);
  return b < 0 ? b ^ INT64_MAX : b;  // negatives: larger magnitude, smaller word
}

// Per row, the rank of its string among the vector's distinct strings in byte order
// (NULL rows 0): the distinct strings are sorted once instead of compared per pair.
std::vector<int64_t> string_ranks(const Vector& v, size_t n) {
  ViewCodeTable index;
  std::vector<int32_t> id(n, 0);
  for (size_t i = 0; i < n; i++)
    if (!v.is_null(i)) id[i] = index.code(v.strings[i]);
  const std::vector<std::string_view>& distinct = index.distinct();
  std::vector<uint32_t> by(distinct.size());
  std::iota(by.begin(), by.end(), 0);
  std::sort(by.begin(), by.end(), [&](uint32_t a, uint32_t b) { return distinct[a] < distinct[b]; });
  std::vector<int64_t> rank(distinct.size());
  for (size_t r = 0; r < by.size(); r++) rank[by[r]] = int64_t(r);
  std::vector<int64_t> out(n, 0);
  for (size_t i = 0; i < n; i++)
    if (!v.is_null(i)) out[i] = rank[size_t(id[i])];
  return out;
}

}  // namespace

size_t order_width(const std::vector<Vector>& keys) {
  size_t w = 0;
  for (auto& k : keys) w += value_words(k) + (k.has_nulls() ? 1 : 0);
  return w;
}

std::vector<int64_t> order_words(const std::vector<Vector>& keys, const std::vector<plan::OrderItem>& items,
                                 size_t n) {
  const size_t width = order_width(keys);
  std::vector<int64_t> out(n * width);
  size_t col = 0;
  for (size_t k = 0; k < keys.size(); k++) {
    const Vector& v = keys[k];
    const plan::OrderItem& item = items[k];
    // ~x reverses the signed order of every word (no overflow, unlike -x).
    const int64_t flip = item.descending ? -1 : 0;
    if (v.has_nulls()) {
      // Independent of the direction, as compare_order_rows.
      for (size_t i = 0; i < n; i++) out[i * width + col] = v.is_null(i) == item.nulls_first ? 0 : 1;
      col++;
    }
    auto put = [&](size_t c, size_t i, int64_t w) { out[i * width + c] = v.is_null(i) ? 0 : w ^ flip; };
    switch (v.kind) {
      case VectorKind::kInt:
      case VectorKind::kCode:  // dictionaries are sorted: codes in string order
        for (size_t i = 0; i < n; i++) put(col, i, v.ints[i]);
        break;
      case VectorKind::kHuge:
        for (size_t i = 0; i < n; i++) {
          put(col, i, int64_t(v.huge[i] >> 64));
          put(col + 1, i, int64_t(uint64_t(v.huge[i]) ^ (uint64_t(1) << 63)));  // low half, unsigned order
        }
        break;
      case VectorKind::kDouble:
        for (size_t i = 0; i < n; i++) put(col, i, double_word(v.doubles[i]));
        break;
      case VectorKind::kString: {
        const std::vector<int64_t> rank = string_ranks(v, n);
        for (size_t i = 0; i < n; i++) put(col, i, rank[i]);
        break;
      }
    }
    col += value_words(v);
  }
  return out;
}

std::vector<uint32_t> ordered_rows(const std::vector<Vector>& keys, const std::vector<plan::OrderItem>& items,
                                   size_t n, int64_t limit) {
  const size_t width = order_width(keys);
  const std::vector<int64_t> words = order_words(keys, items, n);
  if (limit < 0 || size_t(limit) >= n) return ascending_order_rows(words, width);
  std::vector<uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  auto before = [&](uint32_t a, uint32_t b) {
    const int64_t* x = &words[size_t(a) * width];
    const int64_t* y = &words[size_t(b) * width];
    for (size_t w = 0; w < width; w++)
      if (x[w] != y[w]) return x[w] < y[w];
    return a < b;  // stable
  };
  std::partial_sort(idx.begin(), idx.begin() + limit, idx.end(), before);
  idx.resize(size_t(limit));
  return idx;
}

}  // namespace raydb::exec
