#pragma once
// The cost model's GPU curves for machines never calibrated: the GPU part of a
// `raydb calibrate` run on the project's H200, compiled in (provenance in the .cpp).
#include "plan/physical/calibration.h"

namespace raydb::plan {

const Calibration& default_gpu_calibration();

}  // namespace raydb::plan
