// Device discovery, memory statistics and calibration for the CUDA backend.
#include <algorithm>
#include <chrono>
#include <thread>
#include <cstring>

#include "common/error.h"
#include "common/machine_info.h"
#include "common/settings.h"
#include "common/stage_times.h"
#include "exec/cuda/column_cache.h"
#include "exec/cuda/dimension_cache.h"
#include "exec/cuda/general/join_build_cache.h"
#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/cuda_plan_analysis.h"
#include "exec/cuda/general/bound_program.h"
#include "exec/cuda/gpu_index_catalog.h"
#include "exec/cuda/host_column_cache.h"
#include "exec/cuda/prefetch_registry.h"
#include "exec/cuda/staging_ring.h"
#include "exec/cuda/star_run.h"
#include "gpu/device_buffer.h"
#include "gpu/event.h"
#include "gpu/pinned_buffer.h"
#include "gpu/staged_copy.h"
#include "exec/cuda/kernels.h"
#include "exec/cuda/star_plan.h"
#include "exec/cuda/general/general_plan.h"

namespace raydb::exec::cuda {

namespace {

struct Probe {
  int count = 0;
  std::string reason;
};

const Probe& probe() {
  // Counted once per process: no driver or no device gives 0 and a reason, never
  // an error; the setting cuda_disable (RAYDB_CUDA_DISABLE=1) hides devices (tests
  // of the CPU fallback). Process-wide, so the process default.
  static Probe p = [] {
    Probe r;
    if (Settings().cuda_disabled()) {
      r.reason = "disabled by RAYDB_CUDA_DISABLE";
      return r;
    }
    StageScope stage(Stage::kDeviceInit);
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
      cudaGetLastError();
      r.reason = cudaGetErrorString(e);
      return r;
    }
    if (n == 0) r.reason = "no CUDA device";
    r.count = n;
    return r;
  }();
  return p;
}

}  // namespace

bool built() { return true; }
int device_count() { return probe().count; }
std::string no_device_reason() { return probe().reason; }

std::vector<DeviceInfo> devices() {
  std::vector<DeviceInfo> out;
  for (int i = 0; i < device_count(); i++) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    DeviceInfo d;
    d.index = i;
    d.name = p.name;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.total_bytes = p.totalGlobalMem;
    d.multiprocessors = p.multiProcessorCount;
    d.l2_bytes = p.l2CacheSize;
    size_t f = 0, t = 0;
    if (i == 0 && cudaMemGetInfo(&f, &t) == cudaSuccess) d.free_bytes = f;
    out.push_back(d);
  }
  cudaGetLastError();
  return out;
}

namespace {

// Calls `f` for each column the analysed plan reads on the device, in the order the
// star executor uploads them (fact columns, then per dimension its key, filters and,
// given the query, its group-by columns); a column may come more than once.
template <typename F>
void for_each_plan_column(const CudaPlanAnalysis& a, const plan::LogicalQuery* q, F&& f) {
  if (const StarPlan* sp = a.star ? &*a.star : nullptr) {
    for (auto& c : sp->fact_columns) f(c);
    for (auto& d : sp->dims) {
      f(d.key);
      for (auto& fl : d.filters) f(fl.column);
      if (!q) continue;
      for (int k : d.group_keys) {
        const plan::Expr& g = *q->group_keys[size_t(k)];
        f(q->tables[size_t(g.table_index)].table->column_ptr(size_t(g.column_index)));
      }
    }
  } else if (a.general) {
    for (auto& c : a.general->columns) f(c);
  }
}

// Sums over the plan's columns not resident yet: their device bytes, or their stored ones.
uint64_t upload_bytes(const CudaPlanAnalysis& a, bool stored) {
  uint64_t b = 0;
  ColumnCache& cache = ColumnCache::instance();
  HostColumnCache& host = HostColumnCache::instance();
  for_each_plan_column(a, nullptr, [&](const ColumnPtr& c) {
    if (cache.resident(c.get())) return;
    // Host bytes: what the load reads (a narrowed file, else the column file it narrows);
    // none for a streamed column already in pinned host memory.
    if (stored && host.holds(c.get())) return;
    b += stored ? (c->narrowed() ? c->narrowed()->bytes() : c->size() * uint64_t(c->type().physical_width()))
                : ColumnCache::estimate_bytes(*c);
  });
  return b;
}

}  // namespace

uint64_t bytes_to_upload(const CudaPlanAnalysis& a) { return upload_bytes(a, false); }
uint64_t host_bytes_to_upload(const CudaPlanAnalysis& a) { return upload_bytes(a, true); }
bool device_in_use() { return !ColumnCache::instance().empty(); }

std::shared_ptr<PrefetchTicket> prefetch_columns(const CudaPlanAnalysis& a, const plan::LogicalQuery* q,
                                                 const Settings& settings) {
  if (!settings.fast_load() || may_stream(a, settings)) return nullptr;
  // Read-ahead keeps a host copy of each file until it is uploaded: at most half of
  // the memory available now, in upload order.
  uint64_t room = available_memory_bytes() / 2, bytes = 0;
  std::vector<ColumnPtr> columns;
  ColumnCache& cache = ColumnCache::instance();
  for_each_plan_column(a, q, [&](const ColumnPtr& c) {
    const NarrowedFile* f = c->narrowed().get();
    if (!f || f->rows != c->size() || cache.resident(c.get())) return;
    if (bytes + f->bytes() > room) return;
    bytes += f->bytes();
    columns.push_back(c);
  });
  if (columns.empty()) return nullptr;
  // Page-cache copies and hashing scale with cores; the warm-up thread needs one.
  const int threads = std::clamp(int(std::thread::hardware_concurrency()) - 1, 1, 16);
  constexpr uint64_t kPrefetchChunk = uint64_t(4) << 20;  // four checksum blocks per job
  std::shared_ptr<PrefetchTicket> ticket;
  try {
    ticket = PrefetchRegistry::instance().offer(columns, threads, kPrefetchChunk);
  } catch (const Error&) {
    return nullptr;  // no memory to read ahead into: the upload reads the files itself
  }
  const int streams = settings.upload_streams();
  if (ticket) StagingRing::instance().want(streams, StagingRing::buffer_bytes(streams, settings.upload_staging()));
  return ticket;
}

MemoryStats memory_stats() {
  if (device_count() == 0) return {};
  const gpu::PoolStats s = gpu::MemoryPool::instance().stats();
  return MemoryStats{s.budget, s.in_use, s.pooled, s.peak};
}
void set_memory_budget(uint64_t bytes) { gpu::MemoryPool::instance().set_budget(bytes); }
void clear_column_cache() {
  if (device_count() == 0) return;
  general::clear_double_columns();
  general::JoinBuildCache::instance().clear();
  DimensionCache::instance().clear();
  ColumnCache::instance().clear();
  HostColumnCache::instance().clear();
}

void release_pooled_memory() {
  if (device_count() > 0) gpu::MemoryPool::instance().trim();
}

uint64_t release_device_state() {
  if (device_count() == 0) return 0;
  release_gpu_indexes();
  general::clear_double_columns();
  general::JoinBuildCache::instance().clear();
  DimensionCache::instance().clear();
  HostColumnCache::instance().clear();
  ColumnCache::instance().clear();  // trims the pool too
  ColumnCache::instance().release_staging();
  StarContext::release();
  gpu::release_staging_buffers();
  gpu::MemoryPool::instance().trim();
  return gpu::MemoryPool::instance().stats().in_use;
}

double measure_device_read_gbs() {
  if (device_count() == 0) return 0;
  const uint64_t bytes = uint64_t(2) << 30;
  gpu::DeviceBuffer buf(bytes, "bandwidth calibration");
  gpu::DeviceBuffer sink(8, "bandwidth calibration");
  gpu::check_cuda(cudaMemset(buf.get(), 1, bytes), "cudaMemset");
  gpu::Event a, b;
  launch_read_bandwidth(buf.get(), bytes, sink.get<unsigned long long>(), 0);  // warm-up
  float best = 1e30f;
  for (int i = 0; i < 10; i++) {
    cudaEventRecord(a);
    launch_read_bandwidth(buf.get(), bytes, sink.get<unsigned long long>(), 0);
    cudaEventRecord(b);
    gpu::check_cuda(cudaEventSynchronize(b), "bandwidth kernel");
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    best = std::min(best, ms);
  }
  return double(bytes) / (double(best) * 1e-3) / 1e9;
}

double measure_host_to_device_gbs() {
  if (device_count() == 0) return 0;
  const uint64_t bytes = uint64_t(256) << 20;
  gpu::PinnedBuffer host(bytes);
  std::memset(host.get(), 1, bytes);
  gpu::DeviceBuffer dev(bytes, "bandwidth calibration");
  gpu::Event a, b;
  gpu::check_cuda(cudaMemcpy(dev.get(), host.get(), bytes, cudaMemcpyHostToDevice), "copy");
  float best = 1e30f;
  for (int i = 0; i < 5; i++) {
    cudaEventRecord(a);
    cudaMemcpyAsync(dev.get(), host.get(), bytes, cudaMemcpyHostToDevice, 0);
    cudaEventRecord(b);
    gpu::check_cuda(cudaEventSynchronize(b), "copy");
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    best = std::min(best, ms);
  }
  return double(bytes) / (double(best) * 1e-3) / 1e9;
}

}  // namespace raydb::exec::cuda
