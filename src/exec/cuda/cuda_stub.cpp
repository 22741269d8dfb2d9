// The CUDA backend in a build without CUDA: no devices, clear errors.
#include "common/error.h"
#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/device_copies.h"
#include "exec/cuda/gpu_index_catalog.h"

namespace raydb::exec::cuda {

bool built() { return false; }
void start_device_warmup() {}
void wait_device_warmup() {}
bool device_warmup_running() { return false; }
double device_warmup_ms() { return -1; }
bool settle_device_warmup() { return true; }
int device_count() { return 0; }
std::string no_device_reason() { return "this raydb was built without CUDA (RAYDB_CUDA=OFF or no nvcc)"; }
std::vector<DeviceInfo> devices() { return {}; }
uint64_t bytes_to_upload(const CudaPlanAnalysis&) { return 0; }
uint64_t host_bytes_to_upload(const CudaPlanAnalysis&) { return 0; }
bool device_in_use() { return false; }
std::optional<StreamPlan> plan_streaming(const CudaPlanAnalysis&, const plan::LogicalQuery&, const Settings&) {
  return std::nullopt;
}
bool may_stream(const CudaPlanAnalysis&, const Settings&) { return false; }
MemoryStats memory_stats() { return {}; }
void set_memory_budget(uint64_t) {}
void clear_column_cache() {}
void use_fast_load(bool, uint64_t) {}
std::shared_ptr<PrefetchTicket> prefetch_columns(const CudaPlanAnalysis&, const plan::LogicalQuery*, const Settings&) {
  return nullptr;
}
void use_upload_streams(int, uint64_t) {}
void release_pooled_memory() {}
uint64_t release_device_state() { return 0; }
uint64_t device_sorted_queries() { return 0; }
uint64_t hash_grouped_queries() { return 0; }
uint64_t device_top_group_picks() { return 0; }
uint64_t packed_fact_launches() { return 0; }
uint64_t few_group_fact_passes() { return 0; }
uint64_t hash_join_builds() { return 0; }
uint64_t kept_join_builds() { return 0; }
uint64_t kept_join_build_hits() { return 0; }
double measure_device_read_gbs() { return 0; }
double measure_host_to_device_gbs() { return 0; }

// [gpuidx] No GPU indexes without CUDA.
bool gpu_index_supported(plan::IndexKind, std::string* why) {
  if (why) *why = no_device_reason();
  return false;
}
std::shared_ptr<const BuiltIndex> gpu_index(const IndexDefinition& def, const TablePtr&) {
  fail(ErrorKind::kNotImplemented, "index {}: {}", def.name, no_device_reason());
}
std::shared_ptr<const BuiltScanIndex> gpu_scan_index(const IndexDefinition& def, const TablePtr&) {
  fail(ErrorKind::kNotImplemented, "index {}: {}", def.name, no_device_reason());
}
void clear_gpu_indexes() {}
void release_gpu_indexes() {}
rt::Tracer& gpu_view_tracer() { fail(ErrorKind::kNotImplemented, "RT views on the GPU: this raydb was built without CUDA"); }
GpuIndexUse gpu_index_use() { return {}; }

std::unique_ptr<DeviceCopies> copy_to_device(const std::vector<HostRange>&) {
  fail(ErrorKind::kInvalidInput, "no CUDA device: {}", no_device_reason());
}

ResultTable CudaExecutor::execute(const plan::PhysicalPlan&, const ExecOptions&) {
  fail(ErrorKind::kNotImplemented, "no CUDA device: {}", no_device_reason());
}

}  // namespace raydb::exec::cuda
