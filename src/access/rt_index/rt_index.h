#pragma once
// The RT index: RX (keys as triangles in a BVH, lookups as rays) with the optimized-
// RTX thesis' and cgRX's techniques, each behind a switch for benchmarking. The
// mapping (key grid, rays, exactness argument) is rt/mapping/key_grid.h; the lookup
// programs are rt/mapping/key_search.h; this class owns the data and the launches.
//
// Primitives ("representatives") by configuration:
//   sort_keys = false        RX as published: one primitive per row in row order,
//                            any-hit ray(s) per lookup, hit primitive = row id
//   sort_keys, bucket 1      one primitive per sorted unit (per distinct key when
//                            compress_duplicates, else per row: duplicates coincide)
//   sort_keys, bucket B > 1  cgRX: one primitive per bucket of B units (its last key),
//                            equal representatives mapped once
// Lookups: closest_hit_ranges finds the first representative >= lo with at most 5
// closest-hit rays (row and plane markers) and scans the sorted keys; otherwise RX's
// any-hit ray per row. Point lookups with bucket 1 use one short ray.
#include <memory>

#include "access/rt_index/run_index.h"
#include "rt/mapping/key_lookup.h"
#include "rt/tracer.h"

namespace raydb::access {

enum class RtPrimitive { kTriangle, kBox };

struct RtIndexOptions {
  bool sort_keys = true;
  bool compress_duplicates = true;
  bool closest_hit_ranges = true;
  uint32_t bucket_size = 1;  // cgRX bucket size in units; 1 = one primitive per unit
  uint32_t partitions = 1;   // > 1: that many structures under an instance structure
  bool sorted_probes = true;
  RtPrimitive primitive = RtPrimitive::kTriangle;
  bool compact = true;

  std::string describe() const;
};

class RtIndex final : public RunIndex {
 public:
  // Builds on `tracer` (which must outlive the index; on a GPU tracer the structures
  // and side tables are resident on the device). Throws kInvalidInput for
  // inconsistent switches (e.g. buckets without sorted keys).
  RtIndex(rt::Tracer& tracer, std::span<const uint64_t> keys, std::span<const int64_t> values,
          RtIndexOptions options = {});
  ~RtIndex() override;

  std::string name() const override { return "rt:" + options_.describe(); }
  size_t size() const override { return n_; }
  size_t primitives() const { return rep_keys_.size(); }
  const RtIndexOptions& options() const { return options_; }

  void aggregate(std::span<const KeyRange> lookups, AggregateResult& out) const override;
  void materialize(std::span<const KeyRange> lookups, RowIdLists& out) const override;

 protected:
  Run find_run(const KeyRange& q) const override;

 private:
  struct Batch;
  void build_structures(rt::Tracer& tracer);
  void upload_tables();
  Batch prepare(std::span<const KeyRange> lookups) const;
  void run(const Batch& b, rt::mapping::KeyLookupParams& p, rt::mapping::LookupMode mode) const;

  rt::Tracer& tracer_;
  RtIndexOptions options_;
  size_t n_ = 0;
  // Representatives (what the primitives encode) and, for sorted modes, the first
  // unit each one covers (size reps + 1).
  std::vector<uint64_t> rep_keys_;
  std::vector<uint32_t> rep_first_unit_;
  std::vector<int64_t> row_values_;  // sort_keys = false: values by row id
  std::vector<uint32_t> marker_rows_, marker_row_planes_, marker_planes_;
  uint32_t part_size_ = 0;
  std::vector<std::unique_ptr<rt::Accel>> parts_;
  std::unique_ptr<rt::Accel> keys_accel_;  // instance structure when partitioned
  std::unique_ptr<rt::Accel> row_markers_, plane_markers_;
  std::vector<std::unique_ptr<rt::Buffer>> table_buffers_;  // side tables where the tracer reads them
  rt::mapping::KeyTables tables_{};
};

// Index-nested-loop join of two key columns with the RT index; with inverse_mapping
// the index is built on the smaller side and the other side casts the rays. Pairs are
// (left row, right row).
JoinPairs rt_join(rt::Tracer& tracer, std::span<const uint64_t> left, std::span<const uint64_t> right,
                  const RtIndexOptions& options, bool inverse_mapping);

}  // namespace raydb::access
