#pragma once
// The index part of `raydb calibrate`: times the index methods present on this
// machine (CPU: rt on Embree, sorted array, hash; GPU: rt-gpu on OptiX, sa-gpu,
// hash-gpu) on generated keys at a few index sizes, for point and range batches in
// each probe order, and stores the per-lookup costs in a plan::Calibration for the
// cost model. Progress goes to stderr.
#include "bench/index_calibration_options.h"
#include "plan/physical/calibration.h"

namespace raydb::bench {

class IndexCalibrator {
 public:
  explicit IndexCalibrator(IndexCalibrationOptions options) : o_(std::move(options)) {}
  // Fills out's index curves and sort costs for the devices measured; methods that
  // cannot run here (no GPU, no OptiX, too little memory) are skipped with a note on
  // stderr and keep the model's defaults.
  void run(plan::Calibration& out) const;

 private:
  void run_device(plan::ExecDevice dev, plan::Calibration& out) const;
  IndexCalibrationOptions o_;
};

}  // namespace raydb::bench
