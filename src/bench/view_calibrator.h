#pragma once
// The RT view part of `raydb calibrate`: on SSB data of a given scale factor it
// creates the views `raydb advise rt-views` proposes, times each of the 13 queries on
// the star path and through its view on this machine, and fits the cost model's view
// constants (per query, ray, primitive hit and traced group) and the star path's
// scale, so that `auto` compares both in this machine's milliseconds.
#include <string>

#include "plan/physical/calibration.h"

namespace raydb::bench {

struct ViewCalibrationOptions {
  double sf = 0;       // 0: 1 with a GPU, else 0.1
  int reps = 3;        // timed runs per query and path (median)
  std::string dir;     // SSB database to use ("": generated in a temporary directory, removed after)
};

// Measures on the device the rt policy runs views on here (OptiX on a GPU with ray
// tracing, else Embree on the CPU) and sets that device's rt_view constants in `c`.
// False (and `c` unchanged) when no query ran through a view.
bool calibrate_views(const ViewCalibrationOptions& options, plan::Calibration& c);

}  // namespace raydb::bench
