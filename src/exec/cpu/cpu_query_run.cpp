#include "exec/cpu/cpu_query_run.h"

#include <omp.h>

#include <algorithm>
#include <numeric>
#include <optional>

#include "common/cancel.h"
#include "common/error.h"
#include "common/timer.h"
#include "exec/core/constant_conjuncts.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/result_finisher.h"
#include "exec/cpu/join_probe.h"
#include "exec/cpu/morsel.h"
#include "exec/index/index_access.h"
#include "plan/logical/limit_prefix.h"

namespace raydb::exec::cpu {

using plan::AggFunc;
using plan::Expr;
using plan::ExprKind;

namespace {
constexpr uint64_t kDirectGroupLimit = uint64_t(1) << 18;  // packed key range for direct aggregation

// The payload bytes a vector holds (what a projected chunk keeps until the query ends).
uint64_t vector_bytes(const Vector& v) {
  return v.ints.size() * 8 + v.huge.size() * 16 + v.doubles.size() * 8 + v.strings.size() * 16 + v.nulls.size();
}
}  // namespace

CpuQueryRun::CpuQueryRun(const plan::PhysicalPlan& plan, const ExecOptions& options)
    : plan_(plan),
      q_(*plan.query),
      threads_(options.threads > 0 ? options.threads : omp_get_max_threads()),
      budget_(options.settings.cpu_memory_limit()),
      order_stats_mode_(options.settings.cpu_order_stats()),
      cancel_(current_cancel_flag()) {
  result_.interner = std::make_shared<StringInterner>();
  interner_ = result_.interner.get();
  result_.names = q_.output_names;
}

ResultTable CpuQueryRun::run() {
  Timer timer;
  build_sides();
  throw_if_cancelled();  // the build sides may be long single-threaded work
  const double build_ms = timer.elapsed_ms();
  plan_aggregation();
  run_pipeline();
  throw_if_cancelled();
  const double probe_ms = timer.elapsed_ms() - build_ms;
  size_t n = 0;
  std::vector<Vector> outputs = q_.is_aggregate ? merged_aggregates(n) : ordered_projection(n);
  const size_t aggregated_groups = n;
  finish_rows(q_, std::move(outputs), n, result_, &budget_);
  result_.profile = profile_text(build_ms, probe_ms, timer.elapsed_ms() - build_ms - probe_ms, aggregated_groups);
  return std::move(result_);
}

// EXPLAIN ANALYZE: each operator's actual rows (summed over the workers) and the
// phases' times.
std::string CpuQueryRun::profile_text(double build_ms, double probe_ms, double finish_ms, size_t groups) const {
  uint64_t scanned = 0, passed = 0;
  std::vector<uint64_t> joined(order_.size(), 0);
  for (auto& w : workers_) {
    scanned += w.scanned;
    passed += w.passed;
    for (size_t k = 0; k < w.joined.size(); k++) joined[k] += w.joined[k];
  }
  // Data skipping per scanned table: zone-map blocks read and skipped.
  auto blocks_text = [&](size_t t, bool index_scan) -> std::string {
    const auto& b = filters_[t].blocks;
    if (!b || index_scan) return "";
    return fmt::format(", blocks: {} scanned, {} skipped", b->blocks - b->skipped, b->skipped);
  };
  std::string s;
  if (!no_tables_) {
    s += fmt::format("scan {}: {} rows{}, {} passed filters{}\n", q_.tables[root_].alias, scanned,
                     root_candidates_ ? " (index candidates)" : "", passed,
                     blocks_text(root_, root_candidates_.has_value()));
    uint64_t in = passed;
    for (size_t k = 0; k < order_.size(); k++) {
      const BuiltJoin& j = *order_[k];
      const bool index_build = j.index_join ||
                               (size_t(j.table) < plan_.index_scans.size() && plan_.index_scans[size_t(j.table)]);
      s += fmt::format("join {}: {} build rows{} in {:.1f} ms; {} -> {} rows\n", q_.tables[size_t(j.table)].alias,
                       j.cross ? j.cross_rows.size() : j.build_rows, blocks_text(size_t(j.table), index_build),
                       j.build_ms, in, joined[k]);
      in = joined[k];
    }
    s += q_.is_aggregate ? fmt::format("aggregate: {} rows -> {} groups\n", in, groups)
                         : fmt::format("project: {} rows\n", in);
    if (!column_stats_note_.empty()) s += column_stats_note_ + "\n";
  }
  s += fmt::format("cpu: build {:.3f} ms, scan/probe {:.3f} ms, finish {:.3f} ms, {} threads", build_ms, probe_ms,
                   finish_ms, threads_);
  return s;
}

void CpuQueryRun::build_sides() {
  // Constant conjuncts decide once whether anything can pass.
  empty_ = !constant_conjuncts_pass(plan_);
  for (size_t t = 0; t < q_.tables.size(); t++) {
    filters_.push_back(compile_filter(plan_.table_filters[t], q_));
    // Data skipping: the blocks whose zone maps leave a row that can pass.
    BlockSelection blocks = select_blocks(t, plan_.table_filters[t], q_);
    if (blocks.blocks > 0) filters_.back().blocks = std::move(blocks);
  }
  if (!empty_) build_joins();
  // A join's build-key range bounds the probe column of the root: its blocks outside
  // it find no match (SSB's date filters skip lineorder blocks by lo_orderdate).
  for (const BuiltJoin& j : joins_)
    if (j.has_key_range && j.probe_table == plan_.root_table)
      restrict_blocks(filters_[size_t(j.probe_table)].blocks, size_t(j.probe_table), j.probe_column, j.key_min,
                      j.key_max, q_);
  order_ = order_joins(joins_, plan_.root_table);
}

// Builds every join step, each after the steps probed only from its table, so that
// its build rows are first reduced by theirs (build_join's `semi`): lineitem ->
// orders -> customer (filtered) builds customer, then only the orders of those
// customers. Steps stay in plan order in joins_.
void CpuQueryRun::build_joins() {
  const size_t n = plan_.joins.size();
  std::vector<std::optional<BuiltJoin>> built(n);
  auto sole_dependents = [&](size_t i) {
    std::vector<size_t> out;
    const plan::JoinStep& s = plan_.joins[i];
    if (s.index_join || s.build_keys.empty()) return out;  // no rows of its own to reduce
    for (size_t k = 0; k < n; k++)
      if (k != i && plan_.joins[k].depends_on == (uint64_t(1) << s.build_table)) out.push_back(k);
    return out;
  };
  // Steps whose build table is filtered go first in each round, so that they can
  // reduce the steps that share a probe key with them (key_equivalent_reducers).
  std::vector<size_t> visit(n);
  std::iota(visit.begin(), visit.end(), size_t(0));
  std::stable_partition(visit.begin(), visit.end(), [&](size_t i) {
    const TableFilter& f = filters_[size_t(plan_.joins[i].build_table)];
    return !f.columns.empty() || !f.programs.empty() || !f.generic.empty();
  });
  // A step that a step not built yet could reduce by one key column waits for it
  // while other steps make progress (column_reducers); when none can, it goes ahead.
  bool waited_enough = false;
  for (size_t done = 0; done < n;) {
    const size_t before = done;
    for (size_t i : visit) {
      if (built[i]) continue;
      std::vector<SemiReducer> semi;
      bool ready = true;
      for (size_t k : sole_dependents(i)) {
        ready = ready && built[k].has_value();
        if (ready && reduces_build(*built[k], q_)) semi.push_back({&*built[k], {}});
      }
      if (!ready) continue;
      std::vector<const BuiltJoin*> ready_steps(n, nullptr);
      for (size_t k = 0; k < n; k++)
        if (built[k]) ready_steps[k] = &*built[k];
      if (!waited_enough && column_reducer_pending(plan_.joins, i, ready_steps)) continue;
      for (SemiReducer& r : semi)
        for (auto& key : r.join->step->probe_keys) r.keys.push_back(key.get());
      for (SemiReducer& r : key_equivalent_reducers(plan_.joins, i, ready_steps, q_)) {
        bool seen = false;  // already a sole dependent
        for (auto& have : semi) seen = seen || have.join == r.join;
        if (!seen) semi.push_back(std::move(r));
      }
      for (SemiReducer& r : column_reducers(plan_.joins, i, ready_steps, q_)) semi.push_back(std::move(r));
      const plan::JoinStep& step = plan_.joins[i];
      const size_t bt = size_t(step.build_table);
      const plan::IndexScan* iscan =
          bt < plan_.index_scans.size() && plan_.index_scans[bt] ? &*plan_.index_scans[bt] : nullptr;
      Timer build_timer;
      built[i] = build_join(step, filters_[bt], iscan, q_, threads_, semi);
      built[i]->build_ms = build_timer.elapsed_ms();
      budget_.charge(built[i]->index.memory_bytes() + built[i]->cross_rows.size() * 4, "a join table");
      done++;
    }
    if (done == before && !waited_enough) {
      waited_enough = true;  // the waiting steps go ahead without those reductions
      continue;
    }
    if (done == before) fail(ErrorKind::kInternal, "join steps depend on each other in a cycle");
  }
  for (auto& b : built) joins_.push_back(std::move(*b));
}

void CpuQueryRun::plan_aggregation() {
  if (q_.is_aggregate && !q_.group_keys.empty()) {
    std::vector<KeySpec> specs;
    for (auto& g : q_.group_keys) specs.push_back(group_key_spec(*g, q_));
    encoder_.emplace(std::move(specs), interner_);
    direct_ = encoder_->packed() && encoder_->packed_range() <= kDirectGroupLimit;
  }
  if (q_.is_aggregate) {
    std::vector<const Expr*> roots;
    for (auto& g : q_.group_keys) roots.push_back(g.get());
    for (auto& a : q_.aggregates) roots.push_back(a.arg.get());
    shared_.emplace(roots);
    if (!shared_->any()) shared_.reset();
  }
  // ORDER BY items evaluated per row in a non-aggregate query (not referring to outputs).
  if (!q_.is_aggregate)
    for (size_t i = 0; i < q_.order_by.size(); i++)
      if (q_.order_by[i].expr->kind != ExprKind::kOutputRef) hidden_order_.push_back(i);
}

std::unique_ptr<GroupTable> CpuQueryRun::new_groups() const {
  return std::make_unique<GroupTable>(encoder_ ? encoder_->width() : 1, direct_, direct_ ? encoder_->packed_range() : 0);
}

void CpuQueryRun::run_pipeline() {
  const size_t nt = q_.tables.size();
  root_ = size_t(plan_.root_table);
  no_tables_ = nt == 0;
  const uint64_t total = no_tables_ ? 1 : q_.tables[root_].table->row_count();
  if (total >= JoinTable::kNone) fail(ErrorKind::kNotImplemented, "tables of 2^32 rows or more are not supported yet");
  // An index scan of the root: the pipeline streams its candidate rows instead of
  // the whole table (and applies every root filter to them as to scanned rows).
  if (!empty_ && !no_tables_ && root_ < plan_.index_scans.size() && plan_.index_scans[root_])
    root_candidates_ = index_scan_rows(*plan_.index_scans[root_], q_);
  stream_ = root_candidates_ ? root_candidates_->size() : total;
  static const TableFilter kEveryBlock;  // index candidates are row ids: no blocks apply
  if (!empty_ && !no_tables_ && !filters_[root_].always_false)
    batch_ids_ = scanned_batches(root_candidates_ ? kEveryBlock : filters_[root_], stream_);
  else if (!empty_ && no_tables_)
    batch_ids_ = {0};
  run_batches_ = batch_ids_.size();
  const size_t units = (run_batches_ + kMorselBatches - 1) / kMorselBatches;
  workers_.resize(static_cast<size_t>(threads_));
  plan_column_order_stats(units);
  if (auto need = plan::scan_prefix_rows(q_)) prefix_.emplace(*need, units);
  parallel_for(units, threads_, [&](size_t u) { run_morsel(u); });
}

void CpuQueryRun::init_worker(PipelineWorker& w) const {
  const size_t nt = q_.tables.size();
  w.rows.of.resize(std::max<size_t>(nt, 1));
  w.rows.bound.assign(std::max<size_t>(nt, 1), 0);
  if (q_.is_aggregate) {
    w.groups = new_groups();
    w.states = std::make_unique<AggregateStates>(&q_.aggregates, interner_);
    if (!encoder_) w.states->resize(1);
    if (direct_) w.states->resize(w.groups->state_size());
    if (shared_) w.shared.emplace(*shared_);
  }
}

void CpuQueryRun::run_morsel(size_t u) {
  if (prefix_ && !prefix_->needed(u)) return;  // earlier morsels hold the rows LIMIT keeps
  PipelineWorker& w = workers_[size_t(omp_get_thread_num())];
  if (w.rows.of.empty()) init_worker(w);
  if (row_groups_) row_groups_->begin_unit(u, omp_get_thread_num());
  JoinedRows& rows = w.rows;
  uint64_t produced = 0;  // this morsel's rows, for the prefix limit
  struct Finish {  // also when a batch throws: the limit's bookkeeping never waits on it
    PrefixLimit* limit;
    size_t unit;
    uint64_t& rows;
    ~Finish() {
      if (limit) limit->finished(unit, rows);
    }
  } finish{prefix_ ? &*prefix_ : nullptr, u, produced};
  for (size_t k = u * kMorselBatches; k < std::min(run_batches_, (u + 1) * kMorselBatches); k++) {
    const size_t b = batch_ids_[k];
    if (prefix_ && produced >= prefix_->rows_needed()) break;  // this morsel alone has enough
    throw_if_cancelled(cancel_);
    std::fill(rows.bound.begin(), rows.bound.end(), 0);
    if (!no_tables_)
      stream_batch(w, b);
    else
      rows.n = 1;
    if (rows.n == 0) continue;
    BatchRows view = rows.view();
    EvalContext ctx;
    ctx.query = &q_;
    ctx.batch = &view;
    ctx.n = rows.n;
    if (q_.is_aggregate)
      aggregate_batch(w, ctx);
    else
      project_batch(w, b, ctx);
    produced += rows.n;
  }
}

void CpuQueryRun::stream_batch(PipelineWorker& w, size_t b) {
  JoinedRows& rows = w.rows;
  rows.bound[root_] = 1;
  rows.ensure(root_, kBatch);
  uint32_t begin = uint32_t(b * kBatch);
  size_t len = size_t(std::min<uint64_t>(kBatch, stream_ - begin));
  scan_batch(filters_[root_], root_, q_, root_candidates_ ? &*root_candidates_ : nullptr, begin, len, rows, w.keep,
             w.sel);
  w.scanned += len;
  w.passed += rows.n;
  if (w.joined.size() < order_.size()) w.joined.resize(order_.size());
  for (size_t k = 0; k < order_.size(); k++) {
    if (rows.n == 0) break;
    const BuiltJoin* j = order_[k];
    if (j->cross) {  // the batch times the build side, one row-id array per bound table
      const uint64_t tables = uint64_t(std::count(rows.bound.begin(), rows.bound.end(), 1)) + 1;
      budget_.check_scratch(uint64_t(rows.n) * j->cross_rows.size() * 4 * tables, "a cross join's rows");
    }
    probe_join(*order_[k], q_, rows, w.sel, w.words, w.valid, budget_);
    apply_generic(j->residuals, q_, rows, w.keep, w.sel);
    w.joined[k] += rows.n;
  }
}

void CpuQueryRun::aggregate_batch(PipelineWorker& w, const EvalContext& batch_ctx) const {
  const size_t n = batch_ctx.n;
  EvalContext ctx = batch_ctx;
  if (w.shared) {
    w.shared->clear();
    ctx.shared = &*w.shared;
  }
  const uint32_t* gids = nullptr;
  if (encoder_) {
    std::vector<Vector> keys;
    for (auto& g : q_.group_keys) keys.push_back(evaluate(*g, ctx));
    w.words.clear();
    encoder_->encode(keys, n, w.words);
    w.gids.resize(n);
    const size_t before = w.groups->group_count();
    w.groups->find_or_insert(w.words.data(), n, w.gids.data());
    if (!direct_ && w.groups->group_count() > before)  // key words, hash, slots, states
      budget_.charge((w.groups->group_count() - before) * (size_t(encoder_->width()) * 8 + 16 + 16 * q_.aggregates.size()),
                     "GROUP BY groups");
    if (!direct_) w.states->resize(w.groups->state_size());
    gids = w.gids.data();
  }
  if (row_groups_)
    row_groups_->record(int(&w - workers_.data()), ctx.batch->rows[root_], gids, n,
                        gids ? w.groups->state_size() : 1);
  const GroupRuns* runs = nullptr;
  if (gids && w.groups->state_size() <= GroupRuns::kMaxGroups) {
    w.runs.build(gids, n, w.groups->state_size());
    runs = &w.runs;
  }
  for (size_t a = 0; a < q_.aggregates.size(); a++) {
    if (column_stats_ && column_stats_->in_place(a)) continue;  // selected from the column at the end
    if (q_.aggregates[a].func == AggFunc::kCountStar) {
      w.states->update(a, gids, n, nullptr, runs);
    } else {
      Vector arg = evaluate(*q_.aggregates[a].arg, ctx);
      w.states->update(a, gids, n, &arg, runs);
    }
  }
}

void CpuQueryRun::project_batch(PipelineWorker& w, size_t b, const EvalContext& ctx) const {
  std::vector<Vector> cols;
  for (auto& e : q_.select) cols.push_back(evaluate(*e, ctx));
  for (size_t i : hidden_order_) cols.push_back(evaluate(*q_.order_by[i].expr, ctx));
  uint64_t bytes = 0;
  for (const Vector& c : cols) bytes += vector_bytes(c);
  // Three times: the chunk, its merged copy (ordered_projection) and the finisher's.
  budget_.charge(3 * bytes, "result rows");
  w.chunks.emplace_back(b, std::move(cols));
}

std::vector<Vector> CpuQueryRun::merged_aggregates(size_t& n) {
  std::vector<Vector> key_vectors, agg_vectors;
  if (!encoder_) {
    agg_vectors = merged_single_group();
    n = 1;
  } else {
    agg_vectors = merged_groups(key_vectors, n);
  }
  return finish_aggregation(q_, std::move(key_vectors), std::move(agg_vectors), n);
}

// One group, present even when no row arrived (COUNT 0, other aggregates NULL).
std::vector<Vector> CpuQueryRun::merged_single_group() {
  AggregateStates total_states(&q_.aggregates, interner_);
  total_states.resize(1);
  uint32_t zero = 0;
  for (auto& w : workers_)
    if (w.states) total_states.merge(*w.states, &zero, &zero, 1);
  std::vector<uint32_t> g{0};
  select_column_order_stats(total_states, {}, g, 1);
  std::vector<Vector> aggs;
  for (size_t a = 0; a < q_.aggregates.size(); a++) aggs.push_back(total_states.finalize(a, g));
  return aggs;
}

// The threads' groups merged into one table, keys decoded, aggregates finalized.
std::vector<Vector> CpuQueryRun::merged_groups(std::vector<Vector>& keys, size_t& n) {
  const size_t width = size_t(encoder_->width());
  GroupTable global(encoder_->width(), direct_, direct_ ? encoder_->packed_range() : 0);
  AggregateStates global_states(&q_.aggregates, interner_);
  if (direct_) global_states.resize(global.state_size());
  std::vector<int64_t> key(width);
  // Per worker, its group ids as global ones (hash groups only: direct ids are the
  // packed keys, the same in every worker), for the in-place order statistics.
  std::vector<std::vector<uint32_t>> maps(workers_.size());
  // The first hash table becomes the global one: inserting its groups into an empty
  // table would give them the same ids in the same order (Q18's 1.5 M groups were
  // inserted one by one on one thread); the rest are inserted once, into a table sized
  // for all of them.
  bool adopted = false;
  if (!direct_) {
    size_t total = 0;
    for (auto& w : workers_) total += w.groups ? w.groups->group_count() : 0;
    for (auto& w : workers_)
      if (w.groups && !adopted) {
        global = std::move(*w.groups);
        w.groups = std::make_unique<GroupTable>(encoder_->width(), false, 0);
        adopted = true;
        global.reserve(total);
        // Its states too, sized once for every thread's groups (no copy as they grow).
        global_states = std::move(*w.states);
        global_states.resize(total);
        if (row_groups_) maps[size_t(&w - workers_.data())] = global.groups();
      }
  }
  for (auto& w : workers_) {
    if (!w.groups || w.groups->group_count() == 0) continue;
    std::vector<uint32_t> src = w.groups->groups();
    std::vector<uint32_t> dst(src.size());
    if (!direct_) {  // ids 0..n-1, keys contiguous: one batch, its probes prefetched
      global.find_or_insert(w.groups->key_data(), src.size(), dst.data());
    } else {
      for (size_t i = 0; i < src.size(); i++) {
        w.groups->key_words(src[i], key.data());
        dst[i] = global.find_or_insert_one(key.data());
      }
    }
    if (row_groups_ && !direct_) {
      std::vector<uint32_t>& map = maps[size_t(&w - workers_.data())];
      map.assign(w.groups->state_size(), 0);
      for (size_t i = 0; i < src.size(); i++) map[src[i]] = dst[i];
    }
    if (!direct_) global_states.resize(global.state_size());
    global_states.merge(*w.states, src.data(), dst.data(), src.size());
  }
  std::vector<uint32_t> gids = global.groups();
  n = gids.size();
  select_column_order_stats(global_states, maps, gids, global.state_size());
  if (!direct_) {  // ids 0..n-1: the table's key words are already in order
    keys = encoder_->decode(global.key_data(), n);
  } else {
    std::vector<int64_t> words(n * width);
    for (size_t i = 0; i < n; i++) global.key_words(gids[i], &words[i * width]);
    keys = encoder_->decode(words.data(), n);
  }
  std::vector<Vector> aggs;
  for (size_t a = 0; a < q_.aggregates.size(); a++) aggs.push_back(global_states.finalize(a, gids));
  return aggs;
}

bool CpuQueryRun::root_rows_once() const {
  if (no_tables_ || root_candidates_) return false;
  for (const BuiltJoin* j : order_)
    if (j->cross || j->index_join || !j->index.unique()) return false;
  return true;
}

void CpuQueryRun::plan_column_order_stats(size_t units) {
  if (!q_.is_aggregate) return;
  column_stats_.emplace(q_, int(root_), root_rows_once(), order_stats_mode_);
  if (!column_stats_->any()) {
    column_stats_.reset();
    return;
  }
  budget_.charge(RowGroups::bytes(stream_, encoder_.has_value()), "order statistics' row groups");
  row_groups_.emplace(stream_, units, threads_, encoder_.has_value());
}

// The in-place order statistics, once `states` holds every other aggregate merged
// over `groups` global groups.
void CpuQueryRun::select_column_order_stats(AggregateStates& states, const std::vector<std::vector<uint32_t>>& maps,
                                            const std::vector<uint32_t>& gids, size_t groups) {
  if (!row_groups_) return;
  row_groups_->to_global(maps, batch_ids_, kMorselBatches, kBatch, threads_);
  column_stats_note_ = column_stats_->select_into(*row_groups_, row_groups_->counts(groups, maps), states, gids, threads_);
}

// The threads' projected chunks in scan order; hidden ORDER BY columns (or output
// references) move to the end as the finisher's sort keys.
std::vector<Vector> CpuQueryRun::ordered_projection(size_t& n) {
  std::vector<std::pair<size_t, std::vector<Vector>>*> chunks;
  for (auto& w : workers_)
    for (auto& c : w.chunks) chunks.push_back(&c);
  std::sort(chunks.begin(), chunks.end(), [](auto* a, auto* b) { return a->first < b->first; });
  const size_t ncols = q_.select.size() + hidden_order_.size();
  std::vector<Vector> outputs(ncols);
  for (size_t c = 0; c < ncols; c++) {
    const Expr& e = c < q_.select.size() ? *q_.select[c] : *q_.order_by[hidden_order_[c - q_.select.size()]].expr;
    outputs[c].type = e.type;
    outputs[c].kind = kind_of(e.type);
  }
  n = 0;
  for (auto* ch : chunks) {
    for (size_t c = 0; c < ncols; c++) outputs[c].append(ch->second[c]);
    n += ch->second.empty() ? 0 : ch->second[0].size;
  }
  for (auto& o : outputs) o.size = n;
  if (!q_.order_by.empty()) {
    std::vector<Vector> keys;
    size_t h = 0;
    for (auto& o : q_.order_by) {
      if (o.expr->kind == ExprKind::kOutputRef)
        keys.push_back(outputs[size_t(o.expr->ref_index)]);
      else
        keys.push_back(outputs[q_.select.size() + h++]);
    }
    outputs.resize(q_.select.size());
    for (auto& k : keys) outputs.push_back(std::move(k));
  }
  return outputs;
}

}  // namespace raydb::exec::cpu
