#include "plan/physical/transfer_cost.h"

#include <algorithm>

#include "plan/physical/cost_model.h"

namespace raydb::plan {

namespace {
// Estimates, not measurements of this code; the device script (scripts/device_e2e.sh)
// prints the model's figures beside the measured one-shot times so they can be checked.
// The device's first use in a fresh process (driver context, memory pool) when
// `raydb calibrate` has not measured it: the SF 20 one-shot CUDA runs spent
// 254-563 ms where copies and kernels need under 60 ms; most of that is the column
// reads and narrowing modelled below, this is the rest.
constexpr double kDefaultFirstUseMs = 100.0;
// The CPU's star queries over their stored bytes: the SF 20 CPU runs on 16
// cores took 661 ms for the 13 queries, which read about 28 GB of lineorder columns
// (42 GB/s); a 16-core machine reads ~80 GB/s, so about 2 passes' worth.
constexpr double kCpuPasses = 2.0;
// The host narrowing pass reads the stored bytes once and writes narrower ones; 4-byte
// columns with few distinct values take a second (bitmap) pass to find them.
constexpr double kNarrowPasses = 1.5;
}  // namespace

TransferConstants transfer_constants(const Calibration* c) {
  TransferConstants k;
  k.gpu_first_use_ms = c && c->gpu_first_use_ms > 0 ? c->gpu_first_use_ms : kDefaultFirstUseMs;
  k.cpu_passes = kCpuPasses;
  k.narrow_passes = kNarrowPasses;
  return k;
}

TransferEstimate estimate_transfer(const TransferWork& w, const Calibration* calibration) {
  std::shared_ptr<const Calibration> held;
  if (!calibration) {
    held = active_calibration();
    calibration = held.get();
  }
  TransferEstimate e;
  e.upload_bytes_positive = w.upload_bytes > 0;
  if (!calibration || calibration->cpu_read_gbs <= 0) return e;
  // PCIe 4 x16 moves about 20-25 GB/s from pinned memory: the streamed estimate's
  // default where the link was not measured.
  const double h2d_gbs = calibration->host_to_device_gbs > 0 ? calibration->host_to_device_gbs
                         : w.streamed                        ? kDefaultStreamH2DGbs
                                                             : 0.0;
  if (h2d_gbs <= 0) return e;
  e.calibrated = true;
  const TransferConstants k = transfer_constants(calibration);
  // A query on fewer threads than calibrated reads proportionally slower (memory
  // bandwidth does not scale linearly, so this leans towards the GPU, the old default).
  // The narrowing pass runs on every thread whatever the query's setting.
  double cpu_gbs = calibration->cpu_read_gbs;
  if (w.threads > 0 && calibration->cpu_threads > w.threads)
    cpu_gbs *= double(w.threads) / double(calibration->cpu_threads);
  const double to_ms = 1e-6;  // bytes / (GB/s) = ns
  const double narrow_ms = k.narrow_passes * double(w.upload_host_bytes) / calibration->cpu_read_gbs * to_ms;
  const double copy_ms = double(w.upload_bytes) / h2d_gbs * to_ms;
  // The narrowing of one chunk overlaps the copy of the one before; streamed, the
  // kernel over one chunk overlaps the copy of the next as well.
  const double first_ms = w.device_ready || w.upload_bytes == 0 ? 0.0 : k.gpu_first_use_ms;
  e.gpu_ms = w.streamed ? first_ms + std::max({narrow_ms, copy_ms, w.device_ms})
                        : first_ms + std::max(narrow_ms, copy_ms) + w.device_ms;
  e.cpu_ms = k.cpu_passes * double(w.scan_bytes) / cpu_gbs * to_ms;
  return e;
}

}  // namespace raydb::plan
