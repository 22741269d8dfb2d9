#pragma once
// Device-only part of the RT views, included by device_programs.cu after its
// `params` declaration (compiled by nvcc to OptiX-IR): the raygen branch running
// mapping::view_aggregate and the any-hit branch calling its ViewHitAction. Kept in a
// file of its own so the shared device programs change by a few lines only.
#include <optix.h>

#include "rt/mapping/view_aggregate.h"
#include "rt/optix/launch_params.h"

namespace raydb::rt::optix {

// Any-hit tag of mapping::ViewHitAction (far from the shared ActionTag values).
inline constexpr uint32_t kViewHitActionTag = 0x40;

// all_hits for view rays: payload 0-1 point at the action (on the raygen's stack),
// payload 2 carries the tag. The view structure is one GAS, never instanced.
struct ViewTraceContext {
  __device__ void all_hits(mapping::Slot s, const Ray& r, mapping::ViewHitAction& action) const {
    const int k = static_cast<int>(s);
    if (params.handles[k] == 0) return;
    const unsigned long long ptr = reinterpret_cast<unsigned long long>(&action);
    unsigned p0 = static_cast<unsigned>(ptr), p1 = static_cast<unsigned>(ptr >> 32), p2 = kViewHitActionTag;
    optixTrace(params.handles[k], make_float3(r.origin.x, r.origin.y, r.origin.z),
               make_float3(r.dir.x, r.dir.y, r.dir.z), r.tmin, r.tmax, 0.0f, OptixVisibilityMask(255),
               OPTIX_RAY_FLAG_DISABLE_CLOSESTHIT, params.sbt_offset[k], 1, 0, p0, p1, p2);
  }
};

__device__ __forceinline__ void view_raygen(uint32_t j) {
  const ViewTraceContext tc;
  mapping::view_aggregate(tc, params.view, j);
}

// True when the any-hit call was a view hit (then it has been handled: the action
// always asks to keep traversing).
__device__ __forceinline__ bool view_anyhit(uint32_t tag, void* action, const Hit& h) {
  if ((tag & 0xFF) != kViewHitActionTag) return false;
  (*static_cast<mapping::ViewHitAction*>(action))(h);
  optixIgnoreIntersection();
  return true;
}

}  // namespace raydb::rt::optix
