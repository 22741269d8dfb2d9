// exec/cuda/ops without CUDA: the GPU order statistics report themselves unavailable.
#include "common/error.h"
#include "exec/cuda/ops/order_statistics_gpu.h"

namespace raydb::exec::cuda::ops {

using namespace orderstat;

bool order_statistics_gpu_available(std::string* why) {
  if (why) *why = "raydb was built without CUDA";
  return false;
}

namespace {
[[noreturn]] void unavailable() { fail(ErrorKind::kNotImplemented, "GPU order statistics: raydb was built without CUDA"); }
}  // namespace

struct DeviceColumnCopy::Buffers {};
DeviceColumnCopy::DeviceColumnCopy(const ColumnInput&, double*) { unavailable(); }
DeviceColumnCopy::~DeviceColumnCopy() = default;

std::vector<uint64_t> gpu_count_per_group(const ColumnInput&) { unavailable(); }
std::vector<uint64_t> gpu_select_keys(const ColumnInput&, const std::vector<uint64_t>&, uint32_t, const SelectOptions&,
                                      GpuTimes*) {
  unavailable();
}
OrderStats gpu_order_statistics(const ColumnInput&, const std::vector<RankSpec>&, const SelectOptions&, GpuTimes*) {
  unavailable();
}
OrderStats gpu_order_statistics_from_host(const ColumnInput&, const std::vector<RankSpec>&, const SelectOptions&,
                                          GpuTimes*) {
  unavailable();
}

}  // namespace raydb::exec::cuda::ops
