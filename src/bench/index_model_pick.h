#pragma once
// `raydb bench index`: what the cost model picks for a batch (method, and whether to
// sort the probes first) next to the fastest method measured for the same choices.
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/physical/cost_model.h"

namespace raydb::bench {

// One method's time in one probe order: median and the spread of the repetitions.
struct Measured {
  double ms = 0, lo = 0, hi = 0;
};

// Measured times by (method, probe order).
using MeasuredTimes = std::map<std::pair<std::string, int>, Measured>;

// Prints the model's pick for a batch against the fastest measured and hands the same
// as JSON to `emit`. Probe order sp 0: the batch is used as it comes; 1: the index may
// sort it first or not (not sorting is measured in sp 0, when that ran); 2: presorted.
// "Within noise": the pick's fastest repetition is no slower than the fastest
// method's slowest one.
void report_model_pick(const std::vector<std::string>& methods, const MeasuredTimes& measured, int sp, uint64_t keys,
                       const plan::LookupBatch& batch, const std::function<void(nlohmann::ordered_json)>& emit);

}  // namespace raydb::bench
