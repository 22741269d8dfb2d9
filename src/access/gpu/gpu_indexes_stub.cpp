// Without the CUDA backend: the GPU-resident indexes do not exist; say so.
#include "access/gpu/gpu_indexes.h"
#include "common/error.h"

namespace raydb::access {

namespace {
[[noreturn]] void missing() { fail(ErrorKind::kNotImplemented, "GPU indexes: raydb was built without CUDA"); }
}  // namespace

bool gpu_indexes_available(std::string* why) {
  if (why) *why = "raydb was built without CUDA";
  return false;
}
std::unique_ptr<KeyIndex> make_gpu_sorted_array(std::span<const uint64_t>, std::span<const int64_t>,
                                                const GpuIndexOptions&) {
  missing();
}
std::unique_ptr<KeyIndex> make_gpu_hash(std::span<const uint64_t>, std::span<const int64_t>, const GpuIndexOptions&) {
  missing();
}
std::unique_ptr<KeyIndex> make_gpu_rt(rt::Tracer&, std::span<const uint64_t>, std::span<const int64_t>,
                                      const GpuIndexOptions&) {
  missing();
}

}  // namespace raydb::access
