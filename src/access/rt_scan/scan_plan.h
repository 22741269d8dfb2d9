#pragma once
// From a boolean tree of column predicates to RT scan jobs, shared by every method.
//
// 1. normalize(): NOTs are pushed to the leaves (De Morgan) and a negated predicate
//    becomes the complement of its rank set within [0, valid), so NULL rows (ranks >=
//    valid) match neither a predicate nor its negation (SQL three-valued logic). ANDs
//    merge their leaf predicates per column (intersection), ORs of single predicates on
//    one column merge into one rank set (union). What is left: AND nodes (a
//    conjunction of per-column rank sets plus OR children) and OR nodes.
// 2. A conjunction is split by the index's column groups (1-3 columns each, one RT
//    structure per group); each group is one job whose result bit vectors are ANDed.
// 3. plan_group(): per constrained column d, the exact rank set P_d, the sieving
//    approximation A_d and the residual D_d = A_d xor P_d (sieve.h). The sieved result
//    A = AND_d A_d is exact outside the residual region R = A xor P, and
//        R is inside  U_d  D_d x PROD_{e<d} (A_e & P_e) x PROD_{e>d} (A_e | P_e)
//    (a row of R has a first column d where A_d and P_d disagree; on the columns before
//    it they agree, so both hold; on the others the row is in A_e or in P_e). These
//    disjoint slabs (RTScan's residual regions) are what the refine covers, as boxes of
//    ranks; unconstrained columns of the group span all ranks, NULLs included.
#include <algorithm>
#include <array>
#include <string>

#include "access/rt_scan/rank_set.h"
#include "access/rt_scan/sieve.h"

namespace raydb::access::rt_scan {

struct Term {
  uint32_t column;
  RankSet set;  // ranks within [0, valid) of the column
};

// A conjunction's terms, fewest matching ranks first (stable): the plain GPU scan
// reads a later column only where a row still matches (ScanEstimate::scan_columns).
inline std::vector<Term> by_selectivity(std::vector<Term> terms) {
  std::stable_sort(terms.begin(), terms.end(),
                   [](const Term& a, const Term& b) { return ranks_in(a.set) < ranks_in(b.set); });
  return terms;
}

struct NormExpr {
  enum class Kind { kAnd, kOr, kTrue, kFalse };
  Kind kind = Kind::kTrue;
  std::vector<Term> terms;         // kAnd: one per column, ascending columns
  std::vector<NormExpr> children;  // kAnd: OR children; kOr: any
};

std::vector<const MappingTable*> table_list(std::span<const ColumnEncoding> encodings);
NormExpr normalize(const ScanExpr& e, std::span<const MappingTable* const> tables);

struct RankBox {
  uint32_t lo[3], hi[3];  // ranks [lo, hi) per dim of the group
};

struct DimPlan {
  bool constrained = false;
  RankSet p;
  SieveChoice sieve;
};

struct GroupJob {
  uint32_t group = 0;
  uint32_t dims = 0;
  std::array<uint32_t, 3> columns{};
  std::array<DimPlan, 3> dim;
  std::vector<RankBox> slabs;  // cover the residual region
  // The exact predicate in the form the refine programs read.
  std::vector<RankRange> ranges;
  uint32_t begin[4] = {0, 0, 0, 0};
  uint32_t constrained = 0;
  uint64_t residual_rows() const;  // sum over dims of |D_d|
  rt::mapping::ScanCheck check(const RankRange* device_ranges = nullptr) const;
};

// What the index knows about its columns, shared by the host and GPU indexes.
struct ScanModel {
  std::vector<MappingTable> tables;
  std::vector<SieveBorders> borders;
  std::vector<std::vector<uint32_t>> groups;
  std::vector<rt::mapping::ScanLayout> layouts;  // per group
  uint64_t rows = 0;
  RtScanOptions options;

  // Fills groups (default: consecutive triples) and layouts; checks them.
  // Takes the options; a segment_cells of 0 becomes default_segment_cells (the tracer's).
  void set_groups(const RtScanOptions& o, uint32_t columns, uint32_t default_segment_cells);
  std::vector<const MappingTable*> table_ptrs() const;
  NormExpr normalize(const ScanExpr& e) const;
  // The jobs of a conjunction (one per group with a term), in group order.
  std::vector<GroupJob> plan(const std::vector<Term>& terms, SieveMode mode) const;
  // The residual boxes as cell boxes of a group's layout with segment length L, and the
  // prefix sum of their launch items (boxes + 1). Throws past 2^32 - 1 items.
  void cell_boxes(const GroupJob& job, std::vector<rt::mapping::CellBox>& boxes,
                  std::vector<uint64_t>& first_item) const;
  // Value intervals [lo, hi] of a rank set (for scans over the stored values).
  std::vector<std::pair<int64_t, int64_t>> value_ranges(const Term& t) const;
  // EXPLAIN text: the normalized tree, groups, sieving spans and residual slabs.
  std::string explain(const ScanExpr& e, SieveMode mode) const;
  // The cost inputs of evaluating `e` (scan_types.h).
  ScanEstimate estimate(const ScanExpr& e, SieveMode mode) const;
  // One job's memory terms of the estimate (sieve passes, refine sectors, slab rows).
  void add_memory_terms(const GroupJob& job, ScanEstimate& out) const;
};

// Evaluates a normalized tree with an engine: Bits ones(), zeros(), conjunction(terms),
// and_into(a, b), or_into(a, b).
template <typename Engine>
typename Engine::Bits evaluate_tree(Engine& engine, const NormExpr& n) {
  using Kind = NormExpr::Kind;
  if (n.kind == Kind::kTrue) return engine.ones();
  if (n.kind == Kind::kFalse) return engine.zeros();
  if (n.kind == Kind::kOr) {
    typename Engine::Bits acc = evaluate_tree(engine, n.children[0]);
    for (size_t i = 1; i < n.children.size(); ++i) engine.or_into(acc, evaluate_tree(engine, n.children[i]));
    return acc;
  }
  typename Engine::Bits acc = n.terms.empty() ? engine.ones() : engine.conjunction(n.terms);
  for (const NormExpr& c : n.children) engine.and_into(acc, evaluate_tree(engine, c));
  return acc;
}

}  // namespace raydb::access::rt_scan
