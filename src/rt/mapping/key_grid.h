#pragma once
// The key grid: how a 64-bit key becomes a primitive and a lookup becomes rays.
// Shared by the RT index's triangle and custom-box mappings on every tracer.
//
// Decomposition (RX's 3-D idea with a 22/21/21 split instead of RX's 23/23/18):
//   x = k[21:0], y = k[42:22], z = k[63:43]; every field < 2^22.
// A key sits at the integer point (x, y, z). Rows are the lines (*, y, z); planes
// are z = const. Key order equals (z, y, x) lexicographic order.
//
// Why it is exact in float32 (24-bit significand):
//  1. Every coordinate any primitive or ray uses is a multiple of 0.25 with magnitude
//     < 2^22 + 1, which needs at most 22 + 2 = 24 significant bits: every vertex,
//     box corner, origin and tmax below is exactly representable, so no key is ever
//     rounded, let alone across a boundary. (RX's 23-bit field with +-0.5 offsets is
//     exact too, but leaves no room for quarter-offset boxes nor for the t margin of
//     point 3.)
//  2. Rays are axis-parallel and run along one row (or marker column) at integer
//     coordinates in the other two axes; a key triangle spans +-0.5 around its point
//     in those axes, so a ray passes a triangle's edges at distance >= 0.5 on either
//     side: the edge tests (differences and products of such values) are exact and
//     never near zero. A ray of the neighbouring row is 0.5 outside the triangle.
//  3. Along the ray, ends are at half-integers and primitives at integers: no ray ends
//     on a primitive's plane; the nearest plane is 0.5 away. A tracer computes
//     t = (X - origin.x) / 1 with at most a few ulps of error (Embree's reciprocal,
//     hardware intersectors); all t we rely on are < 2^22, where an ulp is <= 0.25,
//     so an in-range key cannot be pushed out of [tmin, tmax] by a 1-ulp error
//     (this is why x has 22, not 23, bits: at t in [2^22, 2^23) one ulp is 0.5).
//  4. Every hit action re-checks the hit key against the lookup in integers, so a
//     tracer can never add a wrong row; points 1-3 make sure it misses none.
#include "rt/mapping/geometry.h"

namespace raydb::rt::mapping {

inline constexpr int kXBits = 22;
inline constexpr int kYBits = 21;
inline constexpr int kZBits = 21;
inline constexpr uint32_t kXMax = (1u << kXBits) - 1;
inline constexpr uint32_t kYMax = (1u << kYBits) - 1;
inline constexpr uint32_t kZMax = (1u << kZBits) - 1;

struct GridPoint {
  uint32_t x, y, z;
};

RAYDB_HOST_DEVICE GridPoint decompose(uint64_t key) {
  return GridPoint{static_cast<uint32_t>(key & kXMax), static_cast<uint32_t>((key >> kXBits) & kYMax),
                   static_cast<uint32_t>(key >> (kXBits + kYBits))};
}
RAYDB_HOST_DEVICE uint64_t compose(GridPoint p) {
  return (static_cast<uint64_t>(p.z) << (kXBits + kYBits)) | (static_cast<uint64_t>(p.y) << kXBits) | p.x;
}
// A row's id: the key bits above x. Rows are ordered like keys.
RAYDB_HOST_DEVICE uint64_t row_of(uint64_t key) { return key >> kXBits; }

RAYDB_HOST_DEVICE float f(uint32_t v) { return static_cast<float>(v); }  // exact: v < 2^22

// Key triangle: in the plane x = X, spanning y in [Y-.5, Y+.5] and z in [Z-.5, Z+.5];
// the row line (*, Y, Z) crosses it at its interior point (X, Y, Z), 0.5 from every edge.
RAYDB_HOST_DEVICE Triangle key_triangle(GridPoint p) {
  const float X = f(p.x), Y = f(p.y), Z = f(p.z);
  return Triangle{{X, Y - 0.5f, Z - 0.5f}, {X, Y + 0.5f, Z - 0.5f}, {X, Y, Z + 0.5f}};
}

// Key box for the custom-primitive variant: +-0.25 around the point, so boxes of
// neighbouring keys never touch (0.25 offsets stay exact by point 1).
RAYDB_HOST_DEVICE Aabb key_box(GridPoint p) {
  const float X = f(p.x), Y = f(p.y), Z = f(p.z);
  return Aabb{{X - 0.25f, Y - 0.25f, Z - 0.25f}, {X + 0.25f, Y + 0.25f, Z + 0.25f}};
}

// The custom primitive's intersection program: exact by construction. Rays of this
// grid are axis-parallel along +x at integer (y, z); the key is hit iff the ray runs
// in its row and X lies strictly inside (origin.x + tmin, origin.x + tmax). All
// operands are quarter-multiples < 2^23, so the subtractions are exact.
RAYDB_HOST_DEVICE bool intersect_key_box(GridPoint p, const Ray& r, float* t) {
  if (r.dir.x != 1.0f || r.origin.y != f(p.y) || r.origin.z != f(p.z)) return false;
  const float tt = f(p.x) - r.origin.x;
  if (!(tt > r.tmin && tt < r.tmax)) return false;
  *t = tt;
  return true;
}

// The ray along row (y, z) covering x in [x_from, x_to] (x_from <= x_to): it starts at
// x_from - 0.5 and ends at x_to + 0.5, both half-integers (point 3), t < 2^22 + 1.
RAYDB_HOST_DEVICE Ray row_ray(uint32_t y, uint32_t z, uint32_t x_from, uint32_t x_to) {
  return Ray{{f(x_from) - 0.5f, f(y), f(z)}, 0.0f, {1.0f, 0.0f, 0.0f}, f(x_to - x_from) + 1.0f};
}
RAYDB_HOST_DEVICE Ray point_ray(GridPoint p) { return row_ray(p.y, p.z, p.x, p.x); }

// Row markers (a separate structure): one triangle per non-empty row (Y, Z), in the
// plane y = Y around (0, Y, Z); a ray along +y in the marker column (0, *, Z) finds the
// next non-empty row of a plane. Same exactness argument with the axes renamed.
RAYDB_HOST_DEVICE Triangle row_marker_triangle(uint32_t y, uint32_t z) {
  const float Y = f(y), Z = f(z);
  return Triangle{{-0.5f, Y, Z - 0.5f}, {0.5f, Y, Z - 0.5f}, {0.0f, Y, Z + 0.5f}};
}
RAYDB_HOST_DEVICE Ray row_marker_ray(uint32_t z, uint32_t y_from) {  // rows y >= y_from
  return Ray{{0.0f, f(y_from) - 0.5f, f(z)}, 0.0f, {0.0f, 1.0f, 0.0f}, f(kYMax - y_from) + 1.0f};
}
// Plane markers: one triangle per non-empty plane Z, in the plane z = Z around (0, 0, Z).
RAYDB_HOST_DEVICE Triangle plane_marker_triangle(uint32_t z) {
  const float Z = f(z);
  return Triangle{{-0.5f, -0.5f, Z}, {0.5f, -0.5f, Z}, {0.0f, 0.5f, Z}};
}
RAYDB_HOST_DEVICE Ray plane_marker_ray(uint32_t z_from) {  // planes z >= z_from
  return Ray{{0.0f, 0.0f, f(z_from) - 0.5f}, 0.0f, {0.0f, 0.0f, 1.0f}, f(kZMax - z_from) + 1.0f};
}

}  // namespace raydb::rt::mapping
