#pragma once
// Plain structs passed from the host orchestration (C++) to the kernels (CUDA),
// by value as kernel parameters. No CUDA headers: both compilers include this.
#include <cstdint>

namespace raydb::exec::cuda {

constexpr int kMaxFactColumns = 16;
constexpr int kMaxFactPreds = 8;
constexpr int kMaxPredRanges = 8;       // inline ranges (IN lists of up to 8 keys); longer sets in device arrays
constexpr int kScanRangesLimit = 16;    // device pairs scanned in order up to this many, else bisected
constexpr int kMaxTreeLeaves = 12;
constexpr int kMaxLinears = 4;
constexpr int kMaxLinearTerms = 6;
constexpr int kMaxTrees = 4;
constexpr int kMaxTreeSteps = 24;
constexpr int kMaxTreeDepth = 8;
constexpr int kMaxJoins = 6;
constexpr int kMaxAggs = 8;
constexpr int kMaxProgram = 12;
constexpr int kMaxRootGroups = 4;
constexpr int kProgramRegisters = 4;
constexpr int kStarTileRows = 4096;  // rows per fact-kernel tile (block/load.cuh kTile)
constexpr uint64_t kMaxFewGroups = 15;  // group ids of the fact kernel's mode 5 (nibbles: block/few_groups.cuh)

// A column as stored on the device. Offset mode: value = base + stored, with
// stored an unsigned integer of `width` bytes. Dictionary mode (decode != null):
// value = decode[stored], decode sorted ascending, so stored order is value order.
// bits > 0 (only in the packed star kernels' parameters, launch_star): `data` is the
// same stored values bit-packed at `bits` (storage/packed_layout.h), decoded exactly
// by shifts and masks in block/load.cuh; every other kernel sees bits = 0.
struct DevColumn {
  const void* data = nullptr;
  const int64_t* decode = nullptr;
  int64_t base = 0;
  int32_t width = 4;  // 1, 2, 4 or 8
  int32_t bits = 0;
};

// The packed copies of a star query's fact columns (column_cache.h), by fact column
// index: words null where the column is read unpacked.
struct PackedCols {
  const uint32_t* words[kMaxFactColumns] = {};
  int32_t bits[kMaxFactColumns] = {};
};

// A fact-table predicate: stored value in one of the inclusive ranges. Up to
// kMaxPredRanges ranges inline (every thread compares against the same constants);
// longer sets (IN lists, LIKE) in device memory: as sorted disjoint pairs compared
// one after another (every lane reads the same pair: one broadcast load) up to
// kScanRangesLimit of them; beyond, a bitmap over [bm_lo, bm_lo + bm_bits) when the
// span is small, a cuckoo table (exec/core/cuckoo_set.h) when every range is one
// value (an IN list of far-apart keys), else the pairs searched by bisection (set by
// the host). A point set of at most 128 keys may instead be a perfect hash (pset).
struct DevPred {
  int32_t col = 0;
  int32_t nranges = 0;
  uint64_t lo[kMaxPredRanges] = {};
  uint64_t hi[kMaxPredRanges] = {};
  const uint64_t* ranges = nullptr;  // nranges (lo, hi) pairs in device memory
  const uint32_t* bitmap = nullptr;
  uint64_t bm_lo = 0, bm_bits = 0;
  const uint64_t* hash = nullptr;    // cuckoo table of 2 << hash_bits keys
  const uint32_t* hash_filter = nullptr;  // its prefilter of 2^hash_filter_bits bits (exec/core/cuckoo_set.h)
  uint64_t hash_mul0 = 0, hash_mul1 = 0;
  uint32_t hash_bits = 0, hash_filter_bits = 0;
  // A point set of at most 128 keys as a perfect hash (exec/core/perfect_set.h): 2^pset_bits
  // 32-bit entries, copied into shared memory at pset_shared_off by the star kernel
  // (launch_star; -1: read from device memory). Only the star kernel's own predicates
  // carry one, never tree leaves or filter passes.
  const uint32_t* pset = nullptr;
  uint32_t pset_mul = 0, pset_bits = 0;
  int32_t pset_shared_off = -1, pad = 0;
};

// A semi-linear predicate (exec/core/linear_predicate.h): sum coef[t] * value(col[t])
// + k  op  0, over the columns' SQL stored values. `wide` = 0: the host proved every
// partial sum fits int64; 1: 128-bit sums (k = k_hi:k_lo, two's complement).
enum DevCmp : int32_t { kCmpEq, kCmpNe, kCmpLt, kCmpLe, kCmpGt, kCmpGe };
// stored = 1: every term's column is offset-encoded (value = base + stored) and the
// host folded sum coef * base into k and proved sum |coef| * max stored + |k| fits
// int64: the device multiplies the loaded words directly (no decode, no base add).
struct DevLinear {
  int32_t nterms = 0;
  int32_t op = kCmpEq;
  int32_t wide = 0;
  int32_t stored = 0;
  int32_t col[kMaxLinearTerms] = {};
  int64_t coef[kMaxLinearTerms] = {};
  int64_t k_lo = 0, k_hi = 0;
};

// A boolean combination of leaves (exec/core/filter_program.h) in postfix: range
// leaves index DevTrees::leaves, linear leaves DevTrees::linears; AND/OR are binary.
enum DevTreeOp : uint8_t { kTreeRange, kTreeLinear, kTreeAnd, kTreeOr, kTreeNot };
struct DevTree {
  int32_t nsteps = 0;
  uint8_t op[kMaxTreeSteps] = {};
  uint8_t arg[kMaxTreeSteps] = {};
};
// The boolean filters of one fact kernel, in device memory (uploaded per query): the
// kernel's parameters stay as small as without them.
struct DevTrees {
  int32_t ntrees = 0, pad = 0;
  DevTree trees[kMaxTrees];
  DevPred leaves[kMaxTreeLeaves];
  DevLinear linears[kMaxLinears];
};

// A probe of a dimension's key-indexed lookup array: idx = stored + offset; rows
// with idx outside [0, size) or a "filtered out" entry drop out; otherwise the group
// id grows by code * stride (mixed radix over the dimensions).
// Entries are `width` bytes: 4: int32 code, -1 = filtered out; 1 or 2: unsigned
// code + 1, 0 = filtered out (launch_narrow_lookup: a dimension of at most 254 or
// 65534 group codes). Narrow arrays take a quarter or half of the cache footprint
// and fit shared memory more often.
// shared_off >= 0: the fact kernel copies the (small) lookup array into its shared
// memory at that byte offset once per block and probes it there (set by launch_star).
struct DevJoin {
  const void* lookup = nullptr;
  int64_t offset = 0;
  uint64_t size = 0;
  uint64_t stride = 0;
  int32_t col = 0;
  int32_t shared_off = -1;
  int32_t width = 4;
  // 1: (stored + offset) mod 2^32 < size exactly when stored + offset is in [0, size):
  // offset >= -2^31, stored max + offset < 2^32 and size <= 2^31 (set by the host).
  int32_t idx32 = 0;
};

// A GROUP BY key read from the fact table: group id grows by stored * stride.
struct DevRootGroup {
  uint64_t stride = 0;
  int32_t col = 0;
  int32_t pad = 0;
};

enum DevOp : uint8_t { kOpLoad, kOpConst, kOpAdd, kOpSub, kOpMul, kOpNeg };
struct DevInstr {
  uint8_t op = kOpConst, dst = 0, a = 0, b = 0;
  int32_t col = 0;
  int64_t k = 0;
};
enum DevAggFunc : int32_t { kAggCount, kAggSum, kAggMin, kAggMax };
// Argument shapes the fact kernel evaluates without the interpreter (set by
// launch_star from the program): column a, or a (*, -, +) b of two fact columns.
enum DevShape : int32_t { kShapeProgram, kShapeCol, kShapeMul, kShapeSub, kShapeAdd };
// One aggregate: a register program over fact columns computes its int64 argument
// (bounds proven on the host, so no step overflows); SUM accumulates in 64 bits
// or, when `wide`, in 128 bits (low word + high word with carry).
struct DevAgg {
  int32_t func = kAggCount;
  int32_t wide = 0;
  int32_t nins = 0;
  int32_t result = 0;
  DevInstr ins[kMaxProgram];
  int32_t shape = kShapeProgram;  // filled by launch_star
  int32_t ca = 0, cb = 0;         // shape operands (fact column indices)
  int32_t slot = 0;               // modes 0/1: shared accumulator at smem + slot * groups (hi: the next
                                  // array when wide), filled by launch_star so the kernel keeps no
                                  // per-aggregate pointer array (a runtime-indexed array is local memory)
};

// HAVING decided per group on the device before the groups are compacted and copied
// back (exec/cuda/group_keep.h): a group stays when every term holds. A term compares
// one accumulator field (field 0: the row count; a SUM's low word, sign-extended, or
// with `hi` >= 0 its high word too, as 128 bits; a MIN/MAX word) with k = k_hi:k_lo,
// or with `rlo` >= 0 with another field read the same way (rlo, rhi: TPC-H Q21's
// min(c) <> max(c)). The host finisher evaluates HAVING again unless every conjunct is
// a term, so the terms may keep more groups than pass, never fewer.
constexpr int kMaxKeepTerms = 4;
struct DevKeepTerm {
  int32_t lo = 0, hi = -1;
  int32_t op = kCmpEq;
  int32_t rlo = -1, rhi = -1;
  int32_t pad = 0;
  int64_t k_lo = 0, k_hi = 0;
};
struct DevGroupKeep {
  int32_t nterms = 0, pad = 0;
  DevKeepTerm terms[kMaxKeepTerms];
};

// Per-group accumulators in device memory, each an array over the group range.
struct DevAccum {
  unsigned long long* count = nullptr;                // rows per group
  unsigned long long* lo[kMaxAggs] = {};             // SUM low words / MIN / MAX (as int64 bits)
  unsigned long long* hi[kMaxAggs] = {};             // SUM high words (wide only)
};

struct StarParams {
  uint64_t rows = 0;
  uint64_t groups = 1;  // group id range
  int32_t ncols = 0, npreds = 0, njoins = 0, nroot_groups = 0, naggs = 0;
  int32_t mode = 0;  // 0: one group in registers, 1: shared-memory groups, 2: global atomics, 3: rows' groups out,
                     // 5: mode 1 reduced per warp (a few groups: setting cuda_few_groups)
  int32_t count_only = 0;  // mode 0 and every aggregate a COUNT: rows counted per tile, not per row
  int32_t tile_aggs = 0;   // mode 0 and every aggregate shaped (DevShape, not a program): dense tiles
                           // folded from the columns' vector loads (launch_star)
  DevColumn cols[kMaxFactColumns];
  DevPred preds[kMaxFactPreds];   // conjuncts applied one after another
  const DevTrees* trees = nullptr;  // boolean conjuncts applied after preds (device memory), or none
  // Rows that passed the boolean trees and device-memory sets, when filter passes
  // (filter_passes.cu) evaluated them before the kernel: bit r % 16 of chunk r / 16,
  // padded to whole tiles. Those trees and sets are then no longer in trees / preds.
  const uint16_t* filter_bits = nullptr;
  DevJoin joins[kMaxJoins];
  DevRootGroup root_groups[kMaxRootGroups];
  DevAgg aggs[kMaxAggs];
  DevAccum acc;
  // Rows that passed the fact filters (before the probes): selectivity for free,
  // EXPLAIN ANALYZE. One add per warp at the end of the kernel.
  unsigned long long* filtered = nullptr;
  // Mode 3 (order statistics, star_order_stats.cpp): per fact row, whether it passed
  // and its group id (0 when it did not); no aggregation.
  unsigned char* os_select = nullptr;
  uint32_t* os_gids = nullptr;
};

// Filter passes (filter_passes.cu): each leaf of the boolean trees and each
// device-memory set predicate in a kernel of its own writing one bit per row, then
// one pass combining them into StarParams::filter_bits. Host copies: the trees as
// add_fact_trees built them (leaves, linears and steps), the set predicates, the
// fact columns they read.
struct FilterPassJob {
  const DevTrees* trees = nullptr;  // host memory, or none
  int32_t nleaves = 0, nlinears = 0;
  DevPred sets[kMaxFactPreds] = {};
  int32_t nsets = 0;
  const DevColumn* cols = nullptr;  // host array of the fact columns (StarParams::cols)
  uint64_t rows = 0;
  uint64_t chunks = 0;    // 16-row chunks of every bit array (rows padded to whole tiles)
  uint16_t* scratch = nullptr;  // device: (nleaves + nlinears + nsets) * chunks
  uint16_t* out = nullptr;      // device: chunks
  // Device, or none: the number of rows that pass, added by the last pass. Set when
  // the fact kernel would only count them (COUNT(*) of one fact table, no other
  // filter): the pass counts them and the kernel is not launched.
  unsigned long long* count = nullptr;
};

// Dimension side: one filter of a dimension table, ranges in the stored domain.
struct DimFilter {
  DevColumn col;
  const uint64_t* ranges = nullptr;  // device pairs lo, hi (inclusive)
  int32_t nranges = 0;
  int32_t pad = 0;
};
constexpr int kMaxDimFilters = 8;
constexpr int kMaxDimGroups = 4;
struct DimGroupPart {  // local code part: (value - min) * mult (mixed radix over the dim's keys)
  DevColumn col;
  int64_t min = 0;
  uint64_t mult = 1;
};
struct DimParams {
  uint64_t rows = 0;
  DevColumn key;
  int64_t key_min = 0;
  uint64_t key_range = 0;
  int32_t nfilters = 0, ngroups = 0;
  DimFilter filters[kMaxDimFilters];
  DimGroupPart groups[kMaxDimGroups];
  int32_t* lookup = nullptr;   // key_range entries, -1 prefilled
  uint32_t* flags = nullptr;   // local range entries, zero prefilled (present marks)
  unsigned long long* passed = nullptr;  // rows that passed
};

}  // namespace raydb::exec::cuda
