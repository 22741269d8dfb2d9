// Join build sides and their order (join_side.h).
#include <algorithm>
#include <optional>

#include "common/error.h"
#include "exec/core/join_order.h"
#include "exec/cuda/general/cross_join.h"
#include "exec/cuda/general/group_kernels.h"
#include "exec/cuda/general/join_side.h"
#include "exec/cuda/general/scan_step.h"
#include "gpu/memory_pool.h"

namespace raydb::exec::cuda::general {

const std::optional<plan::IndexJoin>& index_join_of(const GeneralQuery& g, const GeneralJoin& j) {
  return g.plan.joins[size_t(&j - g.gp.joins.data())].index_join;
}

void normalize_double_keys(const GeneralQuery& g, const std::vector<CompiledProgram>& keys,
                           std::vector<Column128>& cols, uint64_t n) {
  for (size_t k = 0; k < keys.size(); k++)
    if (keys[k].kind == VectorKind::kDouble) launch_normalize_doubles(cols[k].values.get<__int128>(), cols[k].nl(), n, g.s);
}

namespace {

// The sort-based build: key hashes radix-sorted with their positions, valid rows and
// distinct keys counted over the sorted hashes.
void sort_build(GeneralQuery& g, BuildSide& side, uint64_t& rows, uint64_t& distinct) {
  const uint64_t nb = side.b.n;
  const uint64_t n1 = std::max<uint64_t>(nb, 1);
  gpu::DeviceBuffer hash(n1 * 8, "join hashes"), pos(n1 * 4, "join positions");
  side.valid = gpu::DeviceBuffer(n1, "join keys");
  side.hash = gpu::DeviceBuffer(n1 * 8, "join hashes");
  side.pos = gpu::DeviceBuffer(n1 * 4, "join positions");
  launch_join_hash(side.keys, nb, hash.get<unsigned long long>(), side.valid.get<uint8_t>(), g.s);
  launch_iota(pos.get<uint32_t>(), nb, 0, g.s);
  sort_pairs_u64(hash.get<unsigned long long>(), side.hash.get<unsigned long long>(), pos.get<uint32_t>(),
                 side.pos.get<uint32_t>(), nb, g.s);
  count_build_keys(side.keys, side.valid.get<uint8_t>(), side.hash.get<unsigned long long>(), side.pos.get<uint32_t>(),
                   nb, rows, distinct, g.s);
}

// Evaluates the build keys over the side's rows (DOUBLE keys normalized).
void key_build_side(GeneralQuery& g, BuildSide& side) {
  const GeneralJoin& j = *side.j;
  if (j.build_keys.size() > size_t(kMaxKeyColumns))
    fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: joins on more than {} keys", kMaxKeyColumns);
  for (auto& k : j.build_keys) side.bk.push_back(g.programs.eval(k, side.b));
  normalize_double_keys(g, j.build_keys, side.bk, side.b.n);
  for (size_t k = 0; k < side.bk.size(); k++) side.keys.values[k] = side.bk[k].v(), side.keys.nulls[k] = side.bk[k].nl();
  side.keys.width = int(side.bk.size());
}

// The cache key of a build over the whole table (its `nb` scanned rows are all of
// them) on plain integer key columns (no filter or index scan of the build table, hash
// join); nullopt for any other build.
std::optional<JoinBuildKey> kept_build_key(const GeneralQuery& g, const GeneralJoin& j, uint64_t nb) {
  if (nb == 0 || !g.settings.cuda_join_cache() || g.settings.cuda_join() != CudaJoinAlgo::kHash) return std::nullopt;
  const size_t t = size_t(j.build_table);
  if (!g.gp.filters[t].empty() || (t < g.plan.table_filters.size() && !g.plan.table_filters[t].empty()))
    return std::nullopt;
  if (t < g.plan.index_scans.size() && g.plan.index_scans[t]) return std::nullopt;
  JoinBuildKey k;
  k.rows = g.q.tables[t].table->row_count();
  if (k.rows != nb) return std::nullopt;
  for (const CompiledProgram& p : j.build_keys) {
    // One instruction reading one column of the build table as integers: its values
    // are the column's, whatever statement compiled it.
    if (p.ins.size() != 1 || p.columns.size() != 1 || !p.lookups.empty() || p.domain || p.kind != VectorKind::kInt ||
        p.source.size() != 1 || !p.source[0] || p.source[0]->kind != plan::ExprKind::kColumnRef ||
        p.columns[0].table != j.build_table || !p.columns[0].column)
      return std::nullopt;
    k.columns.push_back(p.columns[0].column);
  }
  return k;
}

// Room for kept builds: JoinBuildCache::kMaxBytes, at most 1/16 of the memory budget.
uint64_t kept_build_limit() {
  return std::min(JoinBuildCache::kMaxBytes, gpu::MemoryPool::instance().stats().budget / 16);
}

}  // namespace

std::unique_ptr<BuildSide> build_join_side(GeneralQuery& g, const GeneralJoin& j) {
  auto side = std::make_unique<BuildSide>();
  side->j = &j;
  // [gpuidx] A step the access-path choice gave an index join: the build table is
  // not scanned (the index finds its rows); the CPU's build_join ranks it 1.5.
  if (index_join_of(g, j)) {
    side->selectivity = 1.5;
    return side;
  }
  side->b = scan_table(g, j.build_table);
  const uint64_t nb = side->b.n;
  // cuda_profile: the build's scan and key values apart from its table ("build <t>").
  const std::string& alias = g.q.tables[size_t(j.build_table)].alias;
  g.marks.mark(fmt::format("build {}: scan ({} rows)", alias, nb));
  if (j.build_keys.empty()) {
    side->selectivity = 2.0 + double(nb);  // cpu_executor build_join: expands, runs last
    return side;
  }
  const std::optional<JoinBuildKey> key = kept_build_key(g, j, nb);
  if (key) side->kept = JoinBuildCache::instance().find(*key);
  uint64_t rows = 0, distinct = 0;
  if (side->kept) {  // the same build rows (all of the table, in order) and key columns
    side->keys = side->kept->key_columns;
    side->table = side->kept->table;
    side->reused = true;
    rows = side->table->rows(), distinct = side->table->distinct();
  } else {
    key_build_side(g, *side);
    g.marks.mark("build " + alias + ": keys");
    if (g.settings.cuda_join() != CudaJoinAlgo::kHash) {
      sort_build(g, *side, rows, distinct);
    } else {
      side->table = std::make_shared<const HashJoinTable>(side->keys, nb, g.s);
      rows = side->table->rows(), distinct = side->table->distinct();
      if (key) {
        // The key values move into the kept build; the table's slots keep pointing at
        // the same device memory.
        auto kept = std::make_shared<KeptJoinBuild>();
        kept->keys = std::move(side->bk);
        kept->key_columns = side->keys;
        kept->table = side->table;
        side->kept = kept;
        JoinBuildCache::instance().put(*key, std::move(kept), kept_build_limit());
      }
    }
  }
  // The CPU's JoinTable: build rows are those with non-NULL keys; unique when every
  // key has one row (then the fraction of the table kept, else 1 + rows per key).
  const double total = double(std::max<uint64_t>(1, g.q.tables[size_t(j.build_table)].table->row_count()));
  side->selectivity =
      distinct == rows ? double(rows) / total : 1.0 + double(rows) / double(std::max<uint64_t>(1, distinct));
  return side;
}

// The CPU's order gives the same rows (and row order) at every step, so the same errors.
std::vector<BuildSide*> order_join_sides(GeneralQuery& g, std::vector<std::unique_ptr<BuildSide>>& sides) {
  std::vector<JoinOrderStep> steps;
  for (auto& side : sides) steps.push_back({side->j->build_table, side->j->depends_on, side->selectivity});
  const std::vector<size_t> idx = order_join_steps(steps, g.gp.root);
  std::vector<BuildSide*> out;
  for (size_t i : idx) out.push_back(sides[i].get());
  for (auto* side : out) {
    const GeneralJoin& j = *side->j;
    for (size_t r = 0; r < j.residuals.size(); r++) {
      const size_t k = residual_step(j.residual_tables[r], steps, idx, g.gp.root);
      if (k < out.size()) out[k]->residuals.push_back(&j.residuals[r]);
    }
  }
  return out;
}

}  // namespace raydb::exec::cuda::general
