// exec/core/order_words: the word-radix ORDER BY permutation against std::stable_sort
// through compare_order_rows (the comparator the finisher used before), over random
// keys of every vector kind with NULLs, NaNs, -0.0, infinities, extreme integers and
// repeated strings, each key ascending or descending, NULLs first or last, one to three
// keys, with and without LIMIT, below and above the radix threshold.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "exec/core/order_compare.h"
#include "exec/core/order_words.h"

namespace raydb::exec {
namespace {

std::vector<uint32_t> reference(const std::vector<Vector>& keys, const std::vector<plan::OrderItem>& items, size_t n,
                                int64_t limit) {
  std::vector<uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
    for (size_t k = 0; k < keys.size(); k++)
      if (const int c = compare_order_rows(keys[k], items[k], a, b)) return c < 0;
    return false;
  });
  if (limit >= 0 && size_t(limit) < n) idx.resize(size_t(limit));
  return idx;
}

Vector random_key(int kind, size_t n, std::mt19937_64& rng, std::deque<std::string>& arena) {
  static const Dictionary dict(std::vector<std::string>{"a", "b", "c", "d"});
  Vector v;
  v.size = n;
  const int distinct = int(rng() % 3);  // few, some, many distinct values
  const uint64_t mod = distinct == 0 ? 3 : distinct == 1 ? 50 : 1000000007;
  for (size_t i = 0; i < n; i++) {
    const uint64_t r = rng() % mod;
    switch (kind) {
      case 0:
        v.type = Type::bigint();
        v.ints.push_back(r % 11 == 0 ? (r % 2 ? INT64_MIN : INT64_MAX) : int64_t(r) - int64_t(mod / 2));
        break;
      case 1:
        v.type = Type::hugeint();
        v.kind = VectorKind::kHuge;
        v.huge.push_back((__int128(int64_t(r) - int64_t(mod / 2)) << (r % 3 == 0 ? 70 : 0)) + __int128(rng() % 2));
        break;
      case 2: {
        v.type = Type::float64();
        v.kind = VectorKind::kDouble;
        static const double special[] = {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(),
                                         -std::numeric_limits<double>::quiet_NaN(),
                                         std::numeric_limits<double>::infinity(),
                                         -std::numeric_limits<double>::infinity()};
        v.doubles.push_back(r % 7 == 0 ? special[r % 6] : (double(r) - double(mod / 2)) / 3.0);
        break;
      }
      case 3:
        v.type = Type::varchar();
        v.kind = VectorKind::kString;
        arena.push_back(r % 5 == 0 ? std::string() : "s" + std::to_string(r) + (r % 2 ? "\xff" : ""));
        v.strings.push_back(arena.back());
        break;
      default:
        v.type = Type::varchar();
        v.kind = VectorKind::kCode;
        v.dict = &dict;
        v.ints.push_back(int64_t(r % 4));
        break;
    }
  }
  if (rng() % 2)
    for (size_t i = 0; i < n; i++)
      if (rng() % 6 == 0) v.set_null(i);
  return v;
}

TEST(OrderWords, EqualsTheComparatorSort) {
  std::mt19937_64 rng(21);
  std::deque<std::string> arena;
  for (const size_t n : {size_t(0), size_t(1), size_t(2), size_t(300), size_t(5000), size_t(30000)}) {
    for (int round = 0; round < 40; round++) {
      const size_t nkeys = 1 + rng() % 3;
      std::vector<Vector> keys;
      std::vector<plan::OrderItem> items(nkeys);
      for (size_t k = 0; k < nkeys; k++) {
        keys.push_back(random_key(int(rng() % 5), n, rng, arena));
        items[k].descending = rng() % 2;
        items[k].nulls_first = rng() % 2;
      }
      const int64_t limit = rng() % 3 == 0 ? int64_t(rng() % (n + 2)) : -1;
      ASSERT_EQ(reference(keys, items, n, limit), ordered_rows(keys, items, n, limit))
          << n << " rows, round " << round << ", limit " << limit;
    }
  }
}

}  // namespace
}  // namespace raydb::exec
