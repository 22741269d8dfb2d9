#include "access/rt_view/view_groups.h"

#include <algorithm>
#include <numeric>

#include "common/error.h"

namespace raydb::rtview {

OutputGroups output_groups(const ViewRows& v, const std::vector<uint32_t>& group_by, const std::vector<uint32_t>* traced) {
  for (uint32_t a : group_by)
    if (a >= v.group_domains.size()) fail(ErrorKind::kInvalidInput, "rt view: no group attribute {}", a);
  OutputGroups og;
  const size_t n = traced ? traced->size() : v.group_count;
  auto group = [&](size_t i) { return traced ? (*traced)[i] : static_cast<uint32_t>(i); };
  og.map.assign(n, 0);
  if (group_by.empty()) {
    og.tuples.push_back({});
    return og;  // every group -> output group 0
  }
  // The groups in the order of their GROUP BY tuples (stable: ties keep view order),
  // then one output group per distinct tuple.
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  auto less = [&](uint32_t a, uint32_t b) {
    const uint32_t ga = group(a), gb = group(b);
    for (uint32_t k : group_by)
      if (v.group_code(ga, k) != v.group_code(gb, k)) return v.group_code(ga, k) < v.group_code(gb, k);
    return false;
  };
  std::stable_sort(order.begin(), order.end(), less);
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || less(order[i - 1], order[i])) {
      std::vector<uint32_t> t;
      for (uint32_t k : group_by) t.push_back(v.group_code(group(order[i]), k));
      og.tuples.push_back(std::move(t));
    }
    og.map[order[i]] = static_cast<uint32_t>(og.tuples.size() - 1);
  }
  return og;
}

void finish_result(const ViewRequest& r, const OutputGroups& og, const GroupAccumulators& acc, ViewResult& out) {
  out.group_by = r.group_by;
  for (size_t o = 0; o < og.tuples.size(); ++o) {
    const uint64_t c = acc.count[o];
    if (c == 0 && !r.group_by.empty()) continue;
    ViewResultRow row;
    row.group_codes = og.tuples[o];
    row.count = c;
    for (size_t a = 0; a < r.aggregates.size(); ++a) {
      AggValue val;
      switch (r.aggregates[a].kind) {
        case AggKind::kCount: val.i = c; break;
        case AggKind::kSum: val.i = acc.sum[a][o]; break;
        case AggKind::kAvg: val.i = acc.sum[a][o]; val.d = c ? static_cast<double>(acc.sum[a][o]) / static_cast<double>(c) : 0; break;
        case AggKind::kMin:
        case AggKind::kMax: val.i = acc.ext[a][o]; break;
      }
      val.null = c == 0 && r.aggregates[a].kind != AggKind::kCount;
      row.values.push_back(val);
    }
    out.rows.push_back(std::move(row));
  }
}

}  // namespace raydb::rtview
