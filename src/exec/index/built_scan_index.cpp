#include "exec/index/built_scan_index.h"

#include <algorithm>
#include <atomic>

#include "common/error.h"
#include "common/timer.h"

namespace raydb::exec {

namespace rs = access::rt_scan;

BuiltScanIndex::BuiltScanIndex(std::string index_name, const rs::RtScanOptions& options, TablePtr table,
                               std::vector<int> cols, rt::Tracer* tracer)
    : table_(std::move(table)), columns_(std::move(cols)) {
  name = std::move(index_name);
  rs::RtScanOptions o = options;
  if (!tracer) o.build_rt = false;
  build(o, [&](std::span<const rs::ScanColumn> c, const rs::RtScanOptions& opt) {
    return rs::make_host_scan_index(c, opt, opt.build_rt ? tracer : nullptr);
  });
}

BuiltScanIndex::BuiltScanIndex(std::string index_name, const rs::RtScanOptions& options, TablePtr table,
                               std::vector<int> cols, const Factory& make)
    : table_(std::move(table)), columns_(std::move(cols)) {
  name = std::move(index_name);
  build(options, make);
}

void BuiltScanIndex::build(const rs::RtScanOptions& options, const Factory& make) {
  static std::atomic<uint64_t> next_serial{1};
  serial_ = next_serial.fetch_add(1);
  kind = plan::IndexKind::kRtScan;
  column = columns_.empty() ? -1 : columns_[0];
  rows = table_->row_count();
  Timer timer;
  std::vector<rs::ScanColumn> scan_cols;
  for (int c : columns_) {
    const Column& col = table_->column(size_t(c));
    if (col.type().id == TypeId::kDouble)
      fail(ErrorKind::kInvalidInput, "cannot index column {}.{} of type DOUBLE (indexes take INTEGER, BIGINT, DECIMAL, "
           "DATE and VARCHAR keys)", table_->name(), col.name());
    rs::ScanColumn sc;
    if (col.size() == 0) {
      sc.values = {};
    } else if (col.type().physical_width() == 8) {
      sc.values = std::span<const int64_t>(col.data<int64_t>(), col.size());
    } else {
      const int32_t* p = col.data<int32_t>();
      std::vector<int64_t>& w = widened_.emplace_back(p, p + col.size());
      sc.values = w;
    }
    scan_cols.push_back(sc);  // stored columns hold no NULLs: no bitmap
  }
  index_ = make(scan_cols, options);
  // A GPU-resident index holds its own device copies of the values.
  if (index_->on_gpu()) std::vector<std::vector<int64_t>>().swap(widened_);
  method = index_->on_gpu() ? "rtscan-gpu" : "rtscan";
  build_ms_ = timer.elapsed_ms();
}

uint64_t BuiltScanIndex::host_bytes() const {
  uint64_t b = index_->build_stats().host_bytes();
  for (auto& w : widened_) b += w.size() * sizeof(int64_t);
  return b;
}

int BuiltScanIndex::position(int c) const {
  auto it = std::find(columns_.begin(), columns_.end(), c);
  return it == columns_.end() ? -1 : int(it - columns_.begin());
}

}  // namespace raydb::exec
