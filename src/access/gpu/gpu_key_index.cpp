#include "access/gpu/gpu_key_index.h"

#include "access/gpu/gpu_ops.h"
#include "common/timer.h"

namespace raydb::access::gpu {

namespace mp = rt::mapping;

struct GpuKeyIndex::Batch {
  uint32_t n = 0;
  DeviceArray<KeyRange> bounds;        // uploaded by prepare()
  const uint64_t* device = nullptr;    // the lookups on the device (bounds, or the caller's)
  DeviceArray<uint32_t> order;
};

void GpuKeyIndex::order(Batch& b) const {
  if (!sorted_probes_ || b.n <= 1) return;
  // Neighbouring launch items then read neighbouring keys (and walk the same BVH
  // paths); results still land at the caller's positions.
  b.order.use(memory_);
  b.order.allocate(b.n);
  raydb::gpu::check_cuda(cudaDeviceSynchronize(), "upload", kIndexCallErrors);
  Timer t;
  probe_order(b.device, b.n, b.order.data());
  times_.sort_ms = t.elapsed_ms();
}

GpuKeyIndex::Batch GpuKeyIndex::prepare(std::span<const KeyRange> lookups) const {
  static_assert(sizeof(KeyRange) == 16, "bounds are read as lo, hi pairs");
  if (lookups.size() >= (uint64_t{1} << 32))
    fail(ErrorKind::kInvalidInput, "GPU index: at most 2^32 - 1 lookups per batch");
  Batch b;
  b.n = static_cast<uint32_t>(lookups.size());
  b.bounds.use(memory_);
  b.bounds.upload(lookups, kIndexCallErrors);
  b.device = reinterpret_cast<const uint64_t*>(b.bounds.data());
  times_ = LookupTimes{};
  order(b);
  return b;
}

void GpuKeyIndex::find_runs(const uint64_t* bounds, uint32_t n, uint64_t* count, mp::KeyRun* runs,
                            void* stream) const {
  raydb::gpu::check_cuda(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)), "caller's stream", kIndexCallErrors);
  times_ = LookupTimes{};
  if (n == 0) return;
  Batch b;
  b.n = n;
  b.device = bounds;
  order(b);
  mp::BucketLookupParams p{};
  p.mode = mp::LookupMode::kCount;
  p.count = count;
  p.runs = runs;
  times_.launch_ms = run(b, p);
}

double GpuKeyIndex::run(const Batch& b, mp::BucketLookupParams& p) const {
  DeviceArray<uint32_t> error(1, memory_);
  raydb::gpu::check_cuda(cudaMemset(error.data(), 0, 4), "memset", kIndexCallErrors);
  p.t.unit_keys = sk_.unit_keys();
  p.t.units = static_cast<uint32_t>(sk_.units());
  p.unit_starts = sk_.unit_starts();
  p.rows = sk_.rows();
  p.values = sk_.values();
  p.bounds = b.device;
  p.order = b.order.data();
  p.n = b.n;
  p.error = error.data();
  const double ms = pass(p);
  uint32_t e = 0;
  error.copy_out(std::span<uint32_t>(&e, 1), kIndexCallErrors);
  if (e & mp::kErrorMissedBucket)
    fail(ErrorKind::kInternal, "{}: a lookup found no bucket although keys >= it exist", name());
  if (e & mp::kErrorWriteMismatch)
    fail(ErrorKind::kInternal, "{}: write pass found other rows than count pass", name());
  if (e & mp::kErrorBadHit) {
    if (!supports_ranges()) fail(ErrorKind::kNotImplemented, "{}: range lookups are not supported", name());
    fail(ErrorKind::kInternal, "{}: a hit outside the lookup's bucket", name());
  }
  return ms;
}

void GpuKeyIndex::aggregate(std::span<const KeyRange> lookups, AggregateResult& out) const {
  out.count.assign(lookups.size(), 0);
  out.sum.assign(lookups.size(), 0);
  times_ = LookupTimes{};
  if (lookups.empty()) return;
  const Batch b = prepare(lookups);
  DeviceArray<uint64_t> count(b.n, memory_);
  DeviceArray<int64_t> sum(b.n, memory_);
  mp::BucketLookupParams p{};
  p.mode = mp::LookupMode::kAggregate;
  p.count = count.data();
  p.sum = sum.data();
  times_.launch_ms = run(b, p);
  count.copy_out(out.count, kIndexCallErrors);
  sum.copy_out(out.sum, kIndexCallErrors);
}

void GpuKeyIndex::materialize(std::span<const KeyRange> lookups, RowIdLists& out) const {
  // Count pass (keeping each run), exclusive prefix sum on the device, write pass.
  out.rows.clear();
  out.offsets.assign(lookups.size() + 1, 0);
  times_ = LookupTimes{};
  if (lookups.empty()) return;
  const Batch b = prepare(lookups);
  DeviceArray<uint64_t> count(b.n, memory_), offsets(b.n + 1, memory_);
  DeviceArray<mp::KeyRun> runs(b.n, memory_);
  mp::BucketLookupParams p{};
  p.mode = mp::LookupMode::kCount;
  p.count = count.data();
  p.runs = runs.data();
  double ms = run(b, p);
  const uint64_t total = exclusive_sum(count.data(), b.n, offsets.data());
  count.reset();
  offsets.copy_out(out.offsets, kIndexCallErrors);
  out.rows.resize(total);
  if (total > 0) {
    DeviceArray<uint32_t> rows(total, memory_);
    p.mode = mp::LookupMode::kWrite;
    p.count = nullptr;
    p.offsets = offsets.data();
    p.rows_out = rows.data();
    ms += run(b, p);
    rows.copy_out(out.rows, kIndexCallErrors);
  }
  times_.launch_ms = ms;
}

}  // namespace raydb::access::gpu
