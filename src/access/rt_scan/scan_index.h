#pragma once
// The RT scan access method (RTScan) behind one interface, so a planner can compare
// its methods: an index over 1..n columns answers a boolean tree of column range
// predicates with a bit vector, by any of the methods it was built for (scan_types.h);
// every method returns the identical bits.
//
//   make_host_scan_index   on the host: kRt on a CPU tracer (Embree), kCpuScan,
//                          kCpuSieve; structures built on CPU threads
//   make_gpu_scan_index    (gpu_scan_index.h) device-resident: kRt on OptiX, kGpuScan,
//                          kGpuSieve; encoding built on the GPU (CUB sort)
//
// Column data is read in place: the spans handed in must outlive the index.
#include <memory>
#include <string>

#include "access/rt_scan/scan_types.h"
#include "rt/tracer.h"

namespace raydb::access::rt_scan {

class ScanIndex {
 public:
  virtual ~ScanIndex() = default;
  virtual std::string name() const = 0;
  virtual uint64_t rows() const = 0;
  virtual uint32_t columns() const = 0;
  virtual bool on_gpu() const = 0;
  virtual std::vector<ScanMethod> methods() const = 0;
  virtual const ScanBuildStats& build_stats() const = 0;
  // The column groups of the RT structures (each 1-3 columns).
  virtual const std::vector<std::vector<uint32_t>>& groups() const = 0;

  // The rows where `e` is true, as a host bit vector.
  virtual void evaluate(const ScanExpr& e, ScanMethod method, BitVector& out, ScanQueryStats* stats = nullptr) const = 0;
  // Which sieving border each predicate end takes from now on (default: the options').
  virtual void set_sieve_mode(SieveMode mode) = 0;
  // EXPLAIN: the normalized tree, the jobs per group, the sieving vectors picked and
  // the refine regions.
  virtual std::string explain(const ScanExpr& e) const = 0;
  // The planner's view of `e` before running it (jobs, residual rows, matches).
  virtual ScanEstimate estimate(const ScanExpr& e) const = 0;
};

// tracer: a CPU tracer (Embree) that outlives the index, or null (no kRt).
std::unique_ptr<ScanIndex> make_host_scan_index(std::span<const ScanColumn> columns, const RtScanOptions& options,
                                                rt::Tracer* tracer);

}  // namespace raydb::access::rt_scan
