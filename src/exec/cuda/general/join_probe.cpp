// Probing the build sides (join_side.h): every step replaces the current rows by the
// joined pairs, probe order kept, build rows ascending within a probe (the CPU's).
#include "common/error.h"
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

// An equi-join: count the matches per probe row, then write the (probe, build row)
// pairs, through the hash table or the sorted hashes.
void equi_join(GeneralQuery& g, BuildSide& side, Tuples& cur) {
  const GeneralJoin& j = *side.j;
  std::vector<Column128> pk;
  const KeyColumns pkeys = probe_keys(g, j, cur, pk);
  JoinBuild jb;
  jb.keys = side.keys;
  jb.valid = side.valid.get<uint8_t>();
  jb.hash = side.hash.get<unsigned long long>();
  jb.pos = side.pos.get<uint32_t>();
  jb.rows = side.b.rows[size_t(j.build_table)].get<uint32_t>();
  jb.n = side.b.n;
  const uint64_t n = cur.n;
  gpu::DeviceBuffer count, offsets;
  HashJoinProbe hp;
  uint64_t m = 0;
  if (side.table) {
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
