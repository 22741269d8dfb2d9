// coalesce_ranges (exec/core/block_selection.h), against brute force on random block
// selections: at most the asked number of ranges, every kept block still read, and
// the fewest extra blocks read (the sum of the shortest gaps, the least any cover of
// that many ranges can read), with the skipped count matching the blocks left out.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "exec/core/block_selection.h"
#include "storage/zone_map.h"

namespace raydb::test {
namespace {

using exec::BlockSelection;
using exec::RowRange;

constexpr uint64_t kB = ZoneMap::kBlockRows;

// The selection of the blocks with keep[b] set, of a table of `rows` rows.
BlockSelection selection_of(const std::vector<uint8_t>& keep, uint64_t rows) {
  BlockSelection s;
  s.blocks = keep.size();
  for (size_t b = 0; b < keep.size(); b++) {
    if (!keep[b]) {
      s.skipped++;
      continue;
    }
    const uint64_t begin = b * kB, end = std::min(rows, begin + kB);
    if (!s.ranges.empty() && s.ranges.back().end == begin)
      s.ranges.back().end = end;
    else
      s.ranges.push_back({begin, end});
  }
  return s;
}

TEST(CoalesceRanges, FewestExtraBlocksEqualsBruteForce) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; trial++) {
    const size_t nblocks = 1 + rng() % 60;
    const uint64_t rows = (nblocks - 1) * kB + 1 + rng() % kB;  // the last block may be partial
    std::vector<uint8_t> keep(nblocks);
    const unsigned density = 1 + unsigned(rng() % 9);
    for (auto& k : keep) k = rng() % 10 < density;
    const BlockSelection s = selection_of(keep, rows);
    const size_t max_ranges = rng() % 12;  // 0 counts as 1
    const BlockSelection c = exec::coalesce_ranges(s, max_ranges);
    SCOPED_TRACE(testing::Message() << "trial " << trial << ", " << s.ranges.size() << " ranges, max " << max_ranges);
    ASSERT_EQ(c.ranges.size(), std::min(s.ranges.size(), std::max<size_t>(max_ranges, 1)));
    // Sorted, disjoint, not adjacent, on block boundaries, inside the table.
    for (size_t i = 0; i < c.ranges.size(); i++) {
      EXPECT_LT(c.ranges[i].begin, c.ranges[i].end);
      EXPECT_EQ(c.ranges[i].begin % kB, 0u);
      EXPECT_LE(c.ranges[i].end, rows);
      if (i > 0) EXPECT_LT(c.ranges[i - 1].end, c.ranges[i].begin);
    }
    // Every kept block is read; the blocks read are the kept ones plus the shortest gaps.
    std::vector<uint8_t> read(nblocks, 0);
    for (const RowRange& r : c.ranges)
      for (uint64_t b = r.begin / kB; b * kB < r.end; b++) read[b] = 1;
    uint64_t nread = 0, nkept = 0;
    for (size_t b = 0; b < nblocks; b++) {
      EXPECT_TRUE(read[b] || !keep[b]) << "block " << b;
      nread += read[b];
      nkept += keep[b];
    }
    std::vector<uint64_t> gaps;
    for (size_t i = 1; i < s.ranges.size(); i++) gaps.push_back((s.ranges[i].begin - s.ranges[i - 1].end) / kB);
    std::sort(gaps.begin(), gaps.end());
    uint64_t extra = 0;
    for (size_t i = 0; i < s.ranges.size() - c.ranges.size(); i++) extra += gaps[i];
    EXPECT_EQ(nread, nkept + extra);
    EXPECT_EQ(c.blocks, s.blocks);
    EXPECT_EQ(c.skipped, nblocks - nread);
  }
}

TEST(CoalesceRanges, EmptySelectionStaysEmpty) {
  const BlockSelection s = selection_of(std::vector<uint8_t>(5, 0), 5 * kB);
  const BlockSelection c = exec::coalesce_ranges(s, 3);
  EXPECT_TRUE(c.ranges.empty());
  EXPECT_EQ(c.skipped, 5u);
}

}  // namespace
}  // namespace raydb::test
