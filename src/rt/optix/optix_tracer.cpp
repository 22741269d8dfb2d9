// The OptiX tracer: a small OptiX 7-9 wrapper (OWL-sized) behind the Tracer API.
//   context   from the CUDA primary context of device 0 (cudaFree(0), then
//             optixDeviceContextCreate on the current context); OptiX itself comes
//             from the driver (optixInit loads libnvoptix.so.1), so a binary with this
//             backend runs anywhere and only creating a tracer needs a GPU
//   module    the device programs (device_programs.cu) embedded at build time as
//             OptiX-IR, with PTX as the fallback the driver may need
//   pipeline  raygen, miss, and four hit groups: triangles (closest-hit + any-hit),
//             key boxes, interval buckets and RT scan cubes (+ intersection); max trace
//             depth 1
//   device geometry  GeometryInput::device_resident builds from device buffers in place
//   SBT       one raygen and one miss record; hit record 0 is shared by every
//             triangle structure; each key-box (bucket) structure gets a record
//             holding its keys (bucket table) (optixTrace's SBT offset for a GAS, the instance's for an IAS)
//   accels    triangle and custom-primitive GASes (compaction optional), an IAS over
//             several for partitions; inputs freed after the build
//   launches  Tracer::launch: one optixLaunch of the raygen over the batch
#include <cuda_runtime.h>
#include <optix.h>
#include <optix_function_table_definition.h>
#include <optix_stack_size.h>
#include <optix_stubs.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>
#include <vector>

#include "common/error.h"
#include "gpu/cuda_check.h"
#include "gpu/device_buffer.h"
#include "gpu/event.h"
#include "gpu/stream.h"
#include "rt/optix/launch_params.h"
#include "rt/tracer.h"

extern const unsigned char raydb_optix_ir[];
extern const std::size_t raydb_optix_ir_size;
extern const unsigned char raydb_optix_ptx[];
extern const std::size_t raydb_optix_ptx_size;

namespace raydb::rt {
namespace {

using optix::HitRecordData;
using optix::LaunchParams;

// The tracer's wording of CUDA failures (gpu/cuda_check.h).
const gpu::CudaErrorStyle kCudaErrors{ErrorKind::kInternal, "optix tracer: {what} failed: {error}",
                                      "optix tracer: out of GPU memory ({what})"};
const gpu::CudaErrorStyle kAllocErrors{ErrorKind::kInternal, "optix tracer: {what} failed: {error}",
                                       "optix tracer: cannot allocate {mib:.1f} MiB of GPU memory"};
#define RAYDB_CUDA(call) gpu::check_cuda((call), #call, kCudaErrors)

void optix_check(OptixResult r, const char* what, const char* log = nullptr) {
  if (r == OPTIX_SUCCESS) return;
  if (r == OPTIX_ERROR_HOST_OUT_OF_MEMORY || r == OPTIX_ERROR_DEVICE_OUT_OF_MEMORY)
    fail(ErrorKind::kOutOfMemory, "optix tracer: out of memory in {}", what);
  fail(ErrorKind::kInternal, "optix tracer: {} failed: {}{}{}", what, optixGetErrorName(r), log && *log ? ": " : "",
       log ? log : "");
}
#define RAYDB_OPTIX(call) optix_check((call), #call)

// optixInit's failures, named without the function table (it is not loaded then).
const char* init_error(OptixResult r) {
  switch (r) {
    case OPTIX_ERROR_LIBRARY_NOT_FOUND: return "libnvoptix.so.1 not found (no NVIDIA driver)";
    case OPTIX_ERROR_ENTRY_SYMBOL_NOT_FOUND: return "the driver's OptiX lacks an entry symbol";
    case OPTIX_ERROR_UNSUPPORTED_ABI_VERSION: return "the driver is too old for OptiX 9.0 (needs R570 or later)";
    case OPTIX_ERROR_FUNCTION_TABLE_SIZE_MISMATCH: return "OptiX function table size mismatch";
    default: return "optixInit failed";
  }
}

struct alignas(OPTIX_SBT_RECORD_ALIGNMENT) SbtRecord {
  char header[OPTIX_SBT_RECORD_HEADER_SIZE];
  HitRecordData data;
};

class OptixTracer;

// Device memory from the tracer's DeviceMemory, accounted in its memory counters.
class DeviceBuffer final : public Buffer {
 public:
  DeviceBuffer(OptixTracer& tracer, size_t bytes, void* host = nullptr);
  ~DeviceBuffer() override;
  void* address() const override { return mem_.get(); }
  size_t bytes() const override { return bytes_; }
  CUdeviceptr ptr() const { return reinterpret_cast<CUdeviceptr>(mem_.get()); }
  void* host() const { return host_; }

 private:
  OptixTracer& tracer_;
  gpu::DeviceBuffer mem_;  // none for 0 bytes
  size_t bytes_;
  void* host_;
};

class OptixAccel final : public Accel {
 public:
  explicit OptixAccel(OptixTracer& t) : tracer(t) {}
  ~OptixAccel() override;
  size_t primitive_count() const override { return count; }
  size_t memory_bytes() const override {
    return (storage ? storage->bytes() : 0) + (keys ? keys->bytes() : 0) + (instances ? instances->bytes() : 0);
  }

  OptixTracer& tracer;
  size_t count = 0;
  OptixTraversableHandle handle = 0;  // 0: empty, rays miss
  uint32_t sbt_offset = 0;            // hit record (GAS); 0 for an IAS
  bool instanced = false;
  int record = -1;  // own hit record (key boxes), released on destruction
  std::unique_ptr<DeviceBuffer> storage, keys, instances;
};

class OptixTracer final : public Tracer {
 public:
  // memory: where device buffers come from (null: plain cudaMalloc).
  explicit OptixTracer(gpu::DeviceMemory* memory);
  ~OptixTracer() override;
  std::string name() const override { return "optix"; }

  std::unique_ptr<Accel> build(const GeometryInput& input, const BuildOptions& options) override;
  std::unique_ptr<Accel> build_instances(std::span<const Accel* const> children) override;
  Hit closest(const Accel& accel, const Ray& ray) const override;
  void all_hits(const Accel& accel, const Ray& ray, HitSink& sink) const override;

  std::unique_ptr<Buffer> buffer(void* host, size_t bytes, Transfer transfer) override {
    auto b = std::make_unique<DeviceBuffer>(*this, bytes, host);
    if (host != nullptr && bytes > 0 && transfer != Transfer::kOut)
      RAYDB_CUDA(cudaMemcpy(b->address(), host, bytes, cudaMemcpyHostToDevice));
    return b;
  }
  void fetch(const Buffer& buffer) override {
    const auto& b = static_cast<const DeviceBuffer&>(buffer);
    if (b.bytes() == 0) return;  // nothing to copy (an empty result has no host storage)
    if (b.host() == nullptr) fail(ErrorKind::kInternal, "optix tracer: fetch of a scratch buffer");
    if (b.bytes() > 0) RAYDB_CUDA(cudaMemcpy(b.host(), b.address(), b.bytes(), cudaMemcpyDeviceToHost));
  }
  void launch(mapping::Program program, std::span<const Accel* const> slots, const void* params,
              size_t params_bytes, uint32_t n) override;
  double last_launch_ms() const override { return last_launch_ms_; }
  bool on_gpu() const override { return true; }

  TracerMemory memory() const override {
    return TracerMemory{static_cast<size_t>(current_.load()), static_cast<size_t>(peak_.load())};
  }
  void reset_peak_memory() override { peak_.store(current_.load()); }

  void account(int64_t bytes) {
    const int64_t now = current_.fetch_add(bytes) + bytes;
    int64_t p = peak_.load();
    while (now > p && !peak_.compare_exchange_weak(p, now)) {
    }
  }
  gpu::DeviceMemory& device_memory() const { return memory_; }
  void release_record(int r) {
    hit_records_[r] = hit_records_[0];
    free_records_.push_back(r);
    records_dirty_ = true;
  }

 private:
  void create_pipeline();
  void build_accel(const OptixBuildInput& input, bool compact, bool fast_trace, OptixAccel& acc);
  int acquire_record(int group, const HitRecordData& data);
  void sync() const { RAYDB_CUDA(cudaStreamSynchronize(*stream_)); }
  // Buffers reach the device by cudaMemcpy on the legacy stream, and a pageable
  // host-to-device cudaMemcpy may return before its DMA lands; builds and launches run
  // on this tracer's non-blocking stream, which does not wait for the legacy one by
  // itself. Without this a launch could read half-uploaded lookups (seen as "a lookup
  // found no bucket" under compute-sanitizer, which changes the timing).
  void wait_for_uploads() const {
    RAYDB_CUDA(cudaEventRecord(*uploads_, cudaStreamLegacy));
    RAYDB_CUDA(cudaStreamWaitEvent(*stream_, *uploads_, 0));
  }

  gpu::DeviceMemory& memory_;
  OptixDeviceContext context_ = nullptr;
  OptixModule module_ = nullptr;
  OptixProgramGroup groups_[6] = {};  // raygen, miss, triangles, key boxes, buckets, scan cubes
  OptixPipeline pipeline_ = nullptr;
  // Created once the device is known to work (the constructor's first check).
  std::optional<gpu::Stream> stream_;
  std::optional<gpu::Event> start_, stop_, uploads_;
  unsigned max_prims_per_gas_ = 0;
  std::atomic<int64_t> current_{0}, peak_{0};
  std::unique_ptr<DeviceBuffer> raygen_record_, miss_record_, hit_record_buffer_, params_;
  std::vector<SbtRecord> hit_records_;  // [0]: triangles; others: key boxes
  std::vector<int> free_records_;
  bool records_dirty_ = true;
  OptixShaderBindingTable sbt_ = {};
  double last_launch_ms_ = 0;
};

DeviceBuffer::DeviceBuffer(OptixTracer& tracer, size_t bytes, void* host) : tracer_(tracer), bytes_(bytes), host_(host) {
  if (bytes == 0) return;
  mem_ = gpu::DeviceBuffer(bytes, "the OptiX tracer", tracer.device_memory());
  tracer_.account(static_cast<int64_t>(bytes));
}

DeviceBuffer::~DeviceBuffer() {
  if (mem_.get() == nullptr) return;
  mem_.reset();
  tracer_.account(-static_cast<int64_t>(bytes_));
}

OptixAccel::~OptixAccel() {
  if (record >= 0) tracer.release_record(record);
}

gpu::DeviceMemory& plain_cuda_malloc() {
  static gpu::CudaMallocMemory plain(kAllocErrors);
  return plain;
}

OptixTracer::OptixTracer(gpu::DeviceMemory* memory) : memory_(memory != nullptr ? *memory : plain_cuda_malloc()) {
  const OptixDeviceInfo& info = optix_device_info();
  if (!info.available) fail(ErrorKind::kExecution, "optix tracer: {}", info.reason);
  RAYDB_CUDA(cudaSetDevice(0));
  RAYDB_CUDA(cudaFree(nullptr));  // makes device 0's primary context current
  OptixDeviceContextOptions options = {};
  RAYDB_OPTIX(optixDeviceContextCreate(nullptr, &options, &context_));  // 0: the current CUDA context
  RAYDB_OPTIX(optixDeviceContextGetProperty(context_, OPTIX_DEVICE_PROPERTY_LIMIT_MAX_PRIMITIVES_PER_GAS,
                                            &max_prims_per_gas_, sizeof(max_prims_per_gas_)));
  stream_.emplace(kCudaErrors);
  start_.emplace(kCudaErrors);
  stop_.emplace(kCudaErrors);
  uploads_.emplace(kCudaErrors);
  create_pipeline();
  params_ = std::make_unique<DeviceBuffer>(*this, sizeof(LaunchParams));
}

OptixTracer::~OptixTracer() {
  // Accels and buffers the caller still holds must not outlive the tracer (tracer.h).
  hit_record_buffer_.reset();
  raygen_record_.reset();
  miss_record_.reset();
  params_.reset();
  if (pipeline_) optixPipelineDestroy(pipeline_);
  for (OptixProgramGroup g : groups_)
    if (g) optixProgramGroupDestroy(g);
  if (module_) optixModuleDestroy(module_);
  if (context_) optixDeviceContextDestroy(context_);
  // stream_, start_ and stop_ go last, as members.
}

void OptixTracer::create_pipeline() {
  OptixModuleCompileOptions mco = {};
  mco.maxRegisterCount = OPTIX_COMPILE_DEFAULT_MAX_REGISTER_COUNT;
  mco.optLevel = OPTIX_COMPILE_OPTIMIZATION_DEFAULT;
  mco.debugLevel = OPTIX_COMPILE_DEBUG_LEVEL_MINIMAL;
  OptixPipelineCompileOptions pco = {};
  pco.usesMotionBlur = 0;
  pco.traversableGraphFlags = OPTIX_TRAVERSABLE_GRAPH_FLAG_ALLOW_ANY;  // one GAS, or an IAS over GASes
  pco.numPayloadValues = 3;
  pco.numAttributeValues = 2;
  pco.exceptionFlags = OPTIX_EXCEPTION_FLAG_NONE;
  pco.pipelineLaunchParamsVariableName = "params";
  pco.usesPrimitiveTypeFlags = OPTIX_PRIMITIVE_TYPE_FLAGS_TRIANGLE | OPTIX_PRIMITIVE_TYPE_FLAGS_CUSTOM;

  char log[4096];
  std::string failures;
  const struct {
    const unsigned char* data;
    size_t size;
    const char* what;
  } inputs[2] = {{raydb_optix_ir, raydb_optix_ir_size, "OptiX-IR"}, {raydb_optix_ptx, raydb_optix_ptx_size, "PTX"}};
  for (const auto& in : inputs) {
    if (in.size == 0) continue;
    size_t log_size = sizeof(log);
    log[0] = 0;
    const OptixResult r = optixModuleCreate(context_, &mco, &pco, reinterpret_cast<const char*>(in.data), in.size, log,
                                            &log_size, &module_);
    if (r == OPTIX_SUCCESS) break;
    module_ = nullptr;
    failures += fmt::format("{}{}: {} {}", failures.empty() ? "" : "; ", in.what, optixGetErrorName(r), log);
  }
  if (module_ == nullptr) fail(ErrorKind::kInternal, "optix tracer: cannot load the device programs ({})", failures);

  OptixProgramGroupDesc d[6] = {};
  d[0].kind = OPTIX_PROGRAM_GROUP_KIND_RAYGEN;
  d[0].raygen.module = module_;
  d[0].raygen.entryFunctionName = "__raygen__main";
  d[1].kind = OPTIX_PROGRAM_GROUP_KIND_MISS;
  d[1].miss.module = module_;
  d[1].miss.entryFunctionName = "__miss__main";
  d[2].kind = OPTIX_PROGRAM_GROUP_KIND_HITGROUP;
  d[2].hitgroup.moduleCH = module_;
  d[2].hitgroup.entryFunctionNameCH = "__closesthit__main";
  d[2].hitgroup.moduleAH = module_;
  d[2].hitgroup.entryFunctionNameAH = "__anyhit__main";
  d[3] = d[2];
  d[3].hitgroup.moduleIS = module_;
  d[3].hitgroup.entryFunctionNameIS = "__intersection__key_box";
  d[4] = d[2];
  d[4].hitgroup.moduleIS = module_;
  d[4].hitgroup.entryFunctionNameIS = "__intersection__bucket_box";
  d[5] = d[2];
  d[5].hitgroup.moduleIS = module_;
  d[5].hitgroup.entryFunctionNameIS = "__intersection__scan_cube";
  OptixProgramGroupOptions pgo = {};
  size_t log_size = sizeof(log);
  log[0] = 0;
  optix_check(optixProgramGroupCreate(context_, d, 6, &pgo, log, &log_size, groups_), "optixProgramGroupCreate", log);

  OptixPipelineLinkOptions plo = {};
  plo.maxTraceDepth = 1;
  log_size = sizeof(log);
  log[0] = 0;
  optix_check(optixPipelineCreate(context_, &pco, &plo, groups_, 6, log, &log_size, &pipeline_), "optixPipelineCreate",
              log);
  OptixStackSizes ss = {};
  for (OptixProgramGroup g : groups_) RAYDB_OPTIX(optixUtilAccumulateStackSizes(g, &ss, pipeline_));
  unsigned dc_traversal = 0, dc_state = 0, continuation = 0;
  RAYDB_OPTIX(optixUtilComputeStackSizes(&ss, 1, 0, 0, &dc_traversal, &dc_state, &continuation));
  RAYDB_OPTIX(optixPipelineSetStackSize(pipeline_, dc_traversal, dc_state, continuation, 2));  // IAS -> GAS

  SbtRecord rec = {};
  RAYDB_OPTIX(optixSbtRecordPackHeader(groups_[0], &rec));
  raygen_record_ = std::make_unique<DeviceBuffer>(*this, sizeof(rec));
  RAYDB_CUDA(cudaMemcpy(raygen_record_->address(), &rec, sizeof(rec), cudaMemcpyHostToDevice));
  RAYDB_OPTIX(optixSbtRecordPackHeader(groups_[1], &rec));
  miss_record_ = std::make_unique<DeviceBuffer>(*this, sizeof(rec));
  RAYDB_CUDA(cudaMemcpy(miss_record_->address(), &rec, sizeof(rec), cudaMemcpyHostToDevice));
  SbtRecord tri = {};
  RAYDB_OPTIX(optixSbtRecordPackHeader(groups_[2], &tri));
  tri.data = HitRecordData{};
  hit_records_.push_back(tri);
  sbt_.raygenRecord = raygen_record_->ptr();
  sbt_.missRecordBase = miss_record_->ptr();
  sbt_.missRecordStrideInBytes = sizeof(SbtRecord);
  sbt_.missRecordCount = 1;
}

int OptixTracer::acquire_record(int group, const HitRecordData& data) {
  SbtRecord r = {};
  RAYDB_OPTIX(optixSbtRecordPackHeader(groups_[group], &r));
  r.data = data;
  int at;
  if (!free_records_.empty()) {
    at = free_records_.back();
    free_records_.pop_back();
    hit_records_[at] = r;
  } else {
    at = static_cast<int>(hit_records_.size());
    hit_records_.push_back(r);
  }
  records_dirty_ = true;
  return at;
}

void OptixTracer::build_accel(const OptixBuildInput& input, bool compact, bool fast_trace, OptixAccel& acc) {
  OptixAccelBuildOptions ao = {};
  ao.buildFlags = (fast_trace ? OPTIX_BUILD_FLAG_PREFER_FAST_TRACE : OPTIX_BUILD_FLAG_PREFER_FAST_BUILD) |
                  (compact ? OPTIX_BUILD_FLAG_ALLOW_COMPACTION : 0);
  ao.operation = OPTIX_BUILD_OPERATION_BUILD;
  OptixAccelBufferSizes sizes = {};
  RAYDB_OPTIX(optixAccelComputeMemoryUsage(context_, &ao, &input, 1, &sizes));
  auto temp = std::make_unique<DeviceBuffer>(*this, std::max<size_t>(sizes.tempSizeInBytes, 8));
  auto out = std::make_unique<DeviceBuffer>(*this, sizes.outputSizeInBytes);
  auto compacted_size = std::make_unique<DeviceBuffer>(*this, 8);
  OptixAccelEmitDesc emit = {compacted_size->ptr(), OPTIX_PROPERTY_TYPE_COMPACTED_SIZE};
  wait_for_uploads();
  RAYDB_OPTIX(optixAccelBuild(context_, *stream_, &ao, &input, 1, temp->ptr(), sizes.tempSizeInBytes, out->ptr(),
                              sizes.outputSizeInBytes, &acc.handle, compact ? &emit : nullptr, compact ? 1 : 0));
  sync();
  temp.reset();
  if (compact) {
    uint64_t size = 0;
    RAYDB_CUDA(cudaMemcpy(&size, compacted_size->address(), 8, cudaMemcpyDeviceToHost));
    if (size > 0 && size < out->bytes()) {
      auto small = std::make_unique<DeviceBuffer>(*this, size);
      RAYDB_OPTIX(optixAccelCompact(context_, *stream_, acc.handle, small->ptr(), size, &acc.handle));
      sync();
      out = std::move(small);
    }
  }
  acc.storage = std::move(out);
}

std::unique_ptr<Accel> OptixTracer::build(const GeometryInput& in, const BuildOptions& options) {
  auto acc = std::make_unique<OptixAccel>(*this);
  const size_t n = in.size();
  acc->count = n;
  const bool custom = in.kind == GeometryInput::Kind::kCustom;
  if (custom && in.buckets == nullptr && in.scan_cubes == nullptr && in.box_keys.size() != n)
    fail(ErrorKind::kInvalidInput, "optix tracer: custom primitives need their key per box (GeometryInput::box_keys)");
  if (n == 0) return acc;  // handle 0: every ray misses
  if (n > max_prims_per_gas_)
    fail(ErrorKind::kInvalidInput, "optix tracer: {} primitives exceed this GPU's {} per structure; use partitions", n,
         max_prims_per_gas_);
  static_assert(sizeof(Triangle) == 9 * sizeof(float) && sizeof(Aabb) == sizeof(OptixAabb));
  std::unique_ptr<Buffer> input;
  CUdeviceptr input_ptr;
  if (in.device_resident) {  // the caller's device buffer, used in place
    input_ptr = reinterpret_cast<CUdeviceptr>(custom ? static_cast<const void*>(in.boxes.data())
                                                     : static_cast<const void*>(in.triangles.data()));
  } else {
    input = custom ? upload(in.boxes.data(), in.boxes.size_bytes())
                   : upload(in.triangles.data(), in.triangles.size_bytes());
    input_ptr = static_cast<DeviceBuffer&>(*input).ptr();
  }
  // One any-hit call per primitive: OptiX may otherwise call any-hit more than once
  // for a primitive (e.g. split in the BVH), and every key must count once.
  // Bucket boxes are only traced for the closest hit: no any-hit program at all.
  const unsigned flags =
      in.buckets != nullptr ? OPTIX_GEOMETRY_FLAG_DISABLE_ANYHIT : OPTIX_GEOMETRY_FLAG_REQUIRE_SINGLE_ANYHIT_CALL;
  OptixBuildInput bi = {};
  if (!custom) {
    bi.type = OPTIX_BUILD_INPUT_TYPE_TRIANGLES;
    OptixBuildInputTriangleArray& t = bi.triangleArray;
    t.vertexFormat = OPTIX_VERTEX_FORMAT_FLOAT3;
    t.vertexStrideInBytes = sizeof(Float3);
    t.numVertices = static_cast<unsigned>(3 * n);  // non-indexed: vertices 3i..3i+2
    t.vertexBuffers = &input_ptr;
    t.indexFormat = OPTIX_INDICES_FORMAT_NONE;
    t.flags = &flags;
    t.numSbtRecords = 1;
    acc->sbt_offset = 0;
  } else {
    HitRecordData data = {};
    if (in.buckets != nullptr) {
      data.buckets = *in.buckets;
      acc->record = acquire_record(4, data);
    } else if (in.scan_cubes != nullptr) {
      data.scan = *in.scan_cubes;
      acc->record = acquire_record(5, data);
    } else {
      acc->keys.reset(static_cast<DeviceBuffer*>(upload(in.box_keys.data(), in.box_keys.size_bytes()).release()));
      data.box_keys = static_cast<const uint64_t*>(acc->keys->address());
      acc->record = acquire_record(3, data);
    }
    acc->sbt_offset = static_cast<uint32_t>(acc->record);
    bi.type = OPTIX_BUILD_INPUT_TYPE_CUSTOM_PRIMITIVES;
    OptixBuildInputCustomPrimitiveArray& c = bi.customPrimitiveArray;
    c.aabbBuffers = &input_ptr;
    c.numPrimitives = static_cast<unsigned>(n);
    c.strideInBytes = sizeof(OptixAabb);
    c.flags = &flags;
    c.numSbtRecords = 1;
  }
  build_accel(bi, options.compact, options.fast_trace, *acc);
  return acc;
}

std::unique_ptr<Accel> OptixTracer::build_instances(std::span<const Accel* const> children) {
  auto acc = std::make_unique<OptixAccel>(*this);
  acc->count = children.size();
  acc->instanced = true;
  std::vector<OptixInstance> inst;
  for (size_t i = 0; i < children.size(); ++i) {
    const auto* c = static_cast<const OptixAccel*>(children[i]);
    if (c->handle == 0) continue;  // empty child: nothing to hit; ids keep their index
    OptixInstance o = {};
    const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};  // row-major 3x4
    std::memcpy(o.transform, identity, sizeof(identity));
    o.instanceId = static_cast<unsigned>(i);  // hits report instance = i (optixGetInstanceId)
    o.sbtOffset = c->sbt_offset;
    o.visibilityMask = 255;
    o.flags = OPTIX_INSTANCE_FLAG_NONE;
    o.traversableHandle = c->handle;
    inst.push_back(o);
  }
  if (inst.empty()) return acc;
  acc->instances.reset(static_cast<DeviceBuffer*>(upload(inst.data(), inst.size() * sizeof(OptixInstance)).release()));
  OptixBuildInput bi = {};
  bi.type = OPTIX_BUILD_INPUT_TYPE_INSTANCES;
  bi.instanceArray.instances = acc->instances->ptr();
  bi.instanceArray.numInstances = static_cast<unsigned>(inst.size());
  build_accel(bi, false, true, *acc);
  return acc;
}

void OptixTracer::launch(mapping::Program program, std::span<const Accel* const> slots, const void* params,
                         size_t params_bytes, uint32_t n) {
  if (slots.size() > 3) fail(ErrorKind::kInternal, "optix tracer: a launch traces at most 3 structures");
  LaunchParams lp = {};
  lp.program = static_cast<uint32_t>(program);
  for (size_t s = 0; s < slots.size(); ++s) {
    const auto* a = static_cast<const OptixAccel*>(slots[s]);
    if (a == nullptr) continue;
    lp.handles[s] = a->handle;
    lp.sbt_offset[s] = a->sbt_offset;
    lp.instanced[s] = a->instanced ? 1 : 0;
  }
  if (program == mapping::kViewAggregate && params_bytes == sizeof(lp.view)) {
    std::memcpy(&lp.view, params, sizeof(lp.view));
  } else if (program == mapping::Program::kKeyLookup && params_bytes == sizeof(lp.key)) {
    std::memcpy(&lp.key, params, sizeof(lp.key));
  } else if (program == mapping::Program::kBucketLookup && params_bytes == sizeof(lp.bucket)) {
    std::memcpy(&lp.bucket, params, sizeof(lp.bucket));
  } else if (program == mapping::Program::kRays && params_bytes == sizeof(lp.rays)) {
    std::memcpy(&lp.rays, params, sizeof(lp.rays));
  } else if (program == mapping::Program::kScanRefine && params_bytes == sizeof(lp.scan)) {
    std::memcpy(&lp.scan, params, sizeof(lp.scan));
  } else {
    fail(ErrorKind::kInternal, "optix tracer: bad launch (program {}, {} parameter bytes)", static_cast<int>(program),
         params_bytes);
  }
  last_launch_ms_ = 0;
  if (n == 0) return;
  if (records_dirty_) {
    hit_record_buffer_.reset();
    hit_record_buffer_ = std::make_unique<DeviceBuffer>(*this, hit_records_.size() * sizeof(SbtRecord));
    RAYDB_CUDA(cudaMemcpy(hit_record_buffer_->address(), hit_records_.data(), hit_record_buffer_->bytes(),
                          cudaMemcpyHostToDevice));
    sbt_.hitgroupRecordBase = hit_record_buffer_->ptr();
    sbt_.hitgroupRecordStrideInBytes = sizeof(SbtRecord);
    sbt_.hitgroupRecordCount = static_cast<unsigned>(hit_records_.size());
    records_dirty_ = false;
  }
  constexpr uint32_t kMaxItems = 1u << 30;  // OptiX's limit on a launch's size
  wait_for_uploads();
  RAYDB_CUDA(cudaEventRecord(*start_, *stream_));
  for (uint64_t base = 0; base < n; base += kMaxItems) {
    lp.base = static_cast<uint32_t>(base);
    RAYDB_CUDA(cudaMemcpyAsync(params_->address(), &lp, sizeof(lp), cudaMemcpyHostToDevice, *stream_));
    const unsigned width = static_cast<unsigned>(std::min<uint64_t>(kMaxItems, n - base));
    RAYDB_OPTIX(optixLaunch(pipeline_, *stream_, params_->ptr(), sizeof(lp), &sbt_, width, 1, 1));
    sync();  // lp is reused by the next chunk
  }
  RAYDB_CUDA(cudaEventRecord(*stop_, *stream_));
  sync();
  float ms = 0;
  RAYDB_CUDA(cudaEventElapsedTime(&ms, *start_, *stop_));
  last_launch_ms_ = ms;
}

// The per-ray host API on the GPU: one launch of the kRays program per call (tests
// and debugging; batches go through launch()).
Hit OptixTracer::closest(const Accel& accel, const Ray& ray) const {
  auto* self = const_cast<OptixTracer*>(this);  // launches use the tracer's buffers
  Hit h;
  auto rays = self->upload(&ray, sizeof(ray));
  auto hits = self->buffer(&h, sizeof(h), Transfer::kOut);
  mapping::RayBatchParams p = {};
  p.rays = static_cast<const Ray*>(rays->address());
  p.n = 1;
  p.mode = mapping::RayMode::kClosest;
  p.hits = static_cast<Hit*>(hits->address());
  const Accel* slots[1] = {&accel};
  self->launch(mapping::Program::kRays, slots, &p, sizeof(p), 1);
  self->fetch(*hits);
  return h;
}

void OptixTracer::all_hits(const Accel& accel, const Ray& ray, HitSink& sink) const {
  // A count pass and a write pass; the sink then sees the hits (it may stop early,
  // but traversal has already visited them all).
  auto* self = const_cast<OptixTracer*>(this);
  auto rays = self->upload(&ray, sizeof(ray));
  uint32_t count = 0;
  auto counts = self->buffer(&count, sizeof(count), Transfer::kOut);
  mapping::RayBatchParams p = {};
  p.rays = static_cast<const Ray*>(rays->address());
  p.n = 1;
  p.mode = mapping::RayMode::kCountAll;
  p.counts = static_cast<uint32_t*>(counts->address());
  const Accel* slots[1] = {&accel};
  self->launch(mapping::Program::kRays, slots, &p, sizeof(p), 1);
  self->fetch(*counts);
  if (count == 0) return;
  const uint64_t offsets_host[2] = {0, count};
  std::vector<Hit> found(count);
  auto offsets = self->upload(offsets_host, sizeof(offsets_host));
  auto hits = self->buffer(found.data(), found.size() * sizeof(Hit), Transfer::kOut);
  p.mode = mapping::RayMode::kWriteAll;
  p.offsets = static_cast<const uint64_t*>(offsets->address());
  p.hits = static_cast<Hit*>(hits->address());
  self->launch(mapping::Program::kRays, slots, &p, sizeof(p), 1);
  self->fetch(*hits);
  for (const Hit& h : found)
    if (!sink.on_hit(h)) break;
}

}  // namespace

const OptixDeviceInfo& optix_device_info() {
  static const OptixDeviceInfo info = [] {
    OptixDeviceInfo i;
    i.built = true;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
      (void)cudaGetLastError();
      if (e == cudaErrorInsufficientDriver)
        i.reason = "no CUDA device usable: no NVIDIA driver, or one too old for this CUDA runtime";
      else if (e != cudaSuccess && e != cudaErrorNoDevice)
        i.reason = fmt::format("no CUDA device ({})", cudaGetErrorString(e));
      else
        i.reason = "no CUDA device";
      return i;
    }
    cudaDeviceProp prop = {};
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) i.device = prop.name;
    const OptixResult r = optixInit();
    if (r != OPTIX_SUCCESS) {
      i.reason = fmt::format("no OptiX in the driver: {}", init_error(r));
      return i;
    }
    if (cudaSetDevice(0) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
      i.reason = "cannot create a CUDA context on device 0";
      return i;
    }
    OptixDeviceContext ctx = nullptr;
    OptixDeviceContextOptions options = {};
    if (optixDeviceContextCreate(nullptr, &options, &ctx) != OPTIX_SUCCESS) {
      i.reason = "optixDeviceContextCreate failed";
      return i;
    }
    unsigned v = 0;
    if (optixDeviceContextGetProperty(ctx, OPTIX_DEVICE_PROPERTY_RTCORE_VERSION, &v, sizeof(v)) == OPTIX_SUCCESS)
      i.rtcore_version = v;
    optixDeviceContextDestroy(ctx);
    i.available = true;
    return i;
  }();
  return info;
}

std::unique_ptr<Tracer> make_optix_tracer() { return std::make_unique<OptixTracer>(nullptr); }
std::unique_ptr<Tracer> make_optix_tracer_on(gpu::DeviceMemory& memory) { return std::make_unique<OptixTracer>(&memory); }

}  // namespace raydb::rt
