#pragma once
// The general path's equi-join as a GPU hash join (the default; RAYDB_CUDA_JOIN=sort
// keeps the sort-based join of general_kernels.h for comparisons).
//   build: an open-addressing table in pooled device memory, a power of two of slots
//     at least twice the build rows (load <= 1/2, so every probe walk ends at an empty
//     slot). Each slot holds a representative build position (high word) and a 32-bit
//     tag of the key hash (low word). Every build row whose keys are all non-NULL
//     walks from its hash (linear probing, atomicCAS on empty slots), comparing the
//     tag and then ALL key columns of the slot's representative, so each distinct key
//     tuple takes exactly one slot; the row that inserts it draws a dense key id. When
//     every key has one row (distinct == rows: the primary-key case) the table is
//     done: a slot is its row. Otherwise the rows of each key id become one CSR range,
//     in ascending build position: a stable CUB radix sort of (key id, position) over
//     only the key id's bits, the range starts read off the sorted ids.
//   probe: each probe key hashes and walks the slots the same way (count pass, which
//     remembers the matching slot), an exclusive scan, then a write pass: (probe
//     position, build row) pairs in probe order, build rows ascending within a probe:
//     the pairs and order of the sort-based join (and of the CPU).
// Key values are int128 (DOUBLE keys normalized by the caller, -0 = +0 and one NaN);
// equal values hash equally whatever program produced them.
#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/device_buffer.h"
#include "exec/cuda/general/general_kernels.h"

namespace raydb::exec::cuda::general {

// State of one probe between its count and write passes.
struct HashJoinProbe {
  gpu::DeviceBuffer slot;     // matching slot per probe row (~0u: none)
  gpu::DeviceBuffer offsets;  // first output pair per probe row
  uint64_t n = 0;        // probe rows
  uint64_t pairs = 0;    // output pairs
};

// A probe key read in place: one integer column at the probe rows, as a key program
// that is a single column load computes it (never NULL), so the probe passes read the
// column's stored bytes instead of materialized 17-byte values (a 120 M-row probe
// wrote and read 2 GB of them).
struct ColumnProbeKey {
  ProgColumn col;
  const uint32_t* rows = nullptr;  // the key table's row id per probe row
};

class HashJoinTable {
 public:
  // `keys` (n rows) must stay alive and unchanged while the table is probed: slots
  // point at their rows, and probes compare against them.
  HashJoinTable(const KeyColumns& keys, uint64_t n, cudaStream_t s);

  uint64_t rows() const { return rows_; }          // build rows with no NULL key
  uint64_t distinct() const { return distinct_; }  // distinct key tuples among them
  // Device bytes the table holds (a kept build's size, join_build_cache.h).
  uint64_t bytes() const { return slots_.bytes() + slot_kid_.bytes() + starts_.bytes() + order_.bytes(); }

  // Count pass + exclusive scan (synchronizes to read the total).
  HashJoinProbe count(const KeyColumns& probe, uint64_t n, cudaStream_t s) const;
  // The same for a one-column table probed by a key read in place.
  HashJoinProbe count(const ColumnProbeKey& probe, uint64_t n, cudaStream_t s) const;
  // One build row per key (the usual primary-key side): each probe row joins at most
  // one row, so a pass writes each probe row's slot (no per-row counts and no scan of
  // them), an ordered selection keeps the positions that found one, and their build
  // rows are read through their slots: 16 bytes of traffic per probe row instead of 48.
  // out_src: n of room; out_rows: allocated here. Returns the pairs (synchronizes).
  bool unique() const { return starts_.bytes() == 0; }
  uint64_t probe_unique(const KeyColumns& probe, uint64_t n, const uint32_t* build_rows, uint32_t* out_src,
                        gpu::DeviceBuffer& out_rows, cudaStream_t s) const;
  uint64_t probe_unique(const ColumnProbeKey& probe, uint64_t n, const uint32_t* build_rows, uint32_t* out_src,
                        gpu::DeviceBuffer& out_rows, cudaStream_t s) const;
  // out_src[k] = probe position, out_rows[k] = build_rows[build position], for the
  // p.pairs pairs.
  void write(const HashJoinProbe& p, const uint32_t* build_rows, uint32_t* out_src, uint32_t* out_rows,
             cudaStream_t s) const;

 private:
  KeyColumns keys_;
  uint64_t capacity_ = 0;  // slots, a power of two
  gpu::DeviceBuffer slots_;     // (representative position << 32) | tag, ~0 when empty
  gpu::DeviceBuffer slot_kid_;  // key id of each occupied slot
  gpu::DeviceBuffer starts_;    // non-unique: distinct + 1 range starts into order_
  gpu::DeviceBuffer order_;     // non-unique: build positions by key id, ascending within one
  uint64_t rows_ = 0, distinct_ = 0;
};

}  // namespace raydb::exec::cuda::general
