#pragma once
// What every backend hands back, and the options every backend takes.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/settings.h"
#include "exec/core/device_result_columns.h"
#include "exec/core/key_encoder.h"
#include "exec/core/vector.h"

namespace raydb::exec {

struct ExecOptions {
  int threads = 0;  // 0: all hardware threads
  Settings settings;  // the connection's knobs (common/settings.h)
  bool keep_result_on_device = false;  // QueryOptions::keep_result_on_device
  // The process's device lock, held by the query driver while a GPU backend runs (GPU
  // work is one statement at a time). A backend may release it once its device work is
  // done and only host work is left (decoding the result), so the next statement's
  // device work starts meanwhile; it must take it again before any further device work.
  std::unique_lock<std::mutex>* device_lock = nullptr;
};

// The columns of a finished query. Vectors may view strings owned by `interner`
// and by the query's tables; keep both alive while reading.
struct ResultTable {
  std::vector<std::string> names;
  std::vector<Vector> columns;
  size_t rows = 0;
  std::shared_ptr<StringInterner> interner;
  std::string profile;  // per-phase timings and sizes, for EXPLAIN ANALYZE-style output
  // GPU backends: device time of the whole query (CUDA events around dimension work,
  // fact kernel and the copy of the result to the host), and the bytes of fact
  // columns the query reads as stored on the device. -1 / 0 elsewhere.
  double device_ms = -1;
  uint64_t device_bytes = 0;
  // GPU backends, with ExecOptions::keep_result_on_device: the final columns, also on
  // the device (null where the backend did not keep them).
  std::shared_ptr<const DeviceResultColumns> device_columns;
};

}  // namespace raydb::exec
