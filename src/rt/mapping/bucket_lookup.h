#pragma once
// The batch lookup program of the interval-bucket RT index (bucket_grid.h): one point
// ray at the lookup's lower bound finds the bucket holding the first unit >= lo, a
// binary search inside the bucket finds that unit, and an exponential search over the
// sorted units finds the end of the range. Same result modes as key_lookup.h
// (aggregate, count, write); the same code on every tracer.
//
// Exactness: all comparisons are on 64-bit keys; the tracer only names a bucket, and
// a bucket that does not cover lo is reported as an error, never used.
#include "rt/mapping/bucket_grid.h"
#include "rt/mapping/key_lookup.h"

namespace raydb::rt::mapping {

inline constexpr uint32_t kErrorMissedBucket = 8;  // no bucket hit although lo <= max key

struct BucketLookupParams {
  BucketTable t;
  const uint32_t* unit_starts;  // first position of unit u (units + 1); null: unit u = position u
  const uint32_t* rows;         // row id at position p
  const int64_t* values;        // value at position p; null: no values (sum 0)
  const uint64_t* bounds;       // lookup i is [bounds[2i], bounds[2i+1]]
  const uint32_t* order;        // launch item j runs lookup order[j]; null: j
  uint32_t n;
  LookupMode mode;
  uint64_t* count;          // kAggregate, kCount
  int64_t* sum;             // kAggregate
  KeyRun* runs;             // kCount stores runs, kWrite reuses them (may be null)
  const uint64_t* offsets;  // kWrite: n + 1
  uint32_t* rows_out;       // kWrite
  uint32_t* error;

  RAYDB_HOST_DEVICE uint32_t start(uint32_t u) const { return unit_starts ? unit_starts[u] : u; }
};

// The run of units from u (the first unit >= lo) to the first unit > hi, as
// positions: doubling steps from u, then a binary search inside the last step, so
// wide ranges cost a logarithm, not a scan. Shared with the GPU sorted array.
RAYDB_HOST_DEVICE KeyRun units_run(const BucketLookupParams& P, uint32_t u, uint64_t lo, uint64_t hi) {
  const BucketTable& t = P.t;
  if (u >= t.units || t.unit_keys[u] > hi) return KeyRun{0, 0};
  uint32_t end;
  if (lo == hi) {
    end = u + 1;  // units are distinct
  } else {
    uint32_t below = u + 1;  // units < below are <= hi
    uint64_t step = 1;
    uint32_t above = t.units;
    for (;;) {
      const uint64_t probe = static_cast<uint64_t>(u) + step;
      if (probe >= t.units) break;
      if (t.unit_keys[probe] > hi) {
        above = static_cast<uint32_t>(probe);
        break;
      }
      below = static_cast<uint32_t>(probe) + 1;
      step *= 2;
    }
    while (below < above) {
      const uint32_t m = below + (above - below) / 2;
      if (t.unit_keys[m] <= hi)
        below = m + 1;
      else
        above = m;
    }
    end = below;
  }
  return KeyRun{P.start(u), P.start(end)};
}

// First unit in [a, e) with key >= lo (e if none).
RAYDB_HOST_DEVICE uint32_t lower_bound_units(const uint64_t* keys, uint32_t a, uint32_t e, uint64_t lo) {
  while (a < e) {
    const uint32_t m = a + (e - a) / 2;
    if (keys[m] < lo)
      a = m + 1;
    else
      e = m;
  }
  return a;
}

// First unit in [a, e) with key >= lo, searched outward from the guess g (a <= g < e):
// doubling steps towards the answer, then a binary search inside the last step. keys[e-1]
// must be >= lo. A good guess (interpolation) costs one or two reads in one cache line;
// a bad one costs at most twice a binary search.
RAYDB_HOST_DEVICE uint32_t lower_bound_near(const uint64_t* keys, uint32_t a, uint32_t e, uint32_t g, uint64_t lo) {
  uint32_t from, to;  // the answer is in [from, to]; keys[to] >= lo when to < e
  if (keys[g] < lo) {
    from = g + 1;
    to = e;
    for (uint64_t step = 1;; step *= 2) {
      const uint64_t p = static_cast<uint64_t>(g) + step;
      if (p >= e) break;
      if (keys[p] >= lo) {
        to = static_cast<uint32_t>(p);
        break;
      }
      from = static_cast<uint32_t>(p) + 1;
    }
  } else {
    from = a;
    to = g;
    for (uint64_t step = 1;; step *= 2) {
      if (g - a < step) break;
      const uint32_t p = g - static_cast<uint32_t>(step);
      if (keys[p] < lo) {
        from = p + 1;
        break;
      }
      to = p;
    }
  }
  return lower_bound_units(keys, from, to, lo);
}

// Units with lo <= key <= hi, found by one point ray at lo, as positions.
template <typename TC>
RAYDB_HOST_DEVICE KeyRun bucket_find_run(const TC& tc, const BucketLookupParams& P, uint64_t lo, uint64_t hi) {
  const BucketTable& t = P.t;
  KeyRun none{0, 0};
  if (lo > hi || t.units == 0 || lo > t.unit_keys[t.units - 1]) return none;
  // Exactly one bucket covers lo, so the first reported hit is the answer
  // (TC::first_hit: the tracer may stop traversal there).
  const Hit h = tc.first_hit(Slot::kKeys, point_ray(decompose(lo)));
  if (!h.valid()) {
    report_error(P.error, kErrorMissedBucket);
    return none;
  }
  const uint32_t b = h.primitive < t.prims ? t.prim_bucket[h.primitive] : kNone;
  if (!t.covers(b, lo)) {
    report_error(P.error, kErrorBadHit);
    return none;
  }
  // The first unit >= lo is inside the bucket, since lo <= last(b). Start where lo
  // would sit if the bucket's keys were spread evenly over its interval (a guess only:
  // lower_bound_near is exact for any distribution).
  const uint64_t a = static_cast<uint64_t>(b) * t.bucket_size;
  const uint64_t e = a + t.bucket_size < t.units ? a + t.bucket_size : t.units;
  const uint64_t first = bucket_first(t, b), last = t.last(b);
  const double frac = static_cast<double>(lo - first) / (static_cast<double>(last - first) + 1.0);
  uint64_t g = a + static_cast<uint64_t>(frac * static_cast<double>(e - a));
  if (g >= e) g = e - 1;
  const uint32_t u =
      lower_bound_near(t.unit_keys, static_cast<uint32_t>(a), static_cast<uint32_t>(e), static_cast<uint32_t>(g), lo);
  return units_run(P, u, lo, hi);
}

// Lookup i of launch item j (sorted probes permute).
RAYDB_HOST_DEVICE uint32_t lookup_of(const BucketLookupParams& P, uint32_t j) {
  return P.order != nullptr ? P.order[j] : j;
}

// Writes lookup i's result for the pass's mode.
RAYDB_HOST_DEVICE void emit_run(const BucketLookupParams& P, uint32_t i, KeyRun run) {
  const uint32_t c = run.end - run.begin;
  if (P.mode == LookupMode::kCount) {
    P.count[i] = c;
    if (P.runs != nullptr) P.runs[i] = run;
  } else if (P.mode == LookupMode::kAggregate) {
    int64_t s = 0;
    if (P.values != nullptr)
      for (uint32_t p = run.begin; p < run.end; ++p) s += P.values[p];
    P.count[i] = c;
    P.sum[i] = s;
  } else {
    uint64_t o = P.offsets[i];
    if (P.offsets[i + 1] - o != c) {
      report_error(P.error, kErrorWriteMismatch);
      return;
    }
    for (uint32_t p = run.begin; p < run.end; ++p) P.rows_out[o++] = P.rows[p];
  }
}

template <typename TC>
RAYDB_HOST_DEVICE void bucket_lookup(const TC& tc, const BucketLookupParams& P, uint32_t j) {
  if (j >= P.n) return;
  const uint32_t i = lookup_of(P, j);
  const uint64_t lo = P.bounds[2 * static_cast<uint64_t>(i)], hi = P.bounds[2 * static_cast<uint64_t>(i) + 1];
  const KeyRun run = (P.mode == LookupMode::kWrite && P.runs != nullptr) ? P.runs[i] : bucket_find_run(tc, P, lo, hi);
  emit_run(P, i, run);
}

}  // namespace raydb::rt::mapping
