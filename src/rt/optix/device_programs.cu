// The OptiX device programs: compiled by nvcc to OptiX-IR (and PTX) at build time and
// embedded in the binary (cmake/optix.cmake). One raygen runs the mapping program of
// the launch (rt/mapping/launch.h) for its launch item; the trace context below turns
// the mapping's closest()/all_hits() into optixTrace:
//   closest   any-hit disabled by ray flag; the closest-hit program returns primitive,
//             instance and t in payload 0-2; the miss program leaves "no hit"
//   all_hits  closest-hit disabled; payload 0-1 point at the action (on the raygen's
//             stack), payload 2 says its type; the any-hit program calls it and ignores
//             the hit (keep traversing) or terminates the ray when the action says stop.
//             Builds ask for one any-hit call per primitive, so every key counts once.
//   buckets  interval-bucket boxes: mapping::intersect_bucket_box on the structure's
//             bucket table (its hit record), an integer test of the lookup key
//   scan cubes RT scan rows: mapping::intersect_scan_cube on the group's ranks (its hit
//             record), exact integer/half-integer tests; the any-hit action re-checks
//   key boxes the intersection program is mapping::intersect_key_box on the key of the
//             primitive (from its hit record), the same exact test Embree runs.
// Instances carry identity transforms: the object-space ray is x' = 1*x + 0*y + 0*z + 0,
// computed exactly, so instancing changes no coordinate of the key grid's argument.
#include <optix.h>

#include "rt/optix/launch_params.h"

using raydb::rt::Hit;
using raydb::rt::Ray;
namespace mp = raydb::rt::mapping;
namespace ox = raydb::rt::optix;

extern "C" {
__constant__ ox::LaunchParams params;
}

#include "rt/optix/view_programs.h"  // RT views (needs `params`)

namespace {

__device__ __forceinline__ uint32_t tag_of(const mp::KeyHitAction*) { return ox::kKeyHitAction; }
__device__ __forceinline__ uint32_t tag_of(const mp::CollectAction*) { return ox::kCollectAction; }
__device__ __forceinline__ uint32_t tag_of(const mp::ScanHitAction*) { return ox::kScanHitAction; }

struct DeviceTraceContext {
  __device__ Hit closest(mp::Slot s, const Ray& r) const {
    const int k = static_cast<int>(s);
    Hit h;
    if (params.handles[k] == 0) return h;
    unsigned p0 = raydb::rt::kNoHit, p1 = raydb::rt::kNoHit, p2 = 0;
    optixTrace(params.handles[k], make_float3(r.origin.x, r.origin.y, r.origin.z),
               make_float3(r.dir.x, r.dir.y, r.dir.z), r.tmin, r.tmax, 0.0f, OptixVisibilityMask(255),
               OPTIX_RAY_FLAG_DISABLE_ANYHIT, params.sbt_offset[k], 1, 0, p0, p1, p2);
    if (p0 == raydb::rt::kNoHit) return h;
    h.primitive = p0;
    h.instance = params.instanced[k] ? p1 : 0;
    h.t = __uint_as_float(p2);
    return h;
  }

  // Any hit, when at most one primitive can report one (interval buckets: the
  // intersection program decides in integers and writes the primitive into payload 0):
  // no closest-hit program, traversal ends at the first reported hit.
  __device__ Hit first_hit(mp::Slot s, const Ray& r) const {
    const int k = static_cast<int>(s);
    Hit h;
    if (params.handles[k] == 0) return h;
    unsigned p0 = raydb::rt::kNoHit, p1 = 0, p2 = 0;
    optixTrace(params.handles[k], make_float3(r.origin.x, r.origin.y, r.origin.z),
               make_float3(r.dir.x, r.dir.y, r.dir.z), r.tmin, r.tmax, 0.0f, OptixVisibilityMask(255),
               OPTIX_RAY_FLAG_DISABLE_ANYHIT | OPTIX_RAY_FLAG_DISABLE_CLOSESTHIT | OPTIX_RAY_FLAG_TERMINATE_ON_FIRST_HIT,
               params.sbt_offset[k], 1, 0, p0, p1, p2);
    if (p0 == raydb::rt::kNoHit) return h;
    h.primitive = p0;
    h.instance = 0;
    h.t = 0.5f;
    return h;
  }

  template <typename A>
  __device__ void all_hits(mp::Slot s, const Ray& r, A& action) const {
    const int k = static_cast<int>(s);
    if (params.handles[k] == 0) return;
    const unsigned long long ptr = reinterpret_cast<unsigned long long>(&action);
    unsigned p0 = static_cast<unsigned>(ptr), p1 = static_cast<unsigned>(ptr >> 32);
    unsigned p2 = tag_of(&action) | (params.instanced[k] ? ox::kInstancedFlag : 0u);
    optixTrace(params.handles[k], make_float3(r.origin.x, r.origin.y, r.origin.z),
               make_float3(r.dir.x, r.dir.y, r.dir.z), r.tmin, r.tmax, 0.0f, OptixVisibilityMask(255),
               OPTIX_RAY_FLAG_DISABLE_CLOSESTHIT, params.sbt_offset[k], 1, 0, p0, p1, p2);
  }
};

}  // namespace

extern "C" __global__ void __raygen__main() {
  const uint32_t j = optixGetLaunchIndex().x + params.base;
  const DeviceTraceContext tc;
  if (params.program == static_cast<uint32_t>(mp::kViewAggregate)) {
    ox::view_raygen(j);
    return;
  }
  if (params.program == static_cast<uint32_t>(mp::Program::kKeyLookup)) {
    mp::key_lookup(tc, params.key, j);
  } else if (params.program == static_cast<uint32_t>(mp::Program::kBucketLookup)) {
    mp::bucket_lookup(tc, params.bucket, j);
  } else if (params.program == static_cast<uint32_t>(mp::Program::kRays)) {
    mp::trace_rays(tc, params.rays, j);
  } else if (params.program == static_cast<uint32_t>(mp::Program::kScanRefine)) {
    mp::scan_refine(tc, params.scan, j);
  }
}

extern "C" __global__ void __miss__main() {}

extern "C" __global__ void __closesthit__main() {
  optixSetPayload_0(optixGetPrimitiveIndex());
  optixSetPayload_1(optixGetInstanceId());
  optixSetPayload_2(__float_as_uint(optixGetRayTmax()));
}

extern "C" __global__ void __anyhit__main() {
  const uint32_t tag = optixGetPayload_2();
  Hit h;
  h.primitive = optixGetPrimitiveIndex();
  h.instance = (tag & ox::kInstancedFlag) ? optixGetInstanceId() : 0;
  h.t = optixGetRayTmax();  // in any-hit: the candidate's t
  void* ptr = reinterpret_cast<void*>(static_cast<unsigned long long>(optixGetPayload_0()) |
                                      (static_cast<unsigned long long>(optixGetPayload_1()) << 32));
  if (ox::view_anyhit(tag, ptr, h)) return;  // RT views
  bool more = true;
  switch (tag & 0xFF) {
    case ox::kKeyHitAction:
      more = (*static_cast<mp::KeyHitAction*>(ptr))(h);
      break;
    case ox::kCollectAction:
      more = (*static_cast<mp::CollectAction*>(ptr))(h);
      break;
    case ox::kScanHitAction:
      more = (*static_cast<mp::ScanHitAction*>(ptr))(h);
      break;
    default:
      break;
  }
  if (more) {
    optixIgnoreIntersection();  // keep traversing; the hit is not recorded
  } else {
    optixTerminateRay();
  }
}

extern "C" __global__ void __intersection__key_box() {
  const auto* rec = reinterpret_cast<const ox::HitRecordData*>(optixGetSbtDataPointer());
  const float3 o = optixGetObjectRayOrigin(), d = optixGetObjectRayDirection();
  const Ray r{{o.x, o.y, o.z}, optixGetRayTmin(), {d.x, d.y, d.z}, optixGetRayTmax()};
  float t = 0.0f;
  if (mp::intersect_key_box(mp::decompose(rec->box_keys[optixGetPrimitiveIndex()]), r, &t)) optixReportIntersection(t, 0);
}

// Interval buckets: the exact integer test of bucket_grid.h on the bucket table of the
// structure's hit record.
extern "C" __global__ void __intersection__bucket_box() {
  const auto* rec = reinterpret_cast<const ox::HitRecordData*>(optixGetSbtDataPointer());
  const float3 o = optixGetObjectRayOrigin(), d = optixGetObjectRayDirection();
  const Ray r{{o.x, o.y, o.z}, optixGetRayTmin(), {d.x, d.y, d.z}, optixGetRayTmax()};
  float t = 0.0f;
  if (mp::intersect_bucket_box(rec->buckets, optixGetPrimitiveIndex(), r, &t)) {
    optixSetPayload_0(optixGetPrimitiveIndex());  // for first_hit (closest() overwrites it alike)
    optixReportIntersection(t, 0);
  }
}

// RT scan cubes (scan_grid.h): the exact cell test on the ranks of the structure's hit
// record; the any-hit program then runs the scan's hit action (re-check, bit write).
extern "C" __global__ void __intersection__scan_cube() {
  const auto* rec = reinterpret_cast<const ox::HitRecordData*>(optixGetSbtDataPointer());
  const float3 o = optixGetObjectRayOrigin(), d = optixGetObjectRayDirection();
  const Ray r{{o.x, o.y, o.z}, optixGetRayTmin(), {d.x, d.y, d.z}, optixGetRayTmax()};
  float t = 0.0f;
  if (mp::intersect_scan_cube(rec->scan, optixGetPrimitiveIndex(), r, &t)) optixReportIntersection(t, 0);
}
