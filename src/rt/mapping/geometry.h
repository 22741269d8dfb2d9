#pragma once
// Plain geometric records shared by every tracer and every mapping. They mirror what
// OptiX and Embree take (float32 coordinates), so a mapping fills them once and both
// tracers consume them unchanged.
#include "rt/mapping/host_device.h"

namespace raydb::rt {

struct Float3 {
  float x, y, z;
};

// A triangle, non-indexed (three vertices), as OptiX's OPTIX_INDICES_FORMAT_NONE input.
struct Triangle {
  Float3 a, b, c;
};

// An axis-aligned box for custom primitives; its intersection is the mapping's own.
struct Aabb {
  Float3 lo, hi;
};

// A ray segment: points origin + t * dir with tmin <= t <= tmax. Every mapping keeps
// both ends strictly off every primitive's plane, so whether a tracer treats the ends
// as open or closed never changes a result.
struct Ray {
  Float3 origin;
  float tmin;
  Float3 dir;
  float tmax;
};

inline constexpr uint32_t kNoHit = 0xFFFFFFFFu;

// What a tracer reports for a hit: the instance (partition) and the primitive within
// it, plus the distance. instance is 0 without an instance structure.
struct Hit {
  uint32_t instance = kNoHit;
  uint32_t primitive = kNoHit;
  float t = 0.0f;
  RAYDB_HOST_DEVICE bool valid() const { return primitive != kNoHit; }
};

}  // namespace raydb::rt
