#pragma once
// The backend-neutral ray-tracing API (OWL-small): geometry in, acceleration
// structures out, rays traced against them with per-method hit handling.
//
//   Tracer        one backend instance (Embree device, OptiX context)
//   Accel         an acceleration structure: a geometry structure over triangles or
//                 custom boxes, or an instance structure over several of them
//   trace         closest(accel, ray) for closest-hit methods; all_hits(accel, ray,
//                 sink) for any-hit methods (the sink sees every hit, may stop early)
//   launch        a program of rt/mapping/launch.h over a batch (one optixLaunch on
//                 the GPU, a parallel loop on the CPU), with Buffers for its data
//
// Mappings (rt/mapping/) are written against a tiny "trace context" concept with
// closest()/all_hits() so the same program runs on this host API (Embree) and as
// OptiX device programs, where closest/all_hits become optixTrace with closest-hit
// and any-hit programs. Batch work goes through launch(): on a GPU tracer the
// per-ray host calls are slow helpers (one launch per call) for tests.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "rt/mapping/launch.h"

namespace raydb::gpu {
class DeviceMemory;  // gpu/device_memory.h (CUDA builds only)
}  // namespace raydb::gpu

namespace raydb::rt {

// The intersection program of a custom primitive: true and *t when ray hits
// primitive `primitive` strictly inside (tmin, tmax).
using IntersectFn = bool (*)(const void* user, uint32_t primitive, const Ray& ray, float* t);

struct GeometryInput {
  enum class Kind { kTriangles, kCustom };
  Kind kind = Kind::kTriangles;
  std::span<const Triangle> triangles;  // kTriangles: primitive i = triangles[i]
  std::span<const Aabb> boxes;          // kCustom: primitive i bounded by boxes[i]
  IntersectFn intersect = nullptr;      // kCustom
  const void* user = nullptr;           // kCustom: passed to intersect; must outlive the Accel
  // kCustom on a GPU tracer: primitive i is mapping::key_box(decompose(box_keys[i])) and
  // is intersected by mapping::intersect_key_box on the device (a host IntersectFn
  // cannot run there). A GPU tracer rejects custom input without keys.
  std::span<const uint64_t> box_keys;
  // kCustom interval buckets (mapping/bucket_grid.h): primitive i is a box of bucket
  // buckets->prim_bucket[i], intersected by mapping::intersect_bucket_box on every
  // tracer. The table's pointers are where the tracer reads (host memory on a CPU
  // tracer, device memory on a GPU tracer); the table and its arrays must outlive the
  // Accel.
  const mapping::BucketTable* buckets = nullptr;
  // kCustom RT scan cubes (mapping/scan_grid.h): primitive i is row i, intersected by
  // mapping::intersect_scan_cube on every tracer; the any-hit action of a kScanRefine
  // launch re-checks it. Same pointer rules as `buckets`.
  const mapping::ScanCubes* scan_cubes = nullptr;
  // triangles / boxes point into device memory (GPU tracers only): the structure is
  // built from them in place, without a copy, and they may be freed after build returns.
  bool device_resident = false;

  static GeometryInput of_triangles(std::span<const Triangle> t) {
    GeometryInput g;
    g.triangles = t;
    return g;
  }
  static GeometryInput of_custom(std::span<const Aabb> b, IntersectFn fn, const void* user,
                                 std::span<const uint64_t> box_keys = {}) {
    GeometryInput g;
    g.kind = Kind::kCustom;
    g.boxes = b;
    g.intersect = fn;
    g.user = user;
    g.box_keys = box_keys;
    return g;
  }
  static GeometryInput of_buckets(std::span<const Aabb> b, const mapping::BucketTable* table,
                                  bool device_resident = false) {
    GeometryInput g;
    g.kind = Kind::kCustom;
    g.boxes = b;
    g.intersect = [](const void* user, uint32_t prim, const Ray& ray, float* t) {
      return mapping::intersect_bucket_box(*static_cast<const mapping::BucketTable*>(user), prim, ray, t);
    };
    g.user = table;
    g.buckets = table;
    g.device_resident = device_resident;
    return g;
  }
  static GeometryInput of_scan_cubes(std::span<const Aabb> b, const mapping::ScanCubes* cubes,
                                     bool device_resident = false) {
    GeometryInput g;
    g.kind = Kind::kCustom;
    g.boxes = b;
    g.intersect = [](const void* user, uint32_t prim, const Ray& ray, float* t) {
      return mapping::intersect_scan_cube(*static_cast<const mapping::ScanCubes*>(user), prim, ray, t);
    };
    g.user = cubes;
    g.scan_cubes = cubes;
    g.device_resident = device_resident;
    return g;
  }
  size_t size() const { return kind == Kind::kTriangles ? triangles.size() : boxes.size(); }
};

struct BuildOptions {
  bool compact = true;     // OptiX: optixAccelCompact; Embree: RTC_SCENE_FLAG_COMPACT
  bool fast_trace = true;  // prefer trace speed over build speed
};

class Accel {
 public:
  virtual ~Accel() = default;
  virtual size_t primitive_count() const = 0;  // instances for an instance structure
  virtual size_t memory_bytes() const = 0;     // resident bytes after the build
};

class HitSink {
 public:
  virtual ~HitSink() = default;
  virtual bool on_hit(const Hit& hit) = 0;  // false stops the ray's traversal
};

// Memory a launch program reads or writes. address() is what goes into the program's
// parameters: a device pointer on a GPU tracer, host memory on a CPU tracer.
class Buffer {
 public:
  virtual ~Buffer() = default;
  virtual void* address() const = 0;
  virtual size_t bytes() const = 0;
};

enum class Transfer {
  kIn,     // the program reads it: copied to the device (a CPU tracer reads host memory in place)
  kOut,    // the program writes it: fetch() brings it back
  kInOut,  // both
};

struct TracerMemory {
  size_t current_bytes = 0;
  size_t peak_bytes = 0;
};

class Tracer {
 public:
  virtual ~Tracer() = default;
  virtual std::string name() const = 0;

  // Input buffers may be freed after build returns (the backend keeps what it needs),
  // except a custom input's `user` data, which its intersection program reads.
  virtual std::unique_ptr<Accel> build(const GeometryInput& input, const BuildOptions& options) = 0;
  // Instance i = children[i], identity transform; hits report instance = i. Children
  // must outlive the instance structure.
  virtual std::unique_ptr<Accel> build_instances(std::span<const Accel* const> children) = 0;

  virtual Hit closest(const Accel& accel, const Ray& ray) const = 0;
  virtual void all_hits(const Accel& accel, const Ray& ray, HitSink& sink) const = 0;

  // Buffers for launches. With host memory, a CPU tracer returns a view of it (no copy;
  // it must outlive the buffer) and a GPU tracer allocates device memory, copying host
  // in for kIn/kInOut. With host == nullptr the tracer allocates scratch memory of its
  // own that only programs use (not fetchable).
  virtual std::unique_ptr<Buffer> buffer(void* host, size_t bytes, Transfer transfer) = 0;
  std::unique_ptr<Buffer> upload(const void* host, size_t bytes) {
    return buffer(const_cast<void*>(host), bytes, Transfer::kIn);  // kIn: never written
  }
  // Copies a kOut/kInOut buffer back into its host memory (nothing to do on a CPU tracer).
  virtual void fetch(const Buffer& buffer) = 0;
  // Runs `program` for launch items 0..n-1; params is the program's parameter struct
  // (mapping::KeyLookupParams, mapping::RayBatchParams) whose pointers are Buffer
  // addresses; slots[s] is the structure that mapping::Slot s traces (may be null: no
  // hits; at most 3). Returns when the results are complete.
  virtual void launch(mapping::Program program, std::span<const Accel* const> slots, const void* params,
                      size_t params_bytes, uint32_t n) = 0;
  // Milliseconds the last launch took on its own (GPU: CUDA events around
  // optixLaunch; CPU: the loop), without the caller's transfers.
  virtual double last_launch_ms() const = 0;
  virtual bool on_gpu() const = 0;

  virtual TracerMemory memory() const = 0;
  virtual void reset_peak_memory() = 0;
};

// Embree 3 on the CPU; always available (CI runs every RT method through it).
std::unique_ptr<Tracer> make_embree_tracer();

// OptiX on the GPU (rt/optix). Throws an Error with one line saying why when the
// backend was not built, or there is no CUDA device or no OptiX driver.
std::unique_ptr<Tracer> make_optix_tracer();
// The same, with every device buffer of the tracer (BVHs, SBT, launch parameters)
// taken from `memory` (the SQL executor's accounted pool), which must outlive it.
std::unique_ptr<Tracer> make_optix_tracer_on(gpu::DeviceMemory& memory);

// What `raydb info` and the tests ask before creating an OptiX tracer.
struct OptixDeviceInfo {
  bool built = false;      // compiled with OptiX headers and nvcc
  bool available = false;  // a CUDA device and the driver's OptiX (libnvoptix.so.1) work
  unsigned rtcore_version = 0;  // OPTIX_DEVICE_PROPERTY_RTCORE_VERSION: 0 = no RT cores
  std::string device;           // device name
  std::string reason;           // why not available
};
const OptixDeviceInfo& optix_device_info();  // probed once per process

}  // namespace raydb::rt
