#pragma once
// Runs a physical plan on the CPU: vectorized over batches of rows, multi-threaded
// over morsels of the probe root (OpenMP), with thread-local aggregation merged at
// the end.
#include <memory>
#include <string>
#include <vector>

#include "exec/cpu/key_encoder.h"
#include "exec/cpu/vector.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec {

struct ExecOptions {
  int threads = 0;  // 0: all hardware threads
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
};

class CpuExecutor {
 public:
  static ResultTable execute(const plan::PhysicalPlan& plan, const ExecOptions& options);
};

}  // namespace raydb::exec
