#pragma once
// The programs a tracer launches over a batch (Tracer::launch): each is one function of
// the launch item, written against the trace context of key_search.h, so the Embree
// tracer runs it in a CPU loop and the OptiX tracer as its raygen program.
//
//   kRays       the tracer's own ray batch (closest hit per ray, or all hits per ray in
//               a count and a write pass); Tracer::closest/all_hits on the GPU, tests
//   kKeyLookup  the RT index's lookups (key_lookup.h)
//   kBucketLookup  the interval-bucket RT index's lookups (bucket_lookup.h)
//   kScanRefine    RT scan's matrix refine over residual cell boxes (scan_refine.h)
#include "rt/mapping/bucket_lookup.h"
#include "rt/mapping/key_lookup.h"
#include "rt/mapping/scan_refine.h"

namespace raydb::rt::mapping {

enum class Program : uint32_t { kRays = 0, kKeyLookup = 1, kBucketLookup = 2, kScanRefine = 3 };

enum class RayMode : uint32_t { kClosest = 0, kCountAll = 1, kWriteAll = 2 };

// kRays traces slot 0 (Slot::kKeys).
struct RayBatchParams {
  const Ray* rays;
  uint32_t n;
  RayMode mode;
  Hit* hits;                // kClosest: one per ray; kWriteAll: at offsets
  uint32_t* counts;         // kCountAll
  const uint64_t* offsets;  // kWriteAll: n + 1
};

// All hits of one ray, written while there is room (the count pass sized it).
struct CollectAction {
  Hit* out;
  uint64_t left;
  uint32_t count;
  RAYDB_HOST_DEVICE bool operator()(const Hit& h) {
    ++count;
    if (out != nullptr && left > 0) {
      *out++ = h;
      --left;
    }
    return true;
  }
};

template <typename TC>
RAYDB_HOST_DEVICE void trace_rays(const TC& tc, const RayBatchParams& P, uint32_t i) {
  if (i >= P.n) return;
  const Ray r = P.rays[i];
  if (P.mode == RayMode::kClosest) {
    P.hits[i] = tc.closest(Slot::kKeys, r);
    return;
  }
  CollectAction a{nullptr, 0, 0};
  if (P.mode == RayMode::kWriteAll) {
    a.out = P.hits + P.offsets[i];
    a.left = P.offsets[i + 1] - P.offsets[i];
  }
  tc.all_hits(Slot::kKeys, r, a);
  if (P.mode == RayMode::kCountAll) P.counts[i] = a.count;
}

}  // namespace raydb::rt::mapping
