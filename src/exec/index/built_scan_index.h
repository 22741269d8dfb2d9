#pragma once
// One RT scan index (CREATE INDEX ... USING RTSCAN) built over stored columns of a
// table: the access layer's ScanIndex plus what the planner needs to use it for SQL:
// which table columns it covers, in index order, where it runs and its build cost.
// On the host (the CPU backend): rt on Embree, cpu-scan, cpu-sieve; GPU-resident (the
// CUDA backend, built by exec/cuda/gpu_index_catalog): rt on OptiX, gpu-scan,
// gpu-sieve. The index reads int64 values; 8-byte columns are read in place, 4-byte
// ones (INTEGER, DATE, VARCHAR codes) are widened into copies, which a GPU-resident
// index no longer needs once built (it holds its own device copies).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "access/rt_scan/scan_index.h"
#include "plan/physical/access_path.h"
#include "plan/physical/calibration.h"
#include "storage/table.h"

namespace raydb::exec {

class BuiltScanIndex final : public plan::IndexHandle {
 public:
  using Factory = std::function<std::unique_ptr<access::rt_scan::ScanIndex>(
      std::span<const access::rt_scan::ScanColumn>, const access::rt_scan::RtScanOptions&)>;
  // `columns`: table column indexes in index order. `tracer` (Embree) may be null
  // when the options build no RT structures. Throws kInvalidInput for a DOUBLE column.
  BuiltScanIndex(std::string name, const access::rt_scan::RtScanOptions& options, TablePtr table,
                 std::vector<int> columns, rt::Tracer* tracer);
  // The same over an index `make` builds (the GPU-resident one: index().on_gpu()).
  BuiltScanIndex(std::string name, const access::rt_scan::RtScanOptions& options, TablePtr table,
                 std::vector<int> columns, const Factory& make);

  const access::rt_scan::ScanIndex& index() const { return *index_; }
  plan::ExecDevice device() const { return index_->on_gpu() ? plan::ExecDevice::kGpu : plan::ExecDevice::kCpu; }
  const std::vector<int>& columns() const { return columns_; }
  const TablePtr& table() const { return table_; }
  double build_ms() const { return build_ms_; }
  // Host bytes: the index's structures plus the widened column copies it keeps.
  uint64_t host_bytes() const;
  // Position of table column `column` in the index, or -1.
  int position(int column) const;
  // Unique per build in this process: measured method times (ScanMethodTimings) are
  // kept per index, and a rebuilt index under the same name starts afresh.
  uint64_t serial() const { return serial_; }

 private:
  void build(const access::rt_scan::RtScanOptions& options, const Factory& make);

  TablePtr table_;  // keeps the columns' memory alive
  std::vector<int> columns_;
  std::vector<std::vector<int64_t>> widened_;  // 4-byte columns as int64
  std::unique_ptr<access::rt_scan::ScanIndex> index_;
  double build_ms_ = 0;
  uint64_t serial_ = 0;
};

}  // namespace raydb::exec
