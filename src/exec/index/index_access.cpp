#include "exec/index/index_access.h"

#include <algorithm>

#include "common/error.h"
#include "common/timer.h"
#include "exec/index/rt_scan_chooser.h"
#include "exec/index/rt_scan_stats.h"
#include "exec/index/scan_method_timings.h"

namespace raydb::exec {

namespace {
constexpr uint64_t kMaxHashPoints = 4096;  // a range a hash index answers as that many points
}

std::optional<std::vector<access::KeyRange>> scan_lookups(const BuiltIndex& index, const ColumnPredicate& pred) {
  std::vector<access::KeyRange> lookups = index.lookups(pred.ranges());
  if (index.supports_ranges) return lookups;
  uint64_t points = 0;
  for (auto& r : lookups) {
    points += r.hi - r.lo + 1;
    if (r.hi - r.lo >= kMaxHashPoints || points > kMaxHashPoints) return std::nullopt;
  }
  std::vector<access::KeyRange> out;
  out.reserve(points);
  for (auto& r : lookups)
    for (uint64_t k = r.lo;; k++) {
      out.push_back({k, k});
      if (k == r.hi) break;
    }
  return out;
}

namespace {

// An RT scan path: the index evaluates the filters it covers into a bit vector, whose
// set bits are the rows, already ascending.
std::vector<uint32_t> rt_scan_rows(const plan::IndexScan& scan, const plan::LogicalQuery& q) {
  const RtScanQuery rq = rt_scan_query(scan, q);
  access::rt_scan::BitVector bits;
  access::rt_scan::ScanQueryStats st;
  Timer timer;
  rq.index->index().evaluate(rq.expr, rq.method, bits, &st);
  // A near-tie between two methods' estimates: this run's time settles the choice.
  if (!scan.timing_key.empty()) ScanMethodTimings::shared().record(scan.timing_key, scan.scan_method, timer.elapsed_ms());
  record_rt_scan(rq.index->name, access::rt_scan::scan_method_name(rq.method), st);
  std::vector<uint32_t> rows;
  rows.reserve(bits.count());
  for (size_t w = 0; w < bits.words.size(); w++)
    for (uint64_t x = bits.words[w]; x; x &= x - 1) rows.push_back(uint32_t(w * 64 + size_t(__builtin_ctzll(x))));
  return rows;
}

}  // namespace

std::vector<uint32_t> index_scan_rows(const plan::IndexScan& scan, const plan::LogicalQuery& q) {
  if (scan.index && scan.index->kind == plan::IndexKind::kRtScan) return rt_scan_rows(scan, q);
  const auto* index = dynamic_cast<const BuiltIndex*>(scan.index.get());
  if (!index) fail(ErrorKind::kInternal, "index scan without a built index");
  auto pred = ColumnPredicate::compile(*scan.predicate, q);
  if (!pred || &pred->column() != &index->key_column())
    fail(ErrorKind::kInternal, "index scan predicate {} is not on the indexed column", scan.predicate->to_string());
  auto lookups = scan_lookups(*index, *pred);
  if (!lookups) fail(ErrorKind::kInternal, "index {} cannot answer {}", index->name, scan.predicate->to_string());
  access::RowIdLists lists;
  index->index().materialize(*lookups, lists);
  // Ranges are disjoint, so no row appears twice; sorting restores scan order.
  std::vector<uint32_t> rows(lists.rows.begin(), lists.rows.end());
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace raydb::exec
