#include "exec/cuda/general/scan_step.h"

#include "common/error.h"
#include "exec/core/block_selection.h"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/index_steps.h"

namespace raydb::exec::cuda::general {

Tuples scan_table(GeneralQuery& g, int table) {
  Tuples t;
  t.rows.resize(g.nt);
  const uint64_t rows = g.q.tables[size_t(table)].table->row_count();
  if (rows > kMaxRows) fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: tables of 2^31 rows or more");
  const auto& index_scans = g.plan.index_scans;
  const bool indexed = size_t(table) < index_scans.size() && index_scans[size_t(table)];
  if (indexed) {
    // [gpuidx] index scan: the candidates from the table's GPU index (index_steps.h),
    // ascending; every filter below still runs on them.
    DeviceRowIds ids = index_scan_rows(*index_scans[size_t(table)], g.q, g.s);
    t.n = ids.n;
    t.rows[size_t(table)] = std::move(ids.rows);
  } else {
    // Data skipping: the row ids of the blocks whose zone maps leave a row that can
    // pass the table's filters (all of which run below), ascending; without a usable
    // zone map the one range is the whole table.
    const BlockSelection blocks = select_blocks(size_t(table), g.plan.table_filters[size_t(table)], g.q);
    t.n = blocks.rows();
    t.rows[size_t(table)] = gpu::DeviceBuffer(std::max<uint64_t>(t.n, 1) * 4, "row ids");
    uint64_t at = 0;
    for (const RowRange& r : blocks.ranges) {
      launch_iota(t.rows[size_t(table)].get<uint32_t>() + at, r.end - r.begin, uint32_t(r.begin), g.s);
      at += r.end - r.begin;
    }
    if (blocks.blocks > 0)
      g.skipped += fmt::format("; scan {}: blocks: {} scanned, {} skipped", g.q.tables[size_t(table)].alias,
                               blocks.blocks - blocks.skipped, blocks.skipped);
  }
  t.publish(g.s);
  for (auto& f : g.gp.filters[size_t(table)])
    if (!(indexed && answered_by_index(f, *index_scans[size_t(table)])))  // [gpuidx]
      g.programs.filter(f, t);
  return t;
}

}  // namespace raydb::exec::cuda::general
