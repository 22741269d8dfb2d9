// The brute-force evaluation of a view request over the view's rows: the oracle of
// the RT path (tests), written independently of the Z encoding.
#include <algorithm>

#include "access/rt_view/rt_view.h"
#include "access/rt_view/view_groups.h"
#include "access/rt_view/z_intervals.h"

namespace raydb::rtview {

ViewResult evaluate_brute_force(const ViewRows& v, const ViewRequest& r) {
  const OutputGroups og = output_groups(v, r.group_by);
  const size_t ng = og.tuples.size(), na = r.aggregates.size();
  GroupAccumulators acc;
  acc.count.assign(ng, 0);
  acc.sum.assign(na, std::vector<__int128>(ng, 0));
  acc.ext.assign(na, std::vector<int64_t>(ng, 0));
  for (size_t a = 0; a < na; ++a)
    acc.ext[a].assign(ng, r.aggregates[a].kind == AggKind::kMin ? INT64_MAX : INT64_MIN);
  // allowed[attr][code]
  std::vector<std::vector<uint8_t>> allowed(v.filter_domains.size());
  for (size_t f = 0; f < allowed.size(); ++f) allowed[f].assign(v.filter_domains[f].size, 1);
  for (const ViewFilter& f : r.filters) {
    std::vector<uint8_t> ok(v.filter_domains.at(f.attr).size, 0);
    for (const CodeInterval& c : f.allowed)
      for (uint64_t x = c.lo; x <= c.hi && x < ok.size(); ++x) ok[x] = 1;
    for (size_t x = 0; x < ok.size(); ++x) allowed[f.attr][x] &= ok[x];
  }
  for (uint64_t row = 0; row < v.rows; ++row) {
    bool pass = true;
    for (size_t f = 0; f < allowed.size() && pass; ++f) pass = allowed[f][v.filter_codes[f][row]] != 0;
    if (!pass) continue;
    const uint32_t o = og.map[v.group_ids[row]];
    ++acc.count[o];
    for (size_t a = 0; a < na; ++a) {
      const ViewAggregate& g = r.aggregates[a];
      if (g.kind == AggKind::kCount) continue;
      const int64_t x = v.inputs.at(g.input)[row];
      acc.sum[a][o] += x;
      acc.ext[a][o] = g.kind == AggKind::kMin ? std::min(acc.ext[a][o], x) : std::max(acc.ext[a][o], x);
    }
  }
  ViewResult out;
  finish_result(r, og, acc, out);
  return out;
}

}  // namespace raydb::rtview
