#pragma once
// Interval buckets: cgRX's coarse granularity turned into point location. The sorted
// distinct keys ("units") are cut into buckets of B units; bucket b covers the key
// interval (last(b-1), last(b)] (bucket 0 starts at key 0). The buckets tile
// [0, max key] without gaps, so the bucket whose interval holds q also holds the
// first unit >= q: one point ray at q finds it (no marker rays, no long rays), and the
// lookup finishes with a binary search inside the bucket and a forward scan of the
// sorted units for ranges. The structure has one primitive per bucket piece, so the
// BVH is about B times smaller than one over all keys.
//
// Geometry (on the key grid of key_grid.h): an interval [lo, hi] of keys is cut into
// at most 5 axis-aligned boxes of grid points: the rest of lo's row, the full rows
// after it in lo's plane, the full planes between, the full rows before hi's row in
// hi's plane, and the start of hi's row. Each box spans its integer grid coordinates
// +-0.25, so boxes of different intervals never touch.
//
// Why it is exact in float32:
//  1. Box corners are quarter-multiples of magnitude < 2^22 + 1 (key_grid.h point 1):
//     exactly representable, so no box is rounded away from a grid point it covers.
//  2. A lookup's ray is key_grid.h's point ray: from x_q - 0.5 to x_q + 0.5 along +x
//     at integer (y_q, z_q). It lies at least 0.25 inside the covering box in y and z
//     and overlaps it by 0.75 in x, so a conservative box test (BVH traversal) cannot
//     drop it; rounding can only add candidates.
//  3. The intersection program decides in integers: it recovers q from the ray origin
//     (x_q - 0.5 + 0.5 is exact by point 1) and tests last(b-1) < q <= last(b) on the
//     64-bit keys. So a candidate box never becomes a wrong hit, and exactly one
//     bucket reports a hit for every q <= max key.
#include "rt/mapping/key_grid.h"

namespace raydb::rt::mapping {

inline constexpr int kMaxIntervalBoxes = 5;

// What the intersection program and the lookup program read (device pointers on the
// GPU): the sorted units and, per primitive, its bucket.
struct BucketTable {
  const uint64_t* unit_keys;    // sorted distinct keys
  const uint32_t* prim_bucket;  // bucket of primitive p
  uint32_t units;
  uint32_t bucket_size;
  uint32_t buckets;
  uint32_t prims;
  // Last key of every bucket (null: read from unit_keys). A compact copy (8 bytes per
  // bucket, cache-resident) so the intersection program's test touches no key column.
  const uint64_t* bucket_last;

  RAYDB_HOST_DEVICE uint64_t last(uint32_t b) const {
    if (bucket_last != nullptr) return bucket_last[b];
    const uint64_t end = (static_cast<uint64_t>(b) + 1) * bucket_size;
    return unit_keys[(end < units ? end : units) - 1];
  }
  // Whether bucket b's interval holds q (64-bit integers only).
  RAYDB_HOST_DEVICE bool covers(uint32_t b, uint64_t q) const {
    return b < buckets && q <= last(b) && (b == 0 || q > last(b - 1));
  }
};

RAYDB_HOST_DEVICE Aabb grid_box(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, uint32_t z0, uint32_t z1) {
  return Aabb{{f(x0) - 0.25f, f(y0) - 0.25f, f(z0) - 0.25f}, {f(x1) + 0.25f, f(y1) + 0.25f, f(z1) + 0.25f}};
}

// The boxes of the grid points of keys [lo, hi] (lo <= hi) into out; returns how many.
RAYDB_HOST_DEVICE int interval_boxes(uint64_t lo, uint64_t hi, Aabb* out) {
  const GridPoint a = decompose(lo), b = decompose(hi);
  const uint64_t rlo = row_of(lo), rhi = row_of(hi);
  if (rlo == rhi) {
    out[0] = grid_box(a.x, b.x, a.y, a.y, a.z, a.z);
    return 1;
  }
  int n = 0;
  out[n++] = grid_box(a.x, kXMax, a.y, a.y, a.z, a.z);
  if (rlo + 1 < rhi) {  // full rows rlo+1 .. rhi-1
    const uint64_t r1 = rlo + 1, r2 = rhi - 1;
    const uint32_t y1 = static_cast<uint32_t>(r1 & kYMax), z1 = static_cast<uint32_t>(r1 >> kYBits);
    const uint32_t y2 = static_cast<uint32_t>(r2 & kYMax), z2 = static_cast<uint32_t>(r2 >> kYBits);
    if (z1 == z2) {
      out[n++] = grid_box(0, kXMax, y1, y2, z1, z1);
    } else {
      out[n++] = grid_box(0, kXMax, y1, kYMax, z1, z1);
      if (z1 + 1 < z2) out[n++] = grid_box(0, kXMax, 0, kYMax, z1 + 1, z2 - 1);
      out[n++] = grid_box(0, kXMax, 0, y2, z2, z2);
    }
  }
  out[n++] = grid_box(0, b.x, b.y, b.y, b.z, b.z);
  return n;
}

// Key interval of bucket b: [first, last].
RAYDB_HOST_DEVICE uint64_t bucket_first(const BucketTable& t, uint32_t b) { return b == 0 ? 0 : t.last(b - 1) + 1; }

// The intersection program of bucket boxes (both tracers): point 3 above.
RAYDB_HOST_DEVICE bool intersect_bucket_box(const BucketTable& t, uint32_t prim, const Ray& r, float* hit_t) {
  if (r.dir.x != 1.0f || r.dir.y != 0.0f || r.dir.z != 0.0f) return false;
  const float xf = r.origin.x + 0.5f, yf = r.origin.y, zf = r.origin.z;
  if (!(xf >= 0.0f && xf <= f(kXMax) && yf >= 0.0f && yf <= f(kYMax) && zf >= 0.0f && zf <= f(kZMax))) return false;
  const GridPoint g{static_cast<uint32_t>(xf), static_cast<uint32_t>(yf), static_cast<uint32_t>(zf)};
  if (f(g.x) != xf || f(g.y) != yf || f(g.z) != zf) return false;  // not a point ray of the grid
  if (prim >= t.prims || !t.covers(t.prim_bucket[prim], compose(g))) return false;
  const float tt = 0.5f;  // the grid point itself
  if (!(tt > r.tmin && tt < r.tmax)) return false;
  *hit_t = tt;
  return true;
}

}  // namespace raydb::rt::mapping
