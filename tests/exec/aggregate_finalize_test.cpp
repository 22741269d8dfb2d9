// AggregateStates::finalize over many groups (it runs on all threads from 2^15 groups):
// every group's SUM and COUNT in the order asked, empty groups NULL, and an int64
// overflow anywhere raised as the one-thread loop raises it; the same states finalized
// below the threshold (one thread) give the same values.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "common/error.h"
#include "exec/core/aggregate_states.h"
#include "exec/core/key_encoder.h"

namespace raydb::exec {
namespace {

plan::AggregateExpr agg(plan::AggFunc f, Type t) {
  plan::AggregateExpr a;
  a.func = f;
  a.type = t;
  a.name = "agg";
  return a;
}

// Groups 0..n-1 with count g % 5 (0: empty) and sum g * 1000 - 7, reversed order asked.
void load(AggregateStates& st, size_t a, size_t n, __int128 big_at = -1) {
  std::vector<int64_t> count(n);
  std::vector<__int128> sum(n);
  for (size_t g = 0; g < n; g++) {
    count[g] = int64_t(g % 5);
    sum[g] = count[g] ? __int128(g) * 1000 - 7 : 0;
    if (__int128(g) == big_at) sum[g] = __int128(INT64_MAX) + 1;
  }
  st.load(a, std::move(count), std::move(sum), VectorKind::kInt, nullptr, Type::integer());
}

TEST(AggregateFinalize, ManyGroupsOnAllThreadsEqualOneThread) {
  StringInterner interner;
  const std::vector<plan::AggregateExpr> aggs = {agg(plan::AggFunc::kSum, Type::bigint()),
                                                 agg(plan::AggFunc::kCount, Type::bigint())};
  for (size_t n : {size_t(1000), size_t(100000)}) {
    AggregateStates st(&aggs, &interner);
    st.resize(n);
    load(st, 0, n);
    load(st, 1, n);
    std::vector<uint32_t> gids(n);
    std::iota(gids.rbegin(), gids.rend(), 0u);
    const Vector sum = st.finalize(0, gids), count = st.finalize(1, gids);
    ASSERT_EQ(sum.size, n);
    for (size_t i = 0; i < n; i++) {
      const size_t g = gids[i];
      EXPECT_EQ(count.ints[i], int64_t(g % 5)) << i;
      if (g % 5 == 0) {
        EXPECT_TRUE(sum.is_null(i)) << i;
      } else {
        ASSERT_FALSE(sum.is_null(i)) << i;
        EXPECT_EQ(sum.ints[i], int64_t(g) * 1000 - 7) << i;
      }
    }
  }
}

TEST(AggregateFinalize, OverflowOnAnyThreadRaises) {
  StringInterner interner;
  const std::vector<plan::AggregateExpr> aggs = {agg(plan::AggFunc::kSum, Type::bigint())};
  for (size_t n : {size_t(1000), size_t(100000)}) {
    AggregateStates st(&aggs, &interner);
    st.resize(n);
    load(st, 0, n, __int128(n - 3));  // count (n - 3) % 5 != 0 for both sizes
    std::vector<uint32_t> gids(n);
    std::iota(gids.begin(), gids.end(), 0u);
    try {
      st.finalize(0, gids);
      ADD_FAILURE() << "no overflow raised for " << n << " groups";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("numeric overflow"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace raydb::exec
