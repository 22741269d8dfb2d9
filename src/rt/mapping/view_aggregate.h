#pragma once
// The RT view launch program (RTCUDB's one ray-tracing job): launch item j is one ray
// (Z segment, traced view group, lane) of view_grid.h (the traced groups are those
// group pruning kept: access/rt_view/view_group_prune.h); its any-hit action checks the filter
// attributes that are not fully decided by Z, reads the aggregate inputs of the hit
// row (bit-packed X word or side arrays, by primitive id) and aggregates exactly.
//
// Accumulation: every hit of one ray belongs to the ray's group (view_grid.h, Y), so
// the action keeps per-ray partials (count, 128-bit sums, min, max) and adds them to
// the group's accumulators once per ray, not once per hit. This removes RTCUDB's
// contention on a single accumulator for queries without GROUP BY (all L lanes of a
// segment flush into one slot L times per segment instead of once per row).
// kPerHit keeps the paper's per-hit atomics for comparison.
//
// Accumulator row of an output group (uint64 words, `stride` of them):
//   [0] count, then per aggregate slot a at 1 + 2a: kSum low/high words of an int128,
//   kMin / kMax one int64 word.
#include "rt/mapping/launch.h"
#include "rt/mapping/view_atomics.h"
#include "rt/mapping/view_grid.h"

namespace raydb::rt::mapping {

// Not a member of Program's enumerator list, so other programs can be added there
// without touching this file (and the other way round).
inline constexpr Program kViewAggregate = static_cast<Program>(16);

inline constexpr uint32_t kViewMaxInputs = 8;
inline constexpr uint32_t kViewMaxSlots = 8;
inline constexpr uint32_t kViewMaxChecks = 8;

enum class ViewSlotOp : uint32_t { kSum = 0, kMin = 1, kMax = 2 };
enum class ViewAccumulate : uint32_t { kPerRay = 0, kPerHit = 1 };

inline constexpr uint32_t kViewErrorBadPrimitive = 1;

// Where aggregate input i of a row lives. value = base + field, the field being
// (xword >> shift) & mask when packed into X, else u32[row], else i64[row] (base 0).
// A merged view (ViewAggregateParams::counts set) has no per-row values: primitive p
// stands for counts[p] rows with equal codes, whose input i sums to sum[p] and ranges
// over [min[p], max[p]].
struct ViewInput {
  uint32_t in_x;
  uint32_t shift;
  uint32_t mask;
  uint32_t pad;
  int64_t base;
  const uint32_t* u32;
  const int64_t* i64;
  const int64_t* sum;
  const int64_t* min;
  const int64_t* max;
};

// A filter attribute the Z interval does not decide: its code is (z / div) % radix
// (a Z digit) when codes is null, else codes[row]; allowed when bit `code` of `bits`.
struct ViewCheck {
  uint32_t div;
  uint32_t radix;
  const uint32_t* codes;
  const uint32_t* bits;
};

struct ViewAggregateParams {
  uint64_t item_base;   // launch item j is ray item_base + j (launches of > 2^32 rays run in chunks)
  uint64_t items;       // rays in all: segments * groups * lanes
  uint32_t groups;      // traced view groups (entries of `traced`)
  uint32_t lanes;       // L
  uint32_t lane_width;  // D
  uint32_t rows;        // primitives
  const uint32_t* counts;     // rows per primitive of a merged view (null: one row each)
  const uint32_t* segments;   // 2 per Z segment: zlo, zhi (inclusive, disjoint)
  const uint32_t* traced;     // traced index -> view group (its Y row)
  const uint32_t* group_map;  // traced index -> output group; kNone: no ray for it
  const uint32_t* xwords;     // packed X word per row (null when nothing is packed)
  ViewInput inputs[kViewMaxInputs];
  uint32_t slots;
  uint32_t checks;
  uint32_t slot_op[kViewMaxSlots];     // ViewSlotOp
  uint32_t slot_input[kViewMaxSlots];  // input of the slot (unused by COUNT-only requests)
  ViewCheck check[kViewMaxChecks];
  uint32_t stride;     // accumulator words per output group
  uint32_t accumulate; // ViewAccumulate
  uint64_t* acc;       // output groups * stride words
  uint32_t* seen;      // one bit per primitive: duplicate detection (null: off)
  uint64_t* duplicates;  // hits of a primitive already seen (with seen)
  uint64_t* hits;        // all accepted hits (statistics; may be null)
  uint64_t* flushes;     // accumulator flushes: rays with hits (per-ray), hits (per-hit); with hits
  uint32_t* error;
};

RAYDB_HOST_DEVICE int64_t view_input_value(const ViewAggregateParams& p, uint32_t i, uint32_t row) {
  const ViewInput& in = p.inputs[i];
  if (in.in_x) return in.base + static_cast<int64_t>((p.xwords[row] >> in.shift) & in.mask);
  if (in.u32 != nullptr) return in.base + static_cast<int64_t>(in.u32[row]);
  return in.i64[row];
}

RAYDB_HOST_DEVICE bool view_row_passes(const ViewAggregateParams& p, uint32_t row, uint32_t z) {
  for (uint32_t c = 0; c < p.checks; ++c) {
    const ViewCheck& k = p.check[c];
    const uint32_t code = k.codes != nullptr ? k.codes[row] : (z / k.div) % k.radix;
    if (((k.bits[code >> 5] >> (code & 31)) & 1u) == 0) return false;
  }
  return true;
}

// Per-ray partials of one output group.
struct ViewPartial {
  uint64_t count;
  ViewI128 sum[kViewMaxSlots];
  int64_t ext[kViewMaxSlots];  // running min or max

  RAYDB_HOST_DEVICE void reset(const ViewAggregateParams& p) {
    count = 0;
    for (uint32_t s = 0; s < p.slots; ++s) {
      sum[s] = ViewI128{0, 0};
      ext[s] = p.slot_op[s] == static_cast<uint32_t>(ViewSlotOp::kMin) ? INT64_MAX : INT64_MIN;
    }
  }
  RAYDB_HOST_DEVICE void add_row(const ViewAggregateParams& p, uint32_t row) {
    if (p.counts != nullptr) {
      add_merged(p, row);
      return;
    }
    ++count;
    for (uint32_t s = 0; s < p.slots; ++s) {
      const int64_t v = view_input_value(p, p.slot_input[s], row);
      const uint32_t op = p.slot_op[s];
      if (op == static_cast<uint32_t>(ViewSlotOp::kSum)) {
        sum[s].add(v);
      } else if (op == static_cast<uint32_t>(ViewSlotOp::kMin)) {
        ext[s] = v < ext[s] ? v : ext[s];
      } else {
        ext[s] = v > ext[s] ? v : ext[s];
      }
    }
  }
  // A merged primitive: its rows' count, sums, minimum and maximum (exact: every row
  // of it has the same codes, so a query takes all of them or none).
  RAYDB_HOST_DEVICE void add_merged(const ViewAggregateParams& p, uint32_t prim) {
    count += p.counts[prim];
    for (uint32_t s = 0; s < p.slots; ++s) {
      const ViewInput& in = p.inputs[p.slot_input[s]];
      const uint32_t op = p.slot_op[s];
      if (op == static_cast<uint32_t>(ViewSlotOp::kSum)) {
        sum[s].add(in.sum[prim]);
      } else if (op == static_cast<uint32_t>(ViewSlotOp::kMin)) {
        ext[s] = in.min[prim] < ext[s] ? in.min[prim] : ext[s];
      } else {
        ext[s] = in.max[prim] > ext[s] ? in.max[prim] : ext[s];
      }
    }
  }
  RAYDB_HOST_DEVICE void flush(const ViewAggregateParams& p, uint64_t* acc_row) const {
    if (count == 0) return;
    view_atomic_add(acc_row, count);
    for (uint32_t s = 0; s < p.slots; ++s) {
      uint64_t* w = acc_row + 1 + 2 * s;
      const uint32_t op = p.slot_op[s];
      if (op == static_cast<uint32_t>(ViewSlotOp::kSum)) {
        if (sum[s].lo != 0 || sum[s].hi != 0) view_atomic_add128(w, sum[s]);
      } else if (op == static_cast<uint32_t>(ViewSlotOp::kMin)) {
        view_atomic_min(reinterpret_cast<int64_t*>(w), ext[s]);
      } else {
        view_atomic_max(reinterpret_cast<int64_t*>(w), ext[s]);
      }
    }
  }
};

// The any-hit action of one view ray.
struct ViewHitAction {
  const ViewAggregateParams* p;
  uint64_t* acc_row;  // the ray's output group
  uint32_t zlo;
  uint32_t errors;
  uint64_t hits;
  ViewPartial part;

  RAYDB_HOST_DEVICE bool operator()(const Hit& h) {
    const ViewAggregateParams& P = *p;
    const uint32_t row = h.primitive;
    if (row >= P.rows) {
      errors |= kViewErrorBadPrimitive;
      return true;
    }
    if (P.seen != nullptr && view_test_and_set(P.seen, row)) {
      view_atomic_add(P.duplicates, 1);
      return true;
    }
    if (P.checks != 0 && !view_row_passes(P, row, view_hit_z(zlo, h.t))) return true;
    ++hits;
    part.add_row(P, row);
    if (P.accumulate == static_cast<uint32_t>(ViewAccumulate::kPerHit)) {
      part.flush(P, acc_row);
      part.reset(P);
    }
    return true;
  }
};

// Launch item j: the ray of (segment, traced group, lane) with index item_base + j.
template <typename TC>
RAYDB_HOST_DEVICE void view_aggregate(const TC& tc, const ViewAggregateParams& P, uint32_t j) {
  const uint64_t i = P.item_base + j;
  if (i >= P.items) return;
  const uint32_t lane = static_cast<uint32_t>(i % P.lanes);
  const uint64_t sg = i / P.lanes;
  const uint32_t t = static_cast<uint32_t>(sg % P.groups);
  const uint32_t g = P.traced[t];
  const uint32_t seg = static_cast<uint32_t>(sg / P.groups);
  const uint32_t out = P.group_map[t];
  if (out == kNone) return;
  const uint32_t zlo = P.segments[2 * seg], zhi = P.segments[2 * seg + 1];
  ViewHitAction a;
  a.p = &P;
  a.acc_row = P.acc + static_cast<uint64_t>(out) * P.stride;
  a.zlo = zlo;
  a.errors = 0;
  a.hits = 0;
  a.part.reset(P);
  tc.all_hits(Slot::kKeys, view_ray(zlo, zhi, g, lane, P.lane_width), a);
  a.part.flush(P, a.acc_row);
  if (a.hits != 0 && P.hits != nullptr) {
    view_atomic_add(P.hits, a.hits);
    view_atomic_add(P.flushes, P.accumulate == static_cast<uint32_t>(ViewAccumulate::kPerHit) ? a.hits : 1);
  }
  if (a.errors != 0) report_error(P.error, a.errors);
}

}  // namespace raydb::rt::mapping
