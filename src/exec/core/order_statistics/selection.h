#pragma once
// Exact selection of the keys at given ranks (0-based, ascending) among the counting
// rows of a column, per group, on the CPU (OpenMP). Three algorithms, same answers:
//
//   kBitwise  the 2004 paper's KthLargest, mirrored for the k-th smallest: the answer
//             x is built from the most significant bit down; for bit i the pass counts
//             the rows with key < x + 2^i, and the bit is set when that count is <=
//             rank. One counting pass per key bit (32 or 64), whatever k and the data;
//             every rank of every group advances in the same pass.
//   kRadix    radix select, most significant digit first: a pass builds the histogram
//             of the next digit of the keys that still match the answer's prefix, and
//             the rank's bucket fixes that digit. Ungrouped: 11-bit digits, and once
//             the chosen buckets hold few keys (typically after the first pass) they
//             are copied out and the rest runs in cache. Few groups: one histogram per
//             (group, distinct prefix) in the same pass, 8-bit digits (4 passes for
//             32-bit keys). Many groups: keys scattered into per-group segments, then
//             radix select within each segment (segmented select).
//   kSort     the baseline: the counting keys copied out and sorted (per group: the
//             segments sorted), ranks read off.
#include <cstdint>
#include <string_view>
#include <vector>

#include "exec/core/order_statistics/column_input.h"

namespace raydb::exec::orderstat {

enum class Algorithm : uint8_t { kBitwise, kRadix, kSort };
const char* algorithm_name(Algorithm a);
bool parse_algorithm(std::string_view name, Algorithm* out);  // "bitwise", "radix", "sort"

// How grouped radix selection works: per-group histograms (few groups) or segments
// (many groups); kAuto picks by the number of histograms a pass would need.
enum class GroupMode : uint8_t { kAuto, kHistograms, kSegments };

struct SelectOptions {
  Algorithm algorithm = Algorithm::kRadix;
  GroupMode group_mode = GroupMode::kAuto;
  int threads = 0;  // 0: OpenMP's default
  // GPU radix select only: false keeps every pass on the general pass kernel, so tests
  // and `raydb bench ops` (algorithm radix-general) compare it with the plain one.
  bool gpu_plain_pass = true;
};

constexpr uint64_t kNoRank = ~uint64_t(0);

// The number of counting rows of each group (in.groups entries).
std::vector<uint64_t> count_per_group(const ColumnInput& in, int threads = 0);

// Sets in.key_lo/key_hi to the smallest and largest key among the counting rows (one
// parallel pass), so the selections decide the leading bits they share without a
// pass of their own. Leaves them as they are when no row counts.
void promise_key_range(ColumnInput& in, int threads = 0);

// ranks holds in.groups * m entries: ranks[g * m + j] is the j-th rank wanted in group
// g (< that group's count, or kNoRank for none). Returns the keys at those ranks in
// the same layout (0 where kNoRank).
std::vector<uint64_t> select_keys(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m,
                                  const SelectOptions& options = {});

}  // namespace raydb::exec::orderstat
