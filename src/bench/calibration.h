#pragma once
// `raydb calibrate`: measures what the planner's cost model uses on this machine (CPU
// and GPU bandwidths, and the lookup costs of every index method present: CPU rt /
// sorted array / hash, GPU rt-gpu / sa-gpu / hash-gpu; the CPU RT scan methods), prints what the model then
// picks, and stores the measurements as JSON where the cost model reads them
// ($RAYDB_CALIBRATION, else $XDG_CONFIG_HOME/raydb/calibration.json, else
// ~/.config/raydb/calibration.json).
#include "bench/index_calibration_options.h"
#include "bench/view_calibrator.h"

namespace raydb::bench {

struct CalibrationOptions {
  // Devices to measure (a GPU is skipped when absent) and the index measurements;
  // index.cpu / index.gpu are set from these.
  bool cpu = true, gpu = true;
  bool bandwidths_only = false;
  int rt_scan_log2_rows = 21;      // rows of the RT scan measurement (CPU)
  int rt_scan_gpu_log2_rows = 26;  // rows of the RT scan measurement (GPU)
  IndexCalibrationOptions index;
  bool views = true;        // RT views on SSB (view_calibrator.h)
  bool views_only = false;  // only the views: the stored file's other numbers are kept
  ViewCalibrationOptions view;
};

void run_calibration(const CalibrationOptions& options);

}  // namespace raydb::bench
