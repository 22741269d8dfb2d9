#pragma once
// RT views (RTCUDB): the row -> triangle and (Z segment, group, lane) -> ray mapping,
// shared by the view builder (host) and the view launch program (both tracers).
//
// A view row r has a Z code z (mixed-radix code of the filter attributes in Z), a
// group id g (the view's dictionary of group tuples) and an X word x = lane * D + w,
// where w < D = 2^xbits is the bit-packed aggregate inputs and lane = r mod L spreads
// the rows of one (z, g) over L ray columns. Its triangle lies in the plane Z = z:
//
//     (x, g, z), (x + 2D, g, z), (x, g + 1, z)
//
// A query ray for Z segment [zlo, zhi], group g and lane l starts at
// (X_l, g + 1/2, zlo - 1/2), X_l = (l + 1) * D - 1/2, goes along +Z with
// tmin = 0 and tmax = zhi - zlo + 1.
//
// Why every qualifying row is hit by exactly one ray and no other row is hit:
//  Y  at y = g + 1/2 the triangle spans x in [x, x + D] (half of its 2D base). Rays of
//     other groups sit at y = g' + 1/2 with |g' - g| >= 1: outside [g, g + 1] by 1/2.
//  X  [lane*D + w, lane*D + w + D] with 0 <= w <= D-1 holds exactly one ray column,
//     X_lane = (lane+1)*D - 1/2, at distance >= 1/2 from both ends; X_{lane-1} is
//     1/2 + w below it and X_{lane+1} is 1/2 + (D-1-w) above it.
//  Z  planes inside [zlo, zhi] have t in [1/2, tmax - 1/2]; planes outside have t <= -1/2
//     or t >= tmax + 1/2. Segments are at most kViewMaxSegment long, so t < 2^21 and
//     ulp(t) <= 1/8: an error of a few ulp stays below the 1/2 margin.
//  float32: every coordinate is an integer or half-integer below 2^23 (the budget
//     below), so all are exact; vertex minus ray origin is then exact too (the exact
//     result is a half-integer below 2^23, which float32 holds). Triangles are at most
//     2D + 1 <= 2^17 + 1 wide, so the edge tests near a ray work on small exact
//     numbers; the margin is 1/2 in X and Y.
//  once per ray: OptiX builds ask for one any-hit call per primitive
//     (OPTIX_GEOMETRY_FLAG_REQUIRE_SINGLE_ANYHIT_CALL); Embree's medium-quality build
//     uses no spatial splits, so each triangle sits in one leaf. Z segments of one
//     query are disjoint. So no dedup bit is needed; the launch can still keep one per
//     primitive (ViewAggregateParams::seen) and count duplicates, which the tests use
//     to check this argument on each tracer.
//  Z decoding: z = zlo - 1/2 + t rounded to the nearest integer is exact (error < 1/2),
//     so the hit program recovers the row's filter digits without a memory read.
#include "rt/mapping/geometry.h"

namespace raydb::rt::mapping {

inline constexpr uint32_t kViewZLimit = 1u << 23;      // Z codes < 2^23 (half-integers exact)
inline constexpr uint32_t kViewGroupLimit = 1u << 21;  // group ids < 2^21
inline constexpr uint32_t kViewXBitsMax = 16;          // packed aggregate bits (D <= 2^16)
inline constexpr uint32_t kViewXLimit = 1u << 21;      // L * D <= 2^21: X < 2^21 + 2^17
inline constexpr uint32_t kViewMaxSegment = 1u << 20;  // Z units per ray segment

RAYDB_HOST_DEVICE Triangle view_triangle(uint32_t x, uint32_t g, uint32_t z, uint32_t lane_width) {
  const float fx = static_cast<float>(x), fy = static_cast<float>(g), fz = static_cast<float>(z);
  const float fx2 = static_cast<float>(x + 2 * lane_width), fy1 = static_cast<float>(g + 1);
  return Triangle{{fx, fy, fz}, {fx2, fy, fz}, {fx, fy1, fz}};
}

RAYDB_HOST_DEVICE Ray view_ray(uint32_t zlo, uint32_t zhi, uint32_t g, uint32_t lane, uint32_t lane_width) {
  Ray r;
  r.origin = Float3{static_cast<float>((lane + 1) * lane_width) - 0.5f, static_cast<float>(g) + 0.5f,
                    static_cast<float>(zlo) - 0.5f};
  r.dir = Float3{0.0f, 0.0f, 1.0f};
  r.tmin = 0.0f;
  r.tmax = static_cast<float>(zhi - zlo + 1);
  return r;
}

// The Z code of a hit on a ray of view_ray(zlo, ...): exact by the argument above.
// The exact t is (z - zlo) + 1/2 and the computed one is off by less than 1/2, so
// floor(t) = z - zlo.
RAYDB_HOST_DEVICE uint32_t view_hit_z(uint32_t zlo, float t) {
  return zlo + static_cast<uint32_t>(t > 0.0f ? t : 0.0f);
}

}  // namespace raydb::rt::mapping
