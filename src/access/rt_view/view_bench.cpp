#include "access/rt_view/view_bench.h"

#include <algorithm>

namespace raydb::rtview {
namespace {

bool same_rows(const ViewResult& a, const ViewResult& b) {
  if (a.rows.size() != b.rows.size()) return false;
  for (size_t i = 0; i < a.rows.size(); ++i) {
    if (a.rows[i].group_codes != b.rows[i].group_codes || a.rows[i].count != b.rows[i].count) return false;
    for (size_t k = 0; k < a.rows[i].values.size(); ++k)
      if (a.rows[i].values[k].i != b.rows[i].values[k].i || a.rows[i].values[k].null != b.rows[i].values[k].null)
        return false;
  }
  return true;
}

double median_launch(const RtView& view, const ViewRequest& r, int reps, ViewResult* last) {
  std::vector<double> ms;
  view.query(r);  // warm-up
  for (int i = 0; i < std::max(1, reps); ++i) {
    *last = view.query(r);
    ms.push_back(last->stats.launch_ms);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

AccumulationTiming bench_accumulation(const RtView& view, ViewRequest request, int reps) {
  AccumulationTiming t;
  ViewResult a, b;
  request.check_duplicates = false;
  request.per_hit_atomics = false;
  t.per_ray_ms = median_launch(view, request, reps, &a);
  request.per_hit_atomics = true;
  t.per_hit_ms = median_launch(view, request, reps, &b);
  t.rays = a.stats.rays;
  t.hits = a.stats.hits;
  t.equal = same_rows(a, b);
  return t;
}

}  // namespace raydb::rtview
