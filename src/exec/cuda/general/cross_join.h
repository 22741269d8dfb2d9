#pragma once
// Kernels for cross products (join steps without keys) and for the CPU's join order
// (cpu_executor's order_joins ranks built sides by exact counts).
#include <cuda_runtime.h>

#include <cstdint>

#include "exec/cuda/general/general_kernels.h"

namespace raydb::exec::cuda::general {

// Cross product of n probe rows with b build rows, probe-major (the CPU's order):
// output row o pairs probe row o / b with build row o % b.
// out[o] = probe_rows[o / b], for o in [0, n * b).
void launch_cross_probe(const uint32_t* probe_rows, uint64_t m, uint64_t b, uint32_t* out, cudaStream_t s);
// out[o] = build_rows[o % b].
void launch_cross_build(const uint32_t* build_rows, uint64_t m, uint64_t b, uint32_t* out, cudaStream_t s);

// Over a build side sorted by key hash (hash, pos as launch_join_hash + sort_pairs_u64
// leave them): the rows whose keys are all non-NULL, and their distinct key tuples
// (exact: equal hashes are told apart by comparing the keys).
void count_build_keys(const KeyColumns& keys, const uint8_t* valid, const unsigned long long* hash_sorted,
                      const uint32_t* pos_sorted, uint64_t n, uint64_t& valid_rows, uint64_t& distinct,
                      cudaStream_t s);

}  // namespace raydb::exec::cuda::general
