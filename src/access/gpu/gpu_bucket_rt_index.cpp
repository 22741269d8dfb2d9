#include "access/gpu/gpu_bucket_rt_index.h"

#include "access/gpu/gpu_ops.h"
#include "common/timer.h"

namespace raydb::access::gpu {

GpuBucketRtIndex::GpuBucketRtIndex(rt::Tracer& tracer, std::span<const uint64_t> keys, std::span<const int64_t> values,
                                   uint32_t bucket_size, bool sorted_probes, DeviceMemory* memory)
    : GpuKeyIndex(sorted_probes, memory), tracer_(tracer), bucket_size_(bucket_size) {
  if (!tracer.on_gpu()) fail(ErrorKind::kInvalidInput, "rt-gpu: needs a GPU tracer (got {})", tracer.name());
  if (bucket_size == 0) fail(ErrorKind::kInvalidInput, "rt-gpu: bucket size must be >= 1");
  const size_t tracer_before = tracer.memory().current_bytes;
  tracer.reset_peak_memory();
  sk_.build(keys, values, stats_);
  Timer t;
  const uint32_t units = static_cast<uint32_t>(sk_.units());
  const uint32_t buckets = static_cast<uint32_t>((static_cast<uint64_t>(units) + bucket_size - 1) / bucket_size);
  DeviceArray<uint32_t> offsets(buckets, memory_);
  const uint32_t prims = bucket_box_offsets(sk_.unit_keys(), units, bucket_size, offsets.data());
  DeviceArray<rt::Aabb> boxes(prims, memory_);
  prim_bucket_.use(memory_);
  prim_bucket_.allocate(prims);
  write_bucket_boxes(sk_.unit_keys(), units, bucket_size, offsets.data(), boxes.data(), prim_bucket_.data());
  offsets.reset();
  bucket_last_.use(memory_);
  bucket_last_.allocate(buckets);
  bucket_lasts(sk_.unit_keys(), units, bucket_size, bucket_last_.data());
  table_ = std::make_unique<rt::mapping::BucketTable>(rt::mapping::BucketTable{
      sk_.unit_keys(), prim_bucket_.data(), units, bucket_size, buckets, prims, bucket_last_.data()});
  rt::BuildOptions bo;
  bo.compact = true;
  accel_ = tracer.build(
      rt::GeometryInput::of_buckets(std::span<const rt::Aabb>(boxes.data(), prims), table_.get(), true), bo);
  const size_t box_bytes = boxes.bytes();
  boxes.reset();
  stats_.build_ms += t.elapsed_ms();
  const rt::TracerMemory mem = tracer.memory();
  const size_t side = prim_bucket_.bytes() + bucket_last_.bytes();
  stats_.memory_bytes = sk_.memory_bytes() + side + (mem.current_bytes - tracer_before);
  stats_.peak_build_bytes = sk_.memory_bytes() + side + box_bytes + (mem.peak_bytes - tracer_before);
}

GpuBucketRtIndex::~GpuBucketRtIndex() = default;

double GpuBucketRtIndex::pass(rt::mapping::BucketLookupParams& p) const {
  p.t = *table_;
  const rt::Accel* slots[1] = {accel_.get()};
  tracer_.launch(rt::mapping::Program::kBucketLookup, slots, &p, sizeof(p), p.n);
  return tracer_.last_launch_ms();
}

}  // namespace raydb::access::gpu
