#pragma once
// What the rt policy ran for one query, read from EXPLAIN ANALYZE (the plan line of
// exec/index/view_path.cpp choose_view and the profile line of run_view): shared by
// `raydb bench views` and the view calibration.
#include <cstdint>
#include <string>

namespace raydb::bench {

struct ViewRun {
  std::string view;  // "" when the query did not run through a view
  uint64_t rays = 0, hits = 0, flushes = 0, groups_traced = 0, view_groups = 0, decided = 0;
  double star_model_ms = -1;  // the planner's star-path estimate on the plan line (-1: none)
  std::string plan;
};

ViewRun parse_view_run(const std::string& explain);

}  // namespace raydb::bench
