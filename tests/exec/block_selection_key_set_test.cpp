// Zone-map block skipping for x [NOT] IN a subquery's key set (exec/core/block_selection):
// decided from the set's runs, it must keep every block holding a row that passes
// (brute force over the rows) and keep exactly the blocks the general path through
// ColumnPredicate keeps (NOT NOT x IN set goes that way), for IN and NOT IN, sets of
// runs and scattered keys, empty sets and sets covering whole blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "exec/core/block_selection.h"
#include "plan/logical/key_set.h"
#include "plan/logical/logical_query.h"
#include "storage/zone_map.h"

namespace raydb::test {
namespace {

constexpr uint64_t kB = ZoneMap::kBlockRows;

std::vector<uint8_t> kept_blocks(const exec::BlockSelection& s, size_t nblocks) {
  std::vector<uint8_t> kept(nblocks, 0);
  if (s.blocks == 0) kept.assign(nblocks, 1);  // no skipping: every block read
  for (auto& r : s.ranges)
    for (uint64_t b = r.begin / kB; b * kB < r.end; b++) kept[b] = 1;
  return kept;
}

// `trials` sets over a clustered column of `nblocks` blocks (64 and more: the blocks are
// tested in parallel).
void check_key_set_blocks(size_t nblocks, int trials) {
  std::mt19937_64 rng(5 + nblocks);
  const uint64_t rows = nblocks * kB - 1000;
  // Clustered values (an order key as loaded): ascending with a little noise per block.
  std::vector<int32_t> vals(rows);
  for (uint64_t i = 0; i < rows; i++) vals[i] = int32_t(i / 4 + rng() % 50);
  ColumnBuilder cb("x", Type::integer());
  for (int32_t v : vals) cb.append_int(v);
  auto col = std::const_pointer_cast<Column>(cb.finish());
  col->set_zone_map(std::make_shared<const ZoneMap>(ZoneMap::build(Type::integer(), vals.data(), rows, nullptr)));
  plan::LogicalQuery q;
  q.tables.push_back({"t", "t", std::make_shared<Table>("t", std::vector<ColumnPtr>{col})});
  const int32_t top = vals.back() + 60;
  for (int trial = 0; trial < trials; trial++) {
    std::vector<int64_t> words;
    switch (trial % 4) {
      case 0: break;  // empty
      case 1:         // a few long runs: whole blocks inside the set
        for (int r = 0; r < 3; r++) {
          const int64_t a = int64_t(rng() % uint64_t(top)), len = int64_t(rng() % 60000);
          for (int64_t w = a; w < a + len; w++) words.push_back(w);
        }
        break;
      case 2:  // scattered keys in a few blocks' ranges
        for (int k = 0; k < 200; k++) words.push_back(int64_t(rng() % uint64_t(top / 5)) + (k % 2) * top / 2);
        break;
      default:  // dense with holes
        for (int64_t w = 0; w < top; w++)
          if (rng() % 100 != 0) words.push_back(w);  // thousands of runs: parallel tests at 80 blocks
    }
    const auto set = plan::KeySet::make(Type::integer(), words, false);
    for (bool negated : {false, true}) {
      SCOPED_TRACE(testing::Message() << "trial " << trial << (negated ? " NOT IN" : " IN"));
      const auto x = plan::Expr::column(0, 0, Type::integer(), "x");
      const auto term = plan::Expr::in_key_set(x, set, negated);
      const auto general = plan::Expr::logical_not(plan::Expr::logical_not(term));
      const std::vector<uint8_t> got = kept_blocks(exec::select_blocks(0, {term}, q), nblocks);
      const std::vector<uint8_t> want = kept_blocks(exec::select_blocks(0, {general}, q), nblocks);
      EXPECT_EQ(got, want);
      for (uint64_t i = 0; i < rows; i++)
        if (set->contains(vals[i]) != negated) ASSERT_TRUE(got[i / kB]) << "row " << i << " passes in a skipped block";
    }
  }
}

TEST(KeySetBlocks, RunsDecideLikeThePredicateAndKeepEveryPassingBlock) { check_key_set_blocks(24, 40); }

TEST(KeySetBlocks, ManyBlocksTestedInParallelDecideAlike) { check_key_set_blocks(80, 4); }

}  // namespace
}  // namespace raydb::test
