#pragma once
// The index part of `raydb calibrate`: times the index methods present on this
// machine (CPU: rt on Embree, sorted array, hash; GPU: rt-gpu on OptiX, sa-gpu,
// hash-gpu) on generated keys at a few index sizes, for point and range batches in
// each probe order, and stores the per-lookup costs in a plan::Calibration for the
// cost model. Progress goes to stderr.
#include <string>
#include <vector>

#include "plan/physical/calibration.h"

namespace raydb::cli {

struct IndexCalibrationOptions {
  bool cpu = true, gpu = true;
  // log2 of the key counts and of the batch size. CPU: one thread (the cost model's
  // CPU unit), sizes that keep the slowest method (Embree) to a few seconds. GPU: up
  // to the 2^26 keys of issue #4, closer together where the indexes outgrow the
  // H200's 50 MB L2 (2^22-2^23 keys of 8 bytes), where the cost per lookup bends; a
  // batch of 2^22 fills the device ~15 times over (unsorted costs do not depend on
  // it; sorted ones are read at log2(keys / lookups), IndexCurves::axis).
  std::vector<int> cpu_log2_keys = {14, 17, 20};
  int cpu_log2_lookups = 13;
  std::vector<int> gpu_log2_keys = {16, 19, 22, 24, 26};
  int gpu_log2_lookups = 22;
  int reps = 3;  // timed runs per measurement (median), after one warm-up per index
};

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

}  // namespace raydb::cli
