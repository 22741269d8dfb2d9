#pragma once
// End to end under `auto`: a query whose columns are not on the GPU yet pays for
// moving them there (the device's first use in this process, the host pass that
// narrows them, the host-to-device copy) before its kernels run; the CPU backend reads
// the same columns from host memory at once. This model compares the two, so a
// one-shot `raydb query` runs where it answers sooner, and a process that keeps data
// hot (raydb serve, transfer_cost=off) keeps preferring the GPU. Both backends read
// and verify the columns' files alike, so that part is left out of the comparison.
#include <cstdint>

#include "plan/physical/calibration.h"

namespace raydb::plan {

struct TransferWork {
  uint64_t upload_bytes = 0;  // device bytes of the columns not resident yet
  uint64_t upload_host_bytes = 0;  // their host bytes read by the load (narrowed files, else stored bytes)
  uint64_t scan_bytes = 0;    // stored bytes of every column the query reads (the CPU's scan)
  double device_ms = 0;       // the GPU's own run with its data resident (kernels)
  bool device_ready = false;  // the device was already used in this process
  int threads = 0;            // CPU threads of the query (0: all the calibration's)
  // The fact columns stream through the GPU in chunks (exec/cuda/stream_plan.h): their
  // copy is paid by every run, overlapped with the kernels rather than before them.
  bool streamed = false;
};

struct TransferEstimate {
  double gpu_ms = 0;  // first use + narrowing + copy (overlapped) + kernels
  double cpu_ms = 0;  // the CPU backend's run over scan_bytes
  bool calibrated = false;  // false: no CPU or link bandwidth measured here; no advice
  bool cpu_sooner() const { return calibrated && upload_bytes_positive && cpu_ms < gpu_ms; }
  bool upload_bytes_positive = false;
};

// The constants that are not bandwidths: the device's first use in a process (driver
// context, memory pool, pinned staging), and how many passes over its stored bytes the
// CPU's star work costs compared with a plain read. `raydb calibrate` measures the
// first use ("gpu_first_use_ms"); the factor is an estimate (see the .cpp).
struct TransferConstants {
  double gpu_first_use_ms = 0;
  double cpu_passes = 0;      // CPU star query time / (stored bytes / read bandwidth)
  double narrow_passes = 0;   // host narrowing time / (stored bytes / read bandwidth)
};
TransferConstants transfer_constants(const Calibration* calibration);

inline constexpr double kDefaultStreamH2DGbs = 20.0;

// The estimate from `calibration` (null: the active one, cost_model.h). Without a
// measured CPU read bandwidth and host-to-device bandwidth it is not calibrated and
// advises nothing (auto keeps the GPU, as before this model); a streamed query without
// a measured host-to-device bandwidth takes kDefaultStreamH2DGbs.
TransferEstimate estimate_transfer(const TransferWork& w, const Calibration* calibration = nullptr);

}  // namespace raydb::plan
