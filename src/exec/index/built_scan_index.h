#pragma once
// One RT scan index (CREATE INDEX ... USING RTSCAN) built over stored columns of a
// table: the access layer's host ScanIndex (rt on Embree, cpu-scan, cpu-sieve) plus
// what the planner needs to use it for SQL: which table columns it covers, in index
// order, and its build cost. The index reads int64 values; 8-byte columns are read in
// place, 4-byte ones (INTEGER, DATE, VARCHAR codes) are widened into copies it owns.
#include <memory>
#include <string>
#include <vector>

#include "access/rt_scan/scan_index.h"
#include "plan/physical/access_path.h"
#include "storage/table.h"

namespace raydb::exec {

class BuiltScanIndex final : public plan::IndexHandle {
 public:
  // `columns`: table column indexes in index order. `tracer` (Embree) may be null
  // when the options build no RT structures. Throws kInvalidInput for a DOUBLE column.
  BuiltScanIndex(std::string name, const access::rt_scan::RtScanOptions& options, TablePtr table,
                 std::vector<int> columns, rt::Tracer* tracer);

  const access::rt_scan::ScanIndex& index() const { return *index_; }
  const std::vector<int>& columns() const { return columns_; }
  const TablePtr& table() const { return table_; }
  double build_ms() const { return build_ms_; }
  // Host bytes: the index's structures plus the widened column copies.
  uint64_t host_bytes() const;
  // Position of table column `column` in the index, or -1.
  int position(int column) const;

 private:
  TablePtr table_;  // keeps the columns' memory alive
  std::vector<int> columns_;
  std::vector<std::vector<int64_t>> widened_;  // 4-byte columns as int64
  std::unique_ptr<access::rt_scan::ScanIndex> index_;
  double build_ms_ = 0;
};

}  // namespace raydb::exec
