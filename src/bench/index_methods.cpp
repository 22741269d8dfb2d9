#include "bench/index_methods.h"

#include "access/gpu/gpu_indexes.h"
#include "access/rt_index/baselines.h"
#include "access/rt_index/bucket_rt_index.h"
#include "access/rt_index/rt_index.h"
#include "common/error.h"

namespace raydb::bench {

bool on_gpu(const std::string& method) {
  return method.size() > 4 && method.compare(method.size() - 4, 4, "-gpu") == 0;
}
bool uses_buckets(const std::string& method) { return method == "cgrx" || method == "rt-bucket" || method == "rt-gpu"; }
bool traced(const std::string& method) { return method != "sa" && method != "hash" && !on_gpu(method); }

bool plannable(const std::string& method) {
  return method == "rt" || method == "sa" || method == "hash" || method == "rt-gpu" || method == "sa-gpu" ||
         method == "hash-gpu";
}
int default_bucket(const std::string& method) {
  return method == "cgrx" ? 32 : static_cast<int>(access::GpuIndexOptions{}.bucket_size);
}
const char* probes_name(int sp) { return sp == 0 ? "unsorted" : sp == 1 ? "index-sorts" : "presorted"; }

plan::IndexKind kind_of(const std::string& method) {
  if (method == "sa" || method == "sa-gpu") return plan::IndexKind::kSorted;
  if (method == "hash" || method == "hash-gpu") return plan::IndexKind::kHash;
  return plan::IndexKind::kRt;
}

namespace {

// The host-built RT variants: options of one RtIndex.
std::unique_ptr<access::KeyIndex> make_rt_index(const std::string& method, rt::Tracer& tracer,
                                                std::span<const uint64_t> keys, std::span<const int64_t> values,
                                                bool sorted_probes, int partitions, int bucket) {
  access::RtIndexOptions o;
  o.sorted_probes = sorted_probes;
  o.partitions = static_cast<uint32_t>(partitions);
  if (method == "rx") {
    o.sort_keys = false;
  } else if (method == "cgrx") {
    o.bucket_size = static_cast<uint32_t>(bucket);
  } else if (method == "rt-box") {
    o.primitive = access::RtPrimitive::kBox;
  } else if (method != "rt") {
    fail(ErrorKind::kInvalidInput,
         "bench index: unknown method '{}' (rt, rx, cgrx, rt-box, rt-bucket, rt-gpu, sa, hash, sa-gpu, hash-gpu)", method);
  }
  return std::make_unique<access::RtIndex>(tracer, keys, values, o);
}

}  // namespace

std::unique_ptr<access::KeyIndex> make_index(const std::string& method, rt::Tracer* tracer,
                                             std::span<const uint64_t> keys, std::span<const int64_t> values,
                                             bool sorted_probes, int partitions, int bucket) {
  if (method == "sa") return std::make_unique<access::SortedArrayIndex>(keys, values, access::BaselineOptions{sorted_probes});
  if (method == "hash") return std::make_unique<access::HashIndex>(keys, values, access::BaselineOptions{sorted_probes});
  access::GpuIndexOptions g;
  g.sorted_probes = sorted_probes;
  g.bucket_size = static_cast<uint32_t>(bucket);
  if (method == "sa-gpu") return access::make_gpu_sorted_array(keys, values, g);
  if (method == "hash-gpu") return access::make_gpu_hash(keys, values, g);
  if (tracer == nullptr) fail(ErrorKind::kInternal, "bench index: no tracer for {}", method);
  if (method == "rt-gpu") return access::make_gpu_rt(*tracer, keys, values, g);
  if (method == "rt-bucket")
    return std::make_unique<access::BucketRtIndex>(*tracer, keys, values, static_cast<uint32_t>(bucket), sorted_probes);
  return make_rt_index(method, *tracer, keys, values, sorted_probes, partitions, bucket);
}

}  // namespace raydb::bench
