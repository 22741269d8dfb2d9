#pragma once
// The RT index's batch lookup program: one call per lookup of a launch, the same code
// on every tracer (the Embree tracer loops over the batch on CPU threads, the OptiX
// tracer runs it as the raygen program of one optixLaunch). It finds the lookup's
// result with the searches of key_search.h and applies the hit action of the launch:
// count + sum (aggregate), count (first pass of materialize) or write row ids (second
// pass, at offsets from an exclusive prefix sum of the counts).
//
// Exactness: nothing here compares floats. Every key a ray reports is re-checked
// against the lookup in 64-bit integers (KeyHitAction, and the closest-hit check in
// find_run); the float32 side (key_grid.h points 1-3) only has to make sure no key is
// missed. Inconsistencies a tracer could cause are reported in `error`, never turned
// into a result.
#include "rt/mapping/key_search.h"

namespace raydb::rt::mapping {

// What the index keeps beside its structures (device pointers on the GPU).
// Positions are the sorted key column (or the rows themselves for RX); units are what
// primitives encode before bucketing (distinct keys when compressed, else positions).
struct KeyTables {
  KeySearchParams search;          // representatives, markers, partition size
  uint32_t reps;                   // representatives over all partitions
  uint32_t units;                  // units (RX: rows)
  uint32_t positions;              // sorted positions (RX: rows)
  const uint64_t* unit_keys;       // key of unit u (closest-hit scan); null for RX
  const uint32_t* unit_starts;     // first position of unit u (units + 1); null: unit u = position u
  const uint32_t* rep_first_unit;  // cgRX buckets: first unit of representative r (reps + 1); null: r = unit r
  const uint32_t* rows;            // row id at position p; null: p is the row id (RX)
  const int64_t* values;           // value at position p; null: no values (sum 0)

  RAYDB_HOST_DEVICE uint32_t unit_start(uint32_t u) const { return unit_starts ? unit_starts[u] : u; }
  RAYDB_HOST_DEVICE uint32_t row(uint32_t p) const { return rows ? rows[p] : p; }
  RAYDB_HOST_DEVICE int64_t value(uint32_t p) const { return values ? values[p] : 0; }
};

enum class LookupStrategy : uint32_t {
  kClosestScan = 0,  // first representative >= lo (or == lo by a point ray), then scan units
  kAnyHit = 1,       // RX: rays over the rows of [lo, hi], every hit visited
};
enum class LookupMode : uint32_t { kAggregate = 0, kCount = 1, kWrite = 2 };

// Error bits (OR-ed into KeyLookupParams::error).
inline constexpr uint32_t kErrorClosestBelow = 1;   // a closest hit below the lookup's lower bound
inline constexpr uint32_t kErrorWriteMismatch = 2;  // write pass found other hits than the count pass
inline constexpr uint32_t kErrorBadHit = 4;         // a hit outside the representatives

struct KeyRun {
  uint32_t begin, end;  // positions [begin, end)
};

struct KeyLookupParams {
  KeyTables t;
  const uint64_t* bounds;  // lookup i is [bounds[2i], bounds[2i+1]] (empty when lo > hi)
  const uint32_t* order;   // launch item j runs lookup order[j] (sorted probes); null: j
  uint32_t n;
  LookupStrategy strategy;
  LookupMode mode;
  uint32_t point_rays;  // closest-scan: lo == hi uses one short any-hit ray (bucket size 1 only)
  uint64_t* count;      // kAggregate, kCount: per lookup
  int64_t* sum;         // kAggregate: per lookup
  KeyRun* runs;         // closest-scan: kCount stores runs, kWrite reuses them (may be null)
  const uint64_t* offsets;  // kWrite: n + 1 offsets into rows_out
  uint32_t* rows_out;       // kWrite
  uint32_t* error;          // one word, OR of kError* bits
};

RAYDB_HOST_DEVICE void report_error(uint32_t* error, uint32_t bits) {
#if defined(__CUDA_ARCH__)
  atomicOr(error, bits);
#else
  __atomic_fetch_or(error, bits, __ATOMIC_RELAXED);
#endif
}

// The any-hit action of key rays: keeps hits whose key lies in [lo, hi] (checked in
// integers) and either stops at the first (find_equal) or visits all positions of the
// hit unit: counts, sums and optionally writes their row ids.
struct KeyHitAction {
  const KeyTables* t;
  uint64_t lo, hi;
  uint32_t stop_at_first;
  uint32_t found;
  uint32_t errors;
  uint64_t count;
  int64_t sum;
  uint32_t* out;  // null: no writes
  uint64_t out_left;

  RAYDB_HOST_DEVICE bool operator()(const Hit& h) {
    const uint32_t r = t->search.global(h);
    if (r >= t->reps) {
      errors |= kErrorBadHit;
      return true;
    }
    const uint64_t k = t->search.rep_keys[r];
    if (k < lo || k > hi) return true;  // a neighbour the float test let through: not ours
    if (stop_at_first) {
      found = r;
      return false;
    }
    const uint32_t e = t->unit_start(r + 1);
    for (uint32_t p = t->unit_start(r); p < e; ++p) {
      ++count;
      sum += t->value(p);
      if (out != nullptr) {
        if (out_left == 0) {
          errors |= kErrorWriteMismatch;
        } else {
          *out++ = t->row(p);
          --out_left;
        }
      }
    }
    return true;
  }
};

RAYDB_HOST_DEVICE KeyHitAction make_key_action(const KeyTables& t, uint64_t lo, uint64_t hi) {
  KeyHitAction a;
  a.t = &t;
  a.lo = lo;
  a.hi = hi;
  a.stop_at_first = 0;
  a.found = kNone;
  a.errors = 0;
  a.count = 0;
  a.sum = 0;
  a.out = nullptr;
  a.out_left = 0;
  return a;
}

// Any representative with key == q (a short ray around q's point; stops at the first
// verified hit), or kNone. RX's point lookup.
template <typename TC>
RAYDB_HOST_DEVICE uint32_t find_equal(const TC& tc, const KeyTables& t, uint64_t q, uint32_t* error) {
  KeyHitAction a = make_key_action(t, q, q);
  a.stop_at_first = 1;
  tc.all_hits(Slot::kKeys, point_ray(decompose(q)), a);
  if (a.errors != 0) report_error(error, a.errors);
  return a.found;
}

// The closest-scan strategy: the run of sorted positions with lo <= key <= hi.
template <typename TC>
RAYDB_HOST_DEVICE KeyRun find_run(const TC& tc, const KeyTables& t, uint64_t lo, uint64_t hi, bool point_rays,
                                  uint32_t* error) {
  KeyRun none{0, 0};
  if (lo > hi || t.reps == 0) return none;
  uint32_t r;
  if (point_rays && lo == hi && t.rep_first_unit == nullptr) {
    r = find_equal(tc, t, lo, error);
  } else {
    r = first_at_least(tc, t.search, lo);
    // Cannot happen by key_grid.h; if a tracer ever did it, say so instead of answering.
    if (r != kNone && (r >= t.reps || t.search.rep_keys[r] < lo)) {
      report_error(error, kErrorClosestBelow);
      return none;
    }
  }
  if (r == kNone) return none;
  uint32_t u = r;
  if (t.rep_first_unit != nullptr) {  // cgRX: lower bound of lo within the representative's bucket
    uint32_t a = t.rep_first_unit[r], b = t.rep_first_unit[r + 1];
    while (a < b) {
      const uint32_t m = a + (b - a) / 2;
      if (t.unit_keys[m] < lo) a = m + 1; else b = m;
    }
    u = a;
  }
  // Uncompressed duplicates coincide: the ray may report any copy; start at the first.
  while (u > 0 && t.unit_keys[u - 1] >= lo) --u;
  uint32_t e = u;
  while (e < t.units && t.unit_keys[e] <= hi) ++e;
  return KeyRun{t.unit_start(u), t.unit_start(e)};
}

// Launch item j of a key lookup launch.
template <typename TC>
RAYDB_HOST_DEVICE void key_lookup(const TC& tc, const KeyLookupParams& L, uint32_t j) {
  if (j >= L.n) return;
  const uint32_t i = L.order != nullptr ? L.order[j] : j;
  const uint64_t lo = L.bounds[2 * static_cast<uint64_t>(i)], hi = L.bounds[2 * static_cast<uint64_t>(i) + 1];
  const KeyTables& t = L.t;
  if (L.strategy == LookupStrategy::kClosestScan) {
    const KeyRun run = (L.mode == LookupMode::kWrite && L.runs != nullptr)
                           ? L.runs[i]
                           : find_run(tc, t, lo, hi, L.point_rays != 0, L.error);
    const uint32_t c = run.end - run.begin;
    if (L.mode == LookupMode::kCount) {
      L.count[i] = c;
      if (L.runs != nullptr) L.runs[i] = run;
    } else if (L.mode == LookupMode::kAggregate) {
      int64_t s = 0;
      if (t.values != nullptr)
        for (uint32_t p = run.begin; p < run.end; ++p) s += t.values[p];
      L.count[i] = c;
      L.sum[i] = s;
    } else {
      uint64_t o = L.offsets[i];
      if (L.offsets[i + 1] - o != c) {
        report_error(L.error, kErrorWriteMismatch);
        return;
      }
      for (uint32_t p = run.begin; p < run.end; ++p) L.rows_out[o++] = t.row(p);
    }
    return;
  }
  KeyHitAction a = make_key_action(t, lo, hi);
  if (L.mode == LookupMode::kWrite) {
    a.out = L.rows_out + L.offsets[i];
    a.out_left = L.offsets[i + 1] - L.offsets[i];
  }
  for_each_row_ray(tc, lo, hi, a);
  if (L.mode == LookupMode::kWrite && (a.out_left != 0 || a.count != L.offsets[i + 1] - L.offsets[i]))
    a.errors |= kErrorWriteMismatch;
  if (a.errors != 0) report_error(L.error, a.errors);
  if (L.mode != LookupMode::kWrite) L.count[i] = a.count;
  if (L.mode == LookupMode::kAggregate) L.sum[i] = a.sum;
}

}  // namespace raydb::rt::mapping
