#include "exec/cuda/general/arrow_columns.h"

#include <algorithm>

#include "exec/cuda/general/arrow_kernels.h"
#include "gpu/cuda_check.h"
#include "gpu/device_buffer.h"
#include "gpu/device_memory.h"
#include "gpu/event.h"

namespace raydb::exec::cuda::general {

namespace {

// Outside the query pool: the result (and arrays exported from it) owns this memory
// for as long as the caller keeps it, like exec/cuda/device_copies.
gpu::CudaMallocMemory& result_memory() {
  static gpu::CudaMallocMemory memory(gpu::kBackendErrors);
  return memory;
}

// The Arrow payload of a program's values; false when it has none on the device.
bool value_mode(const CompiledProgram& p, ArrowValueMode& mode) {
  switch (p.type.id) {
    case TypeId::kBoolean: mode = ArrowValueMode::kBits; return p.kind == VectorKind::kInt;
    case TypeId::kInteger:
    case TypeId::kDate: mode = ArrowValueMode::kLow32; return p.kind == VectorKind::kInt;
    case TypeId::kBigint:
    case TypeId::kTimestamp: mode = ArrowValueMode::kLow64; return p.kind == VectorKind::kInt;
    case TypeId::kDouble: mode = ArrowValueMode::kLow64; return p.kind == VectorKind::kDouble;
    case TypeId::kDecimal:
    case TypeId::kHugeint:
      mode = p.kind == VectorKind::kHuge ? ArrowValueMode::kFull128 : ArrowValueMode::kSext64;
      return p.kind == VectorKind::kHuge || p.kind == VectorKind::kInt;
    case TypeId::kVarchar:
    case TypeId::kNull: break;
  }
  return false;
}

uint64_t value_bytes(ArrowValueMode mode, uint64_t n) {
  switch (mode) {
    case ArrowValueMode::kLow32: return n * 4;
    case ArrowValueMode::kLow64: return n * 8;
    case ArrowValueMode::kSext64:
    case ArrowValueMode::kFull128: return n * 16;
    case ArrowValueMode::kBits: break;
  }
  return (n + 7) / 8;
}

// The device memory and event behind the columns; freed with the last reference.
struct OwnedColumns final : DeviceResultColumns {
  std::vector<gpu::DeviceBuffer> buffers;
  gpu::Event event;
  cudaEvent_t handle = nullptr;  // what sync_event points to
};

}  // namespace

bool has_device_arrow_layout(const CompiledProgram& p) {
  ArrowValueMode mode;
  return value_mode(p, mode);
}

std::shared_ptr<const DeviceResultColumns> arrow_columns(const std::vector<const CompiledProgram*>& programs,
                                                         const std::vector<const Column128*>& cols, uint64_t n,
                                                         cudaStream_t s) {
  auto out = std::make_shared<OwnedColumns>();
  out->rows = int64_t(n);
  out->buffers.reserve(cols.size() * 2);  // references below stay valid
  for (size_t c = 0; c < cols.size(); c++) {
    ArrowValueMode mode = ArrowValueMode::kLow64;
    if (!value_mode(*programs[c], mode)) fail(ErrorKind::kInternal, "result column {} has no device Arrow layout", c);
    // At least 64 bytes each: a valid, aligned pointer even for no rows.
    gpu::DeviceBuffer& values =
        out->buffers.emplace_back(std::max<uint64_t>(value_bytes(mode, n), 64), "result on the device", result_memory());
    gpu::DeviceBuffer& validity =
        out->buffers.emplace_back(std::max<uint64_t>((n + 7) / 8, 64), "result on the device", result_memory());
    launch_arrow_values(cols[c]->v(), n, mode, values.get(), s);
    launch_validity_bits(cols[c]->nl(), n, validity.get<uint8_t>(), s);
    out->columns.push_back({values.get(), validity.get()});
  }
  gpu::check_cuda(cudaGetLastError(), "result layout kernels");
  gpu::check_cuda(cudaEventRecord(out->event, s), "cudaEventRecord");
  out->handle = out->event.get();
  out->sync_event = &out->handle;
  return out;
}

}  // namespace raydb::exec::cuda::general
