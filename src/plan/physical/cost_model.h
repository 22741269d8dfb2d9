#pragma once
// The cost model of the access-path choice: scan vs index lookups, hash join vs
// index-nested-loop join, and which index kind. Costs are single-thread milliseconds
// (every path parallelizes alike, so the comparison holds for any thread count).
//
// Index lookups are costed from the machine's calibration (`raydb calibrate`,
// calibration.h) when it has measured the kind on that device; otherwise from
// compiled-in defaults: CPU constants measured once on the development machine (2
// cores of an x86-64 VM, Release build, one thread) and GPU curves from `raydb
// calibrate` on the project's H200, each documented with its provenance in
// cost_model.cpp.
#include <cstdint>
#include <memory>
#include <optional>

#include "plan/physical/access_path.h"
#include "plan/physical/calibration.h"

namespace raydb::plan {

struct CostConstants {
  double scan_ns_per_row;        // stream one column of a table through a compiled filter
  double fetch_ns_per_row;       // one candidate row from an index: materialize, sort, gather
  double rt_ns_per_level;        // RT index (Embree BVH) lookup, per log2(keys)
  double sorted_ns_per_level;    // sorted-array binary search, per log2(keys)
  double hash_ns_per_lookup;     // hash index probe
  double join_build_ns_per_row;  // insert one filtered build row into a JoinTable
  double join_probe_ns_per_row;  // probe one row into a JoinTable
  double index_setup_ns;         // fixed cost of one batch of index lookups
};

const CostConstants& cost_constants();

// ---- Device-aware costs (shared API of the access-path choice on every backend) ----
// ExecDevice (where an access path runs) is declared in calibration.h.

// One batch of index lookups, as the executor would issue it.
struct LookupBatch {
  double lookups = 1;           // number of lookups (points, IN items or ranges)
  bool ranges = false;          // range lookups (else points)
  double hits_per_lookup = 1;   // expected rows per lookup (ranges: the scan after the first key)
  bool presorted = false;       // the lookups arrive sorted (else the index may sort them)
  bool may_sort = true;         // not presorted: the index may sort the batch first
};

// The model's estimate of one batch and how it would run it.
struct LookupEstimate {
  double ms = 0;            // estimated milliseconds (infinity: the kind cannot answer the batch)
  bool sort_first = false;  // cheaper to sort the batch by key first (never when presorted)
  bool calibrated = false;  // from this machine's calibration (else compiled-in defaults)
};

// Estimated milliseconds of one batch into an index of `kind` over `keys` keys on
// `dev`, including the cheaper of sorting the batch first or not (unless presorted
// or !may_sort). Hash indexes cannot answer ranges: infinity.
double lookup_cost_ms(IndexKind kind, ExecDevice dev, uint64_t keys, const LookupBatch& batch);
// The same, with the choice to sort.
LookupEstimate estimate_lookup(IndexKind kind, ExecDevice dev, uint64_t keys, const LookupBatch& batch);
// Estimated milliseconds of a full scan on `dev` reading `bytes` of columns over `rows`
// rows with `filters` filters.
double scan_cost_ms(ExecDevice dev, uint64_t rows, double bytes, int filters);
// Estimated milliseconds to materialize `candidates` row ids found through an index.
double fetch_cost_ms(ExecDevice dev, double candidates);
// Fixed milliseconds of one index step (an index scan or an index join) beyond its
// lookups: on the GPU the step's host synchronizations and its count -> prefix sum ->
// expand round trip; 0 on the CPU (its constants include it).
double index_step_overhead_ms(ExecDevice dev);

// The calibration the model uses: loaded from Calibration::default_path() on first
// use; a missing file means defaults, an unreadable or corrupt one prints one warning
// line on stderr and means defaults too. Never null-dereferenced: null = defaults.
std::shared_ptr<const Calibration> active_calibration();
// Replaces it (tests, `raydb calibrate` after measuring); null = compiled-in defaults.
void use_calibration(std::shared_ptr<const Calibration> calibration);
// Forgets it, so the next use reads the file again (tests that change the path).
void reload_calibration();

// Cost of `lookups` point lookups (unsorted; the index may sort them) into a CPU index
// of `kind` over `keys` keys (the CPU executor's batches; calibrated when measured).
double lookup_cost_ms(IndexKind kind, uint64_t keys, double lookups);
// Full scan of `rows` rows with `filters` compiled filters (at least one column read).
double scan_cost_ms(uint64_t rows, int filters);
// An index scan: `lookups` lookups returning `candidates` rows.
double index_scan_cost_ms(IndexKind kind, uint64_t keys, double lookups, double candidates);
// A hash join: scan the build table (`build_rows`, `build_filters`), insert the
// `kept` rows that pass, probe `probes` rows.
double hash_join_cost_ms(uint64_t build_rows, int build_filters, double kept, double probes);
// An index join: `probes` lookups returning `matches` rows.
double index_join_cost_ms(IndexKind kind, uint64_t keys, double probes, double matches);

// One launch over an RT view on `dev`: `rays` rays, `hits` primitives aggregated,
// `groups` view groups traced, plus the per-query fixed cost; nullopt
// when the calibration has not measured views on that device (then `auto` keeps the
// star path: without RT cores software traversal loses to it).
std::optional<double> view_cost_ms(ExecDevice dev, double rays, double hits, double groups = 0);
// The star path's time on `dev` from the planner's star formula (single-thread CPU
// milliseconds): star_fixed + star_scale x formula (Calibration; the formula itself
// when not calibrated).
double view_star_cost_ms(ExecDevice dev, double formula_ms);
// ---- RT scan (access/rt_scan) ----
// What one evaluation does, from the index's estimate (ScanEstimate): milliseconds of
// each method, the bit vector turned into `matches` row ids included. On the CPU
// single-thread milliseconds of the host index's methods (rt on Embree, cpu-scan,
// cpu-sieve); on the GPU device milliseconds of the GPU-resident index's (rt on
// OptiX, gpu-scan, gpu-sieve).
enum class RtScanMethod { kRt, kCpuScan, kCpuSieve, kGpuScan, kGpuSieve };
const char* rt_scan_method_name(RtScanMethod m);  // "rt", "cpu-scan", "cpu-sieve", "gpu-scan", "gpu-sieve"
struct RtScanWork {
  uint64_t rows = 0;
  uint32_t predicates = 0;     // column terms
  uint32_t jobs = 0;           // conjunction jobs
  uint32_t refine_jobs = 0;    // of those, the ones with rows left to refine (RT or CUDA refine launches)
  uint32_t sieve_vectors = 0;  // sieving bit vectors read
  uint64_t residual_rows = 0;  // rows refined after sieving
  uint64_t slabs = 0;          // residual slabs (RT ray boxes)
  double matches = 0;          // rows in the result
  double scan_columns = 0;     // gpu-scan's full-column reads (ScanEstimate); 0: one per predicate
  double sieve_passes = 0;     // the GPU sieve kernel's passes over the bin codes (ScanEstimate)
  double refine_sectors = 0;   // sectors the sieve methods' refine reads at random (ScanEstimate)
  double slab_rows = 0;        // rows inside the RT refine's residual slabs (ScanEstimate)
};
double rt_scan_cost_ms(ExecDevice dev, RtScanMethod m, const RtScanWork& w);
// The constants it uses without a calibration (raydb calibrate replaces them).
Calibration::RtScanConstants default_rt_scan_constants(ExecDevice dev = ExecDevice::kCpu);

}  // namespace raydb::plan
