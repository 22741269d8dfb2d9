#pragma once
// The CUDA devices and the CUDA executor, as the rest of raydb sees them (the backend
// behind the seam is cuda_backend.h); device code (C++17) may include this header.
// Everything here exists in every build: without CUDA (RAYDB_HAVE_CUDA unset) there are no devices and
// execute() fails with a clear message, so callers need no #ifdefs.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/core/result_table.h"
#include "exec/cuda/stream_plan.h"
#include "plan/physical/physical_plan.h"

namespace raydb {
class Settings;
}

namespace raydb::exec::cuda {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  uint64_t total_bytes = 0, free_bytes = 0;
  int multiprocessors = 0;
  int l2_bytes = 0;
};

bool built();                           // compiled with CUDA
// The driver and device 0's context made on a background thread (device_warmup.h);
// no-ops without CUDA. wait: until it finished; running: started and not finished;
// ms: how long it took (-1 unless finished).
void start_device_warmup();
void wait_device_warmup();
bool device_warmup_running();
double device_warmup_ms();
bool settle_device_warmup();  // before exit: see raydb/system.h settle_gpu_warmup
int device_count();                     // 0 without CUDA, driver or device
std::string no_device_reason();         // why device_count() is 0 ("" otherwise)
std::vector<DeviceInfo> devices();

// nullopt when the CUDA executor runs `plan`; else a one-line reason. Pure plan
// analysis: answers the same with or without a device.
std::optional<std::string> unsupported_reason(const plan::PhysicalPlan& plan);
// Bytes of device memory the analysed plan's columns need beyond what is cached now
// (0 when all resident); the backend compares it with the budget when admitting.
struct CudaPlanAnalysis;
uint64_t bytes_to_upload(const CudaPlanAnalysis& analysis);
// The stored (host) bytes of those columns: what the upload reads from the column files.
uint64_t host_bytes_to_upload(const CudaPlanAnalysis& analysis);
// Whether this process has put columns on the device already (its context exists).
bool device_in_use();
// Larger than the GPU (stream_plan.h): whether the analysed star plan streams its fact
// columns under `settings` and the budget now. nullopt when it is no star plan, when
// cuda_stream is off, or (auto) when its columns fit; throws with a one-line reason when
// they do not fit and cannot stream (kOutOfMemory, so `auto` runs the CPU) or when
// cuda_stream=on cannot stream (kNotImplemented).
std::optional<StreamPlan> plan_streaming(const CudaPlanAnalysis& analysis, const plan::LogicalQuery& q,
                                         const Settings& settings);
// Whether plan_streaming would stream, judged without making a device context (for
// `auto`'s cost before the access paths): cuda_stream=on, or the budget is known (a
// gpu_memory_limit, or a device in use) and the columns exceed what is free.
bool may_stream(const CudaPlanAnalysis& analysis, const Settings& settings);

class CudaExecutor {
 public:
  // Runs a supported plan on device 0. Throws Error(kNotImplemented) for plans
  // outside the backend's shapes, Error(kOutOfMemory) when a column or intermediate
  // does not fit the memory budget.
  static ResultTable execute(const plan::PhysicalPlan& plan, const ExecOptions& options);
};

// Device memory: budget (RAYDB_GPU_MEMORY_LIMIT bytes, with K/M/G suffixes, or
// set_memory_budget; default 90% of the device's free memory at first use),
// bytes in use by cached columns and query scratch, pooled free bytes.
struct MemoryStats {
  uint64_t budget = 0, in_use = 0, pooled = 0, peak = 0;
};
MemoryStats memory_stats();
void set_memory_budget(uint64_t bytes);  // 0: back to the default
void clear_column_cache();                // drop resident columns (end-to-end timing)
// Setting fast_load: columns with a narrowed file are read from it into pinned
// buffers and checksummed as they are copied (off: mapped, verified, narrowed here),
// `chunk_bytes` at a time (setting upload_chunk).
void use_fast_load(bool on, uint64_t chunk_bytes);
// Setting prefetch: starts reading ahead, on background threads, the narrowed files of
// the analysed plan's columns that are not on the device (nor being read ahead), unless
// fast_load is off, the plan streams, or they would take over half the host memory
// available; the column cache uploads them on `upload_streams` streams through
// `upload_staging` pinned bytes. Null when nothing is read ahead (and without CUDA).
struct PrefetchTicket;
std::shared_ptr<PrefetchTicket> prefetch_columns(const CudaPlanAnalysis& analysis, const plan::LogicalQuery* q,
                                                 const Settings& settings);
// The prefetch upload's shape for the next uploads (settings upload_streams, upload_staging).
void use_upload_streams(int streams, uint64_t staging_bytes);
void release_pooled_memory();             // return the pool's free blocks to the device (memory measurements)
// Drops every cached device object (resident columns, GPU indexes) and returns the
// pool's blocks to the device; what queries still hold stays. Called before exit by
// the GPU test binaries, so a leak check sees only real leaks. Returns the bytes
// still in use afterwards (0 when nothing outlives the caches).
uint64_t release_device_state();

// Queries whose ORDER BY / OFFSET / LIMIT ran on the device (general path, results of
// 65536 rows or more) since the process started; 0 without CUDA.
uint64_t device_sorted_queries();
// Star fact passes (a statement's fact kernel launches, or its order-statistics pass)
// that read bit-packed columns (setting cuda_compression) since the process started;
// 0 without CUDA.
uint64_t packed_fact_launches();
// Star fact passes whose kernel aggregated a few groups per warp (mode 5, setting
// cuda_few_groups) since the process started; 0 without CUDA.
uint64_t few_group_fact_passes();
// GROUP BY queries the general path grouped through its device hash table (the
// default; RAYDB_CUDA_GROUP=sort sorts every row instead) since the process started.
uint64_t hash_grouped_queries();
// GROUP BY queries whose ORDER BY ... LIMIT candidates the device chose
// (general/top_group_pick.h) since the process started; 0 without CUDA.
uint64_t device_top_group_picks();
// Hash tables built for equi-joins on the general path since the process started (the
// default join; RAYDB_CUDA_JOIN=sort selects the sort-based join instead); 0 without CUDA.
uint64_t hash_join_builds();
// Join builds kept on the device for later statements (general/join_build_cache.h), and
// how often a statement took one, since the process started; 0 without CUDA.
uint64_t kept_join_builds();
uint64_t kept_join_build_hits();

// Calibration (raydb calibrate, raydb bench): GB/s, measured on device 0.
double measure_device_read_gbs();  // a streaming reduction over 2 GiB
double measure_host_to_device_gbs();  // pinned host -> device copies of 256 MiB

}  // namespace raydb::exec::cuda
