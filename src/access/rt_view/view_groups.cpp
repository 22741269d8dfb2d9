#include "access/rt_view/view_groups.h"

#include <map>

#include "common/error.h"

namespace raydb::rtview {

OutputGroups output_groups(const ViewRows& v, const std::vector<uint32_t>& group_by) {
  for (uint32_t a : group_by)
    if (a >= v.group_domains.size()) fail(ErrorKind::kInvalidInput, "rt view: no group attribute {}", a);
  OutputGroups og;
  og.map.resize(v.group_count);
  if (group_by.empty()) {
    og.tuples.push_back({});
    return og;  // every view group -> output group 0
  }
  std::map<std::vector<uint32_t>, uint32_t> ids;
  std::vector<uint32_t> t(group_by.size());
  for (uint32_t g = 0; g < v.group_count; ++g) {
    for (size_t k = 0; k < group_by.size(); ++k) t[k] = v.group_code(g, group_by[k]);
    ids.emplace(t, 0);
  }
  uint32_t n = 0;
  for (auto& [tuple, id] : ids) {
    id = n++;
    og.tuples.push_back(tuple);
  }
  for (uint32_t g = 0; g < v.group_count; ++g) {
    for (size_t k = 0; k < group_by.size(); ++k) t[k] = v.group_code(g, group_by[k]);
    og.map[g] = ids.at(t);
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
