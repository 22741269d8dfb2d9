#pragma once
// What the index part of `raydb calibrate` measures (bench/index_calibrator.h).
#include <vector>

namespace raydb::bench {

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

}  // namespace raydb::bench
