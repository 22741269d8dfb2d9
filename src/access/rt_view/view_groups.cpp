#include "access/rt_view/view_groups.h"

#include <algorithm>
#include <numeric>

#include "common/error.h"
#include "rt/mapping/key_search.h"

namespace raydb::rtview {

OutputGroups output_groups(const ViewRows& v, const std::vector<uint32_t>& group_by, const std::vector<uint32_t>* traced) {
  for (uint32_t a : group_by)
    if (a >= v.group_domains.size()) fail(ErrorKind::kInvalidInput, "rt view: no group attribute {}", a);
  OutputGroups og;
  std::vector<uint32_t> all;
  if (traced == nullptr) {
    all.resize(v.group_count);
    std::iota(all.begin(), all.end(), 0u);
    traced = &all;
  }
  og.map.assign(v.group_count, rt::mapping::kNone);
  if (group_by.empty()) {
    og.tuples.push_back({});
    for (uint32_t g : *traced) og.map[g] = 0;  // every traced view group -> output group 0
    return og;
  }
  // The traced groups in the order of their GROUP BY tuples (stable: ties keep view
  // order), then one output group per distinct tuple.
  std::vector<uint32_t> order = *traced;
  auto less = [&](uint32_t a, uint32_t b) {
    for (uint32_t k : group_by)
      if (v.group_code(a, k) != v.group_code(b, k)) return v.group_code(a, k) < v.group_code(b, k);
    return false;
  };
  std::stable_sort(order.begin(), order.end(), less);
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || less(order[i - 1], order[i])) {
      std::vector<uint32_t> t;
      for (uint32_t k : group_by) t.push_back(v.group_code(order[i], k));
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
