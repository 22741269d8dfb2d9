#pragma once
// The RT index's lookup programs over the key grid (key_grid.h), written once
// against a trace context so the Embree tracer and OptiX device programs share them.
//
// A trace context TC provides (the Embree tracer's host context and the OptiX
// raygen's device context both do):
//   Hit  closest(Slot, const Ray&)              nearest hit, or !valid()
//   Hit  first_hit(Slot, const Ray&)            any one hit (for structures where at most one
//                                               primitive reports a hit: interval buckets)
//   void all_hits(Slot, const Ray&, A& action)  action(const Hit&) -> bool (false: stop);
//                                               on the GPU the any-hit program calls it,
//                                               so actions are named types (key_lookup.h)
// and KeySearchParams the side tables (device pointers on the GPU).
#include "rt/mapping/key_grid.h"

namespace raydb::rt::mapping {

enum class Slot : uint32_t { kKeys = 0, kRowMarkers = 1, kPlaneMarkers = 2 };

struct KeySearchParams {
  const uint64_t* rep_keys;     // key of representative i (what primitive i encodes)
  const uint32_t* marker_rows;  // y of row-marker primitive i
  const uint32_t* marker_planes;  // z of plane-marker primitive i
  uint32_t part_size;           // representatives per partition (instance)

  // Representative index of a key hit: instance offset + primitive.
  RAYDB_HOST_DEVICE uint32_t global(const Hit& h) const { return h.instance * part_size + h.primitive; }
};

inline constexpr uint32_t kNone = 0xFFFFFFFFu;

// First representative with key >= q (closest-hit), or kNone: cgRX's marker search,
// at most 5 rays. 1) q's own row from x_q on; 2) the next non-empty row of q's plane
// (row-marker column), then that row from x = 0; 3) the next non-empty plane (plane
// markers), its first row, that row's first key.
template <typename TC>
RAYDB_HOST_DEVICE uint32_t first_at_least(const TC& tc, const KeySearchParams& p, uint64_t q) {
  const GridPoint g = decompose(q);
  Hit h = tc.closest(Slot::kKeys, row_ray(g.y, g.z, g.x, kXMax));
  if (h.valid()) return p.global(h);
  uint32_t z = g.z;
  uint32_t y = kNone;
  if (g.y < kYMax) {
    h = tc.closest(Slot::kRowMarkers, row_marker_ray(g.z, g.y + 1));
    if (h.valid()) y = p.marker_rows[h.primitive];
  }
  if (y == kNone) {
    if (g.z == kZMax) return kNone;
    h = tc.closest(Slot::kPlaneMarkers, plane_marker_ray(g.z + 1));
    if (!h.valid()) return kNone;
    z = p.marker_planes[h.primitive];
    h = tc.closest(Slot::kRowMarkers, row_marker_ray(z, 0));
    if (!h.valid()) return kNone;  // a plane marker always has a row marker
    y = p.marker_rows[h.primitive];
  }
  h = tc.closest(Slot::kKeys, row_ray(y, z, 0, kXMax));
  return h.valid() ? p.global(h) : kNone;
}

// RX's any-hit range lookup: one +x ray per row between lo's and hi's rows. The action
// sees every key hit of those rays and must re-check the key against [lo, hi] in
// integers (key_grid.h point 4); rows are disjoint, so each key is hit exactly once
// (tracers are asked for a single any-hit call per primitive). Cost grows with rows.
template <typename TC, typename Action>
RAYDB_HOST_DEVICE void for_each_row_ray(const TC& tc, uint64_t lo, uint64_t hi, Action& action) {
  if (lo > hi) return;
  const uint64_t row_lo = row_of(lo), row_hi = row_of(hi);
  const uint32_t x_lo = decompose(lo).x, x_hi = decompose(hi).x;
  for (uint64_t row = row_lo;; ++row) {
    const uint32_t y = static_cast<uint32_t>(row & kYMax), z = static_cast<uint32_t>(row >> kYBits);
    const uint32_t from = row == row_lo ? x_lo : 0, to = row == row_hi ? x_hi : kXMax;
    tc.all_hits(Slot::kKeys, row_ray(y, z, from, to), action);
    if (row == row_hi) break;
  }
}

}  // namespace raydb::rt::mapping
