#pragma once
// Micro-benchmark of the accumulation (the contention fix): one request run with
// per-ray partials (raydb) and with per-hit atomics (RTCUDB as published), launch
// times only, results checked equal. For `raydb bench views` and the lead's device runs.
#include "access/rt_view/rt_view.h"

namespace raydb::rtview {

struct AccumulationTiming {
  double per_ray_ms = 0;   // median launch time
  double per_hit_ms = 0;
  uint64_t rays = 0, hits = 0;
  bool equal = false;      // both produced the same rows
};

AccumulationTiming bench_accumulation(const RtView& view, ViewRequest request, int reps = 10);

}  // namespace raydb::rtview
