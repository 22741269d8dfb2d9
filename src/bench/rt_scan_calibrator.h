#pragma once
// `raydb calibrate`'s RT scan measurement: the host RT scan index's methods (cpu-scan,
// cpu-sieve, rt on Embree) timed on one thread over uniform columns, turned into the
// per-unit constants the cost model reads (plan::Calibration::RtScanConstants), so
// `auto` takes an RT scan path only where it is cheaper on this machine.
#include <optional>

#include "plan/physical/calibration.h"

namespace raydb::bench {

// 2^log2_rows rows x 3 columns; `reps` timed runs per measurement (median).
plan::Calibration::RtScanConstants calibrate_rt_scan(int log2_rows, int reps);
// The GPU-resident index's methods (gpu-scan, gpu-sieve, rt on OptiX where it runs),
// device time; nullopt (and a line saying why) without a GPU
// (rt_scan_gpu_calibrator.cpp).
std::optional<plan::Calibration::RtScanConstants> calibrate_rt_scan_gpu(int log2_rows, int reps);

}  // namespace raydb::bench
