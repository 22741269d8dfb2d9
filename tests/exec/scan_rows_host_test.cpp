// The CUDA general path's one-pass scan maps scan positions to rows on the device
// (exec/cuda/general/scan_kernels.h, scan_row, compiled for both sides): zone-map
// ranges laid end to end, or an index scan's candidates. Against brute force (the
// ranges' rows listed in order) for one range at 0 and elsewhere, adjacent and
// far-apart ranges, single-row ranges and random selections of 2^16-row blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "exec/core/block_selection.h"
#include "exec/cuda/general/scan_kernels.h"

namespace raydb::test {
namespace {

using exec::RowRange;
using exec::cuda::general::scan_range_arrays;
using exec::cuda::general::scan_row;
using exec::cuda::general::ScanRows;

// Every position of `ranges` maps to the row brute force lists at that position.
void expect_rows(const std::vector<RowRange>& ranges) {
  std::vector<uint32_t> want;
  for (const RowRange& r : ranges)
    for (uint64_t row = r.begin; row < r.end; row++) want.push_back(uint32_t(row));
  std::vector<uint32_t> first;
  std::vector<unsigned long long> at;
  scan_range_arrays(ranges, first, at);
  ScanRows s;
  s.ranges = int(ranges.size());
  s.first = ranges.empty() ? 0 : uint32_t(ranges.front().begin);
  if (s.ranges > 1) {
    s.range_first = first.data();
    s.range_at = at.data();
  }
  for (uint64_t i = 0; i < want.size(); i++) {
    ASSERT_EQ(scan_row(s, i), want[i]) << "position " << i << " of " << ranges.size() << " ranges";
  }
}

TEST(ScanRows, RangesMapPositionsToRows) {
  expect_rows({{0, 1000}});
  expect_rows({{131072, 200000}});
  expect_rows({{0, 65536}, {131072, 200000}});
  expect_rows({{5, 6}, {7, 8}, {100, 101}, {65535, 65537}});
  expect_rows({{0, 1}, {1u << 30, (1u << 30) + 3}, {2147483000u, 2147483647u}});
}

TEST(ScanRows, RandomBlockSelections) {
  std::mt19937 rng(7);
  const uint64_t block = uint64_t(1) << 16;
  for (int trial = 0; trial < 40; trial++) {
    const uint64_t blocks = 1 + rng() % 24, rows = (blocks - 1) * block + 1 + rng() % block;
    std::vector<RowRange> ranges;
    for (uint64_t b = 0; b < blocks; b++) {
      if (rng() % 3 == 0) continue;
      const uint64_t begin = b * block, end = std::min(rows, begin + block);
      if (!ranges.empty() && ranges.back().end == begin)
        ranges.back().end = end;  // adjacent blocks merged, as select_blocks does
      else
        ranges.push_back({begin, end});
    }
    expect_rows(ranges);
  }
}

TEST(ScanRows, CandidatesAreReadAsGiven) {
  const std::vector<uint32_t> ids = {3, 9, 10, 65536, 4000000};
  ScanRows s;
  s.ids = ids.data();
  s.ranges = 3;  // ignored: candidates win
  for (uint64_t i = 0; i < ids.size(); i++) EXPECT_EQ(scan_row(s, i), ids[i]);
}

}  // namespace
}  // namespace raydb::test
