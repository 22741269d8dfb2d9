#pragma once
// The RT scan access method's vocabulary (RTScan, PVLDB 17): columns in, a boolean
// tree of column range predicates as the query, a bit vector (one bit per row) out.
// Nothing here knows tables or SQL: plan/exec hand in the stored column values (int64
// for INTEGER/BIGINT/DECIMAL/DATE, dictionary codes for VARCHAR) and the constants
// already mapped into that stored domain.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace raydb::access::rt_scan {

// One indexed column: values[i] is row i's stored value; nulls (may be empty) is a
// bitmap with bit i set when row i is NULL. A NULL never matches a comparison, so
// neither `x < 5` nor `NOT (x < 5)` holds for it (SQL three-valued logic).
struct ScanColumn {
  std::span<const int64_t> values;
  std::span<const uint64_t> nulls;
  bool is_null(size_t i) const { return !nulls.empty() && ((nulls[i >> 6] >> (i & 63)) & 1); }
};

enum class CompareOp {
  kLess,          // x < v0
  kLessEqual,     // x <= v0
  kGreater,       // x > v0
  kGreaterEqual,  // x >= v0
  kEqual,         // x = v0
  kNotEqual,      // x <> v0
  kBetween,       // v0 <= x <= v1 (empty when v0 > v1)
  kIn,            // x in (v0, v1, ...) (empty list: nothing)
};

struct ColumnPredicate {
  uint32_t column = 0;
  CompareOp op = CompareOp::kLess;
  std::vector<int64_t> values;
};

// A boolean tree of column predicates.
struct ScanExpr {
  enum class Kind { kPredicate, kAnd, kOr, kNot, kTrue, kFalse };
  Kind kind = Kind::kTrue;
  ColumnPredicate predicate;
  std::vector<ScanExpr> children;

  static ScanExpr pred(uint32_t column, CompareOp op, std::vector<int64_t> values) {
    ScanExpr e;
    e.kind = Kind::kPredicate;
    e.predicate = ColumnPredicate{column, op, std::move(values)};
    return e;
  }
  static ScanExpr all_of(std::vector<ScanExpr> c) { return node(Kind::kAnd, std::move(c)); }
  static ScanExpr any_of(std::vector<ScanExpr> c) { return node(Kind::kOr, std::move(c)); }
  static ScanExpr negate(ScanExpr c) { return node(Kind::kNot, {std::move(c)}); }
  static ScanExpr constant(bool v) {
    ScanExpr e;
    e.kind = v ? Kind::kTrue : Kind::kFalse;
    return e;
  }
  static ScanExpr node(Kind k, std::vector<ScanExpr> c) {
    ScanExpr e;
    e.kind = k;
    e.children = std::move(c);
    return e;
  }
};

// How a query is answered; every method returns the identical bit vector.
enum class ScanMethod {
  kRt,         // sieving + matrix RT refine on the index's tracer (Embree or OptiX)
  kCpuScan,    // plain vectorized multi-threaded scan of the column values
  kCpuSieve,   // sieving + CPU refine through the rank -> row permutation (BinDex-CPU)
  kGpuScan,    // plain fused CUDA scan writing the bit vector
  kGpuSieve,   // sieving + CUDA-core refine (BinDex-CUDA)
};
const char* scan_method_name(ScanMethod m);

// Which sieving border each end of a predicate interval takes.
enum class SieveMode {
  kNearest,   // the nearer border (RTScan's positive/negative choice): fewest rows to refine
  kPositive,  // borders inside the interval: the approximation is a subset, refine sets bits
  kNegative,  // borders outside: a superset, refine clears bits
  kOff,       // no sieving: every row of the predicate's region is refined
};

constexpr uint32_t kGpuSegmentCells = 2;  // RtScanOptions::segment_cells = 0 on OptiX
constexpr uint32_t kCpuSegmentCells = 8;  // and on Embree

struct RtScanOptions {
  uint32_t bins = 128;  // K: sieving bins per column (K - 1 bit vectors); 1 = no vectors
  // Column groups of the RT structures (each 1-3 columns, every column at most once);
  // empty: consecutive groups of 3 (the last of 1 or 2).
  std::vector<std::vector<uint32_t>> groups;
  SieveMode sieve = SieveMode::kNearest;
  // L: cells per ray segment; 0 takes the tracer's default (below). Shorter segments mean
  // more rays, each with fewer hits: on a GPU that spreads the refine over more threads
  // (H100, software traversal, 10^8 x 3: L = 2 beat 4 and 8 at every selectivity with a
  // refine); on the CPU, Embree's per-ray cost favours longer ones.
  uint32_t segment_cells = 0;
  // Cell size: rank >> cell_shift per axis (1 column: one rank per cell, folded by
  // 2^cell_shift); -1: about 4 rows per occupied cell (scan_default_layout).
  int cell_shift = -1;
  bool build_rt = true;        // build the RT structures (needs a tracer)
  bool build_sieve = true;     // sieving vectors (used by kRt and the sieve methods)
  // Rank -> row permutations (4 bytes per row and column): the refine of the sieve
  // baselines (kCpuSieve, kGpuSieve), which are offered only with them and the vectors.
  bool sieve_refine = true;
  bool build_scan = true;      // GPU: narrowed column copies for kGpuScan (host kCpuScan reads the input)
};

// What one structure of the index costs.
struct StructureStats {
  std::string name;  // "encoding c0", "sieve c1", "bvh g0", ...
  double build_ms = 0;
  uint64_t host_bytes = 0;
  uint64_t device_bytes = 0;
};

struct ScanBuildStats {
  double total_ms = 0;
  std::vector<StructureStats> structures;
  uint64_t host_bytes() const;
  uint64_t device_bytes() const;
};

// The share of memory blocks of k rows each that hold at least one of a fraction r of
// the rows, the rows scattered at random: 1 - (1 - r)^k. 0 at r = 0, 1 at r = 1,
// about k r while k r is small: the estimate's memory terms (32-row sectors of the
// bin codes and 128-byte lines of 4-byte values; 8-row sectors of the refine's reads).
double touched_share(double r, double k);

// What evaluating an expression would take, from the mapping tables alone (no rows
// touched): the planner's cost inputs. Exact except `match_fraction`, which treats
// columns as independent.
struct ScanEstimate {
  uint32_t jobs = 0;            // conjunction jobs (one per group with a predicate)
  uint32_t refine_jobs = 0;     // of those, the ones with rows left to refine (a refine launch each)
  uint32_t predicates = 0;      // column terms after normalization
  uint32_t sieve_vectors = 0;   // sieving vectors read
  uint64_t residual_rows = 0;   // rows the sieve methods refine (exact)
  uint64_t slabs = 0;           // residual slabs the RT refine covers
  double match_fraction = 1;    // estimated fraction of the rows that match
  // Full-column reads of the plain GPU scan: it takes a conjunction's terms most
  // selective first and reads a later column only where a row still matches, so its
  // k-th column costs 1 - (1 - p)^32 of a pass, p the fraction passing the terms before
  // it (independent columns assumed). 32 rows of 4 bytes: memory moves whole 128-byte
  // lines on a streaming read; on the H100 a second column at p = 0.01 cost 0.3 of a
  // pass (1 - 0.99^32 = 0.28), not the 0.08 that 32-byte sectors would predict.
  double scan_columns = 0;
  // The GPU sieve kernel's full passes over the 1-byte bin codes: it takes a job's
  // columns in order, 32 rows per thread, and loads a later column's 32 codes (one
  // 32-byte sector) only where one of them still passes, so, like scan_columns, a
  // later column costs 1 - (1 - q)^32 of a pass, q the fraction the job's earlier
  // approximations pass. On the H100 3 predicates at 1% cost 1.28 passes, not 3.
  double sieve_passes = 0;
  // 32-byte sectors the sieve methods' refine reads at random: each residual row's
  // ranks in every column of its group, rows scattered, so a column's sector (8 rows)
  // is touched with probability 1 - (1 - r)^8, r the job's residual fraction: about
  // 8r of the sectors for a few rows (one per row), all of them as r nears 1.
  double refine_sectors = 0;
  // Rows inside the RT refine's residual slabs (independent columns): the cubes its
  // rays cross. A residual row of one column costs rays only inside the other columns'
  // ranges, so at 90% per column the slabs hold 0.81 of three columns' residual.
  double slab_rows = 0;
};

// What one evaluation did (EXPLAIN ANALYZE).
struct ScanQueryStats {
  double total_ms = 0;      // host wall clock, result included
  double device_ms = 0;     // GPU methods: kernels and launches (CUDA events / tracer)
  uint32_t groups = 0;      // conjunction jobs run
  uint64_t sieve_rows = 0;  // rows in the residual regions (exact: one row per rank)
  uint64_t cell_boxes = 0;  // RT: residual cell boxes
  uint64_t rays = 0;        // RT: ray segments launched
  uint64_t rows_refined = 0;  // rows re-checked by the refine (RT: rows of reported cells)
  // Whether the RT refine counts rays and rows (atomics on the device; off when the
  // caller passes no stats, so timings exclude them).
  bool count_rays = true;
};

// A host bit vector: bit i of words[i / 64] is row i; bits past `rows` are 0.
struct BitVector {
  uint64_t rows = 0;
  std::vector<uint64_t> words;
  bool test(uint64_t i) const { return (words[i >> 6] >> (i & 63)) & 1; }
  uint64_t count() const;
};

}  // namespace raydb::access::rt_scan
