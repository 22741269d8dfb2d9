// Probing the build sides (join_side.h): every step replaces the current rows by the
// joined pairs, probe order kept, build rows ascending within a probe (the CPU's).
#include <optional>

#include "common/error.h"
#include "exec/cuda/column_cache.h"
#include "exec/cuda/general/cross_join.h"
#include "exec/cuda/general/index_steps.h"
#include "exec/cuda/general/join_side.h"

namespace raydb::exec::cuda::general {

namespace {

// Every current row vector gathered through src (the probe position of each pair).
void gather_rows(GeneralQuery& g, Tuples& cur, const uint32_t* src, uint64_t m) {
  for (auto& r : cur.rows) {
    if (!r.bytes()) continue;
    gpu::DeviceBuffer out(std::max<uint64_t>(m, 1) * 4, "row ids");
    launch_gather_u32(r.get<uint32_t>(), src, m, out.get<uint32_t>(), g.s);
    r = std::move(out);
  }
}

// [gpuidx] Index-nested-loop join (index_steps.h): (probe, build row) pairs from the
// build table's GPU index, then the build table's filters on the matched rows (it
// was not scanned); the step's residuals follow in probe_join_side().
void index_join(GeneralQuery& g, const GeneralJoin& j, const plan::IndexJoin& ij, Tuples& cur) {
  Column128 pk = g.programs.eval(j.probe_keys[0], cur);
  DeviceJoinPairs p = index_join_pairs(ij, pk.v(), pk.nl(), cur.n, g.s);
  gather_rows(g, cur, p.src.get<uint32_t>(), p.n);
  cur.rows[size_t(j.build_table)] = std::move(p.rows);
  cur.n = p.n;
  cur.publish(g.s);
  for (auto& f : g.gp.filters[size_t(j.build_table)]) g.programs.filter(f, cur);
}

// Every probe row with every build row, probe-major (cpu_executor's probe_join).
void cross(GeneralQuery& g, BuildSide& side, Tuples& cur) {
  const uint64_t nb = side.b.n, n = cur.n;
  const unsigned __int128 m128 = (unsigned __int128)n * nb;
  if (m128 > kMaxRows)
    fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: a join producing 2^31 rows or more");
  const uint64_t m = uint64_t(m128);
  for (auto& r : cur.rows) {
    if (!r.bytes()) continue;
    gpu::DeviceBuffer out(std::max<uint64_t>(m, 1) * 4, "row ids");
    launch_cross_probe(r.get<uint32_t>(), m, nb, out.get<uint32_t>(), g.s);
    r = std::move(out);
  }
  gpu::DeviceBuffer rows(std::max<uint64_t>(m, 1) * 4, "row ids");
  launch_cross_build(side.b.rows[size_t(side.j->build_table)].get<uint32_t>(), m, nb, rows.get<uint32_t>(), g.s);
  cur.rows[size_t(side.j->build_table)] = std::move(rows);
  cur.n = m;
  cur.publish(g.s);
}

// Probe keys over the current rows (DOUBLE keys normalized as the build's).
KeyColumns probe_keys(GeneralQuery& g, const GeneralJoin& j, const Tuples& cur, std::vector<Column128>& pk) {
  KeyColumns pkeys;
  for (auto& k : j.probe_keys) pk.push_back(g.programs.eval(k, cur));
  normalize_double_keys(g, j.build_keys, pk, cur.n);
  for (size_t k = 0; k < pk.size(); k++) pkeys.values[k] = pk[k].v(), pkeys.nulls[k] = pk[k].nl();
  pkeys.width = int(pk.size());
  return pkeys;
}

// The probe key read in place when it is one column load (not DOUBLE: those keys are
// normalized) against a one-key hash table; nullopt otherwise.
std::optional<ColumnProbeKey> column_probe_key(GeneralQuery& g, const BuildSide& side, const Tuples& cur) {
  const GeneralJoin& j = *side.j;
  if (!side.table || j.probe_keys.size() != 1 || side.keys.width != 1) return std::nullopt;
  const CompiledProgram& p = j.probe_keys[0];
  if (p.ins.size() != 1 || p.ins[0].op != kPLoad || p.columns.size() != 1 || p.kind == VectorKind::kDouble ||
      p.columns[0].column->type().id == TypeId::kDouble)
    return std::nullopt;
  const size_t table = size_t(p.columns[0].table);
  if (table >= cur.rows.size() || !cur.rows[table].bytes()) return std::nullopt;
  const DeviceColumn& dc = ColumnCache::instance().get(p.columns[0].column, g.s);
  g.programs.add_bytes_read(dc.bytes());
  ColumnProbeKey k;
  k.col.col = dc.dev;
  k.col.table = int32_t(table);
  k.rows = cur.rows[table].get<uint32_t>();
  return k;
}

// An equi-join: count the matches per probe row, then write the (probe, build row)
// pairs, through the hash table or the sorted hashes.
void equi_join(GeneralQuery& g, BuildSide& side, Tuples& cur) {
  const GeneralJoin& j = *side.j;
  std::vector<Column128> pk;
  const std::optional<ColumnProbeKey> in_place = column_probe_key(g, side, cur);
  const KeyColumns pkeys = in_place ? KeyColumns{} : probe_keys(g, j, cur, pk);
  JoinBuild jb;
  jb.keys = side.keys;
  jb.valid = side.valid.get<uint8_t>();
  jb.hash = side.hash.get<unsigned long long>();
  jb.pos = side.pos.get<uint32_t>();
  jb.rows = side.b.rows[size_t(j.build_table)].get<uint32_t>();
  jb.n = side.b.n;
  const uint64_t n = cur.n;
  if (side.table && side.table->unique() && g.settings.cuda_unique_probe()) {
    // At most one build row per probe row: slots, then one ordered selection (hash_join.h).
    gpu::DeviceBuffer src(std::max<uint64_t>(n, 1) * 4, "join pairs"), rows;
    const uint64_t m = in_place ? side.table->probe_unique(*in_place, n, jb.rows, src.get<uint32_t>(), rows, g.s)
                                : side.table->probe_unique(pkeys, n, jb.rows, src.get<uint32_t>(), rows, g.s);
    gather_rows(g, cur, src.get<uint32_t>(), m);
    cur.rows[size_t(j.build_table)] = std::move(rows);
    cur.n = m;
    cur.publish(g.s);
    return;
  }
  gpu::DeviceBuffer count, offsets;
  HashJoinProbe hp;
  uint64_t m = 0;
  if (in_place) {
    hp = side.table->count(*in_place, n, g.s);
    m = hp.pairs;
  } else if (side.table) {
    hp = side.table->count(pkeys, n, g.s);
    m = hp.pairs;
  } else {
    count = gpu::DeviceBuffer(std::max<uint64_t>(n, 1) * 8, "join counts");
    offsets = gpu::DeviceBuffer(std::max<uint64_t>(n, 1) * 8, "join offsets");
    launch_join_count(pkeys, n, jb, count.get<unsigned long long>(), g.s);
    m = exclusive_sum_u64(count.get<unsigned long long>(), offsets.get<unsigned long long>(), n, g.s);
  }
  if (m > kMaxRows)
    fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: a join producing 2^31 rows or more");
  gpu::DeviceBuffer src(std::max<uint64_t>(m, 1) * 4, "join pairs"), rows(std::max<uint64_t>(m, 1) * 4, "row ids");
  if (side.table)
    side.table->write(hp, jb.rows, src.get<uint32_t>(), rows.get<uint32_t>(), g.s);
  else
    launch_join_write(pkeys, n, jb, offsets.get<unsigned long long>(), src.get<uint32_t>(), rows.get<uint32_t>(), g.s);
  gather_rows(g, cur, src.get<uint32_t>(), m);
  cur.rows[size_t(j.build_table)] = std::move(rows);
  cur.n = m;
  cur.publish(g.s);
}

}  // namespace

void probe_join_side(GeneralQuery& g, BuildSide& side, Tuples& cur) {
  const GeneralJoin& j = *side.j;
  if (const auto& ij = index_join_of(g, j))
    index_join(g, j, *ij, cur);
  else if (j.build_keys.empty())
    cross(g, side, cur);
  else
    equi_join(g, side, cur);
  for (auto* r : side.residuals) g.programs.filter(*r, cur);
}

}  // namespace raydb::exec::cuda::general
