#include "exec/cuda/general/scan_step.h"

#include "common/error.h"
#include "exec/core/block_selection.h"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/index_steps.h"
#include "exec/cuda/general/scan_kernels.h"
#include "exec/cuda/general/scan_terms.h"

namespace raydb::exec::cuda::general {

namespace {

// The row ids of `blocks`, ascending (a scan without filters keeps them all).
gpu::DeviceBuffer block_row_ids(const BlockSelection& blocks, uint64_t n, cudaStream_t s) {
  gpu::DeviceBuffer ids(std::max<uint64_t>(n, 1) * 4, "row ids");
  uint64_t at = 0;
  for (const RowRange& r : blocks.ranges) {
    launch_iota(ids.get<uint32_t>() + at, r.end - r.begin, uint32_t(r.begin), s);
    at += r.end - r.begin;
  }
  return ids;
}

// The table's filters the scan runs (an index scan's own predicate is answered by its
// candidates), in the CPU's order. Each reads only this table: the scan names one row.
std::vector<const CompiledProgram*> scan_filters(const GeneralQuery& g, int table, const plan::IndexScan* index) {
  std::vector<const CompiledProgram*> fs;
  for (const CompiledProgram& f : g.gp.filters[size_t(table)]) {
    if (index && answered_by_index(f, *index)) continue;  // [gpuidx]
    for (const auto& c : f.columns)
      if (c.table != table) fail(ErrorKind::kInternal, "a filter of table {} reads table {}", table, c.table);
    fs.push_back(&f);
  }
  return fs;
}

// The scan's row ids in `t`, then one pass per conjunct, each compacting the rows
// (ProgramRunner::filter): scans without filters, and every scan with cuda_scan_pass
// off (comparisons).
Tuples filter_by_passes(GeneralQuery& g, const std::vector<const CompiledProgram*>& filters, Tuples& t) {
  t.publish(g.s);
  for (const CompiledProgram* f : filters) g.programs.filter(*f, t);
  return std::move(t);
}

// Whether the scan's first conjunct runs in the one pass over the scanned positions
// (scan_kernels.h), the rest conjunct by conjunct on the rows it kept. All conjuncts in
// the one pass measured slower with several (H200, TPC-H SF 20: q12's five 4.5 -> 7.5
// ms, q19's 3.8 -> 11.7): a warp keeps running a later conjunct while any of its lanes
// is still in, so each one costs nearly a full pass over every row, where a pass over
// the compacted rows costs only theirs.
bool one_pass(const GeneralQuery& g, const std::vector<const CompiledProgram*>& filters, uint64_t n) {
  return !filters.empty() && n > 0 && g.settings.cuda_scan_pass();
}

// A scan's conjuncts split for the term pass (scan_terms.h) and the interpreter, each
// list in the CPU's order. A conjunct that may raise an error runs on exactly the rows
// the CPU runs it on, those that passed every conjunct before it: so terms after one
// stay behind it, and terms before it (which raise nothing) may all run first.
struct ScanSplit {
  std::vector<TermConjunct> terms;
  std::vector<const CompiledProgram*> rest;
};

ScanSplit split_scan_terms(const GeneralQuery& g, const std::vector<const CompiledProgram*>& filters) {
  ScanSplit split;
  bool raising = false;  // a conjunct left to the interpreter may raise
  for (const CompiledProgram* f : filters) {
    std::optional<std::vector<TermShape>> terms;
    if (!raising && g.settings.cuda_scan_terms()) terms = match_scan_terms(*f);
    if (terms) {
      split.terms.push_back({f, std::move(*terms)});
    } else {
      split.rest.push_back(f);
      raising = raising || may_raise(*f);
    }
  }
  return split;
}

}  // namespace

Tuples scan_table(GeneralQuery& g, int table) {
  Tuples t;
  t.rows.resize(g.nt);
  const uint64_t rows = g.q.tables[size_t(table)].table->row_count();
  if (rows > kMaxRows) fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: tables of 2^31 rows or more");
  const auto& index_scans = g.plan.index_scans;
  const plan::IndexScan* index =
      size_t(table) < index_scans.size() && index_scans[size_t(table)] ? &*index_scans[size_t(table)] : nullptr;
  const std::vector<const CompiledProgram*> filters = scan_filters(g, table, index);
  const ScanSplit split = split_scan_terms(g, filters);
  ScanRows scan;
  DeviceRowIds candidates;
  gpu::DeviceBuffer range_first, range_at;
  uint64_t n = 0;
  if (index) {
    // [gpuidx] index scan: the candidates from the table's GPU index (index_steps.h),
    // ascending; every filter below still runs on them.
    candidates = index_scan_rows(*index, g.q, g.s);
    n = candidates.n;
    scan.ids = candidates.rows.get<uint32_t>();
  } else {
    // Data skipping: the blocks whose zone maps leave a row that can pass the table's
    // filters (all of which run below), ascending; without a usable zone map the one
    // range is the whole table.
    const BlockSelection blocks = select_blocks(size_t(table), g.plan.table_filters[size_t(table)], g.q);
    n = blocks.rows();
    if (blocks.blocks > 0)
      g.skipped += fmt::format("; scan {}: blocks: {} scanned, {} skipped", g.q.tables[size_t(table)].alias,
                               blocks.blocks - blocks.skipped, blocks.skipped);
    if (n == 0 || (split.terms.empty() && !one_pass(g, filters, n))) {  // no ranges to read when n == 0
      t.n = n;
      t.rows[size_t(table)] = block_row_ids(blocks, n, g.s);
      return filter_by_passes(g, filters, t);
    }
    scan.ranges = int(blocks.ranges.size());
    scan.first = uint32_t(blocks.ranges.front().begin);
    if (scan.ranges > 1) {
      std::vector<uint32_t> first;
      std::vector<unsigned long long> at;
      scan_range_arrays(blocks.ranges, first, at);
      upload(range_first, first, "scan ranges", g.s);
      upload(range_at, at, "scan ranges", g.s);
      scan.range_first = range_first.get<uint32_t>();
      scan.range_at = range_at.get<unsigned long long>();
    }
  }
  if (!split.terms.empty() && n > 0) {
    // The simple conjuncts from the columns, then the rest conjunct by conjunct.
    t.n = g.programs.filter_scan_terms(split.terms, scan, n, t.rows[size_t(table)]);
    t.publish(g.s);
    for (size_t f = 0; f < split.rest.size() && t.n > 0; f++) g.programs.filter(*split.rest[f], t);
    return t;
  }
  if (!one_pass(g, filters, n)) {
    t.n = n;
    t.rows[size_t(table)] = std::move(candidates.rows);
    return filter_by_passes(g, filters, t);
  }
  t.n = g.programs.filter_scan({filters.front()}, scan, n, t.rows[size_t(table)]);
  t.publish(g.s);
  for (size_t f = 1; f < filters.size() && t.n > 0; f++) g.programs.filter(*filters[f], t);
  return t;
}

}  // namespace raydb::exec::cuda::general
