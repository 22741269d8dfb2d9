#pragma once
// A join step's build side: built before any probe (the CPU builds every side first),
// with the CPU's estimate of its match fraction for ordering the steps.
//   join_build: scan, key and build every side (hash table, or sorted hashes when
//     cuda_join = sort), then the CPU's join order;
//   join_probe: probe the sides in that order (hash/sort join, cross product, or an
//     index join), then each step's residuals.
#include <memory>
#include <optional>
#include <vector>

#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/general_query.h"
#include "exec/cuda/general/hash_join.h"
#include "exec/cuda/general/join_build_cache.h"

namespace raydb::exec::cuda::general {

struct BuildSide {
  const GeneralJoin* j = nullptr;
  Tuples b;
  std::vector<Column128> bk;
  KeyColumns keys;
  gpu::DeviceBuffer valid, hash, pos;    // the sort-based join's
  std::shared_ptr<const HashJoinTable> table;  // the hash join's (the default)
  // A build kept from an earlier statement (join_build_cache.h): its key values, which
  // `keys` and the table point at, live while it does.
  std::shared_ptr<const KeptJoinBuild> kept;
  bool reused = false;  // the table came from the cache (the trace's mark says so)
  double selectivity = 0;
  std::vector<const CompiledProgram*> residuals;
};

// The access-path choice's index join for step j, if it gave it one.
const std::optional<plan::IndexJoin>& index_join_of(const GeneralQuery& g, const GeneralJoin& j);

// DOUBLE join keys compare as the CPU's do: -0.0 = +0.0, every NaN one value.
void normalize_double_keys(const GeneralQuery& g, const std::vector<CompiledProgram>& keys,
                           std::vector<Column128>& cols, uint64_t n);

std::unique_ptr<BuildSide> build_join_side(GeneralQuery& g, const GeneralJoin& j);
// The shared join order (exec/core/join_order.h), each step given the residuals that
// first bind their tables there.
std::vector<BuildSide*> order_join_sides(GeneralQuery& g, std::vector<std::unique_ptr<BuildSide>>& sides);
// Joins the current rows with one side, then filters them by its residuals.
void probe_join_side(GeneralQuery& g, BuildSide& side, Tuples& cur);

}  // namespace raydb::exec::cuda::general
