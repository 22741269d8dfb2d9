#pragma once
// What the OptiX tracer hands its device programs (device_programs.cu): the launch
// parameters (one __constant__ struct per launch) and the data of a hit-group record.
// Shared by the host tracer (g++) and the device programs (nvcc); no OptiX types, so
// the host side of the rest of raydb never needs the OptiX headers.
#include "rt/mapping/launch.h"
#include "rt/mapping/view_aggregate.h"

namespace raydb::rt::optix {

struct LaunchParams {
  uint32_t program;  // mapping::Program
  uint32_t base;     // first launch item (launches over 2^30 items run in chunks)
  // Per mapping::Slot: the traversable (0: nothing to trace, rays miss), the
  // optixTrace SBT offset (a GAS's own hit record; 0 for an instance structure,
  // whose instances carry their child's record) and whether hits come through
  // instances (instance index = partition) or straight from one GAS (instance 0).
  uint64_t handles[3];
  uint32_t sbt_offset[3];
  uint32_t instanced[3];
  mapping::ViewAggregateParams view;  // program mapping::kViewAggregate (RT views)
  mapping::KeyLookupParams key;   // program kKeyLookup
  mapping::RayBatchParams rays;   // program kRays
  mapping::BucketLookupParams bucket;  // program kBucketLookup
  mapping::ScanRefineParams scan;      // program kScanRefine
};

// Hit-group record data: the key of each custom primitive of a key-box GAS (null for
// the triangle record, which all triangle structures share), or the bucket table of an
// interval-bucket GAS, or the cubes of an RT scan group (device pointers).
struct HitRecordData {
  const uint64_t* box_keys;
  mapping::BucketTable buckets;
  mapping::ScanCubes scan;
};

// The any-hit program calls the action the payload points to; its type travels as a tag.
enum ActionTag : uint32_t { kKeyHitAction = 1, kCollectAction = 2, kScanHitAction = 3 };
inline constexpr uint32_t kInstancedFlag = 0x100;  // or-ed into the tag: hits come through instances

}  // namespace raydb::rt::optix
