#pragma once
// One execution of a physical plan on the CPU, in phases: filters and build sides,
// the aggregation layout, the morsel pipeline over the probe root, and the finish
// (merging thread-local groups or ordering projected chunks, then HAVING..LIMIT).
#include <cstdint>
#include <optional>
#include <vector>

#include "exec/core/memory_budget.h"
#include "exec/core/key_encoder.h"
#include "exec/core/result_table.h"
#include "exec/cpu/column_order_stats.h"
#include "exec/cpu/join_build.h"
#include "exec/cpu/pipeline_worker.h"
#include "exec/cpu/prefix_limit.h"
#include "exec/cpu/row_groups.h"
#include "exec/cpu/table_filter.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec::cpu {

class CpuQueryRun {
 public:
  CpuQueryRun(const plan::PhysicalPlan& plan, const ExecOptions& options);
  ResultTable run();

 private:
  // Filters per table, then the build side of every join step, in probe order.
  void build_sides();
  void build_joins();  // every join step, each after those that reduce its build rows
  // GROUP BY keys: packed into direct arrays when their range is small, else hashed;
  // and the ORDER BY items a non-aggregate query evaluates per row.
  void plan_aggregation();
  std::unique_ptr<GroupTable> new_groups() const;
  // Streams the probe root (or its index scan's rows) in morsels over the threads.
  void run_pipeline();
  void run_morsel(size_t unit);
  void init_worker(PipelineWorker& w) const;
  std::string profile_text(double build_ms, double probe_ms, double finish_ms, size_t groups) const;
  // Scans, filters and probes batch b into w.rows.
  void stream_batch(PipelineWorker& w, size_t b);
  void aggregate_batch(PipelineWorker& w, const EvalContext& ctx) const;
  void project_batch(PipelineWorker& w, size_t b, const EvalContext& ctx) const;
  // The rows before SELECT (aggregate groups, or projected chunks); n gets their count.
  std::vector<Vector> merged_aggregates(size_t& n);
  std::vector<Vector> merged_single_group();
  std::vector<Vector> merged_groups(std::vector<Vector>& keys, size_t& n);
  std::vector<Vector> ordered_projection(size_t& n);
  // Order statistics over a root column, read in place (column_order_stats.h): set up
  // before the pipeline when some aggregate qualifies, selected once groups are merged.
  void plan_column_order_stats(size_t units);
  bool root_rows_once() const;
  void select_column_order_stats(AggregateStates& states, const std::vector<std::vector<uint32_t>>& maps,
                                 const std::vector<uint32_t>& gids, size_t groups);

  const plan::PhysicalPlan& plan_;
  const plan::LogicalQuery& q_;
  const int threads_;
  mutable MemoryBudget budget_;  // cpu_memory_limit (thread-safe): join tables, groups, result rows
  const CpuOrderStats order_stats_mode_;  // the cpu_order_stats setting
  ResultTable result_;
  StringInterner* interner_ = nullptr;
  bool empty_ = false;  // a constant conjunct is false: no row can pass
  std::vector<TableFilter> filters_;
  std::vector<BuiltJoin> joins_;
  std::vector<BuiltJoin*> order_;
  std::optional<KeyEncoder> encoder_;
  bool direct_ = false;
  std::optional<SharedSubexpressions> shared_;  // among group keys and aggregate arguments
  std::vector<size_t> hidden_order_;
  // The pipeline's input: the root table, or its index scan's candidate rows.
  size_t root_ = 0;
  bool no_tables_ = false;
  std::optional<std::vector<uint32_t>> root_candidates_;
  uint64_t stream_ = 0;
  size_t run_batches_ = 0;
  std::vector<uint32_t> batch_ids_;  // the root's batches to stream (zone maps drop the others)
  std::vector<PipelineWorker> workers_;
  // LIMIT pushed into the scan (plan/logical/limit_prefix.h): later morsels are skipped.
  std::optional<PrefixLimit> prefix_;
  std::optional<ColumnOrderStats> column_stats_;
  mutable std::optional<RowGroups> row_groups_;
  std::string column_stats_note_;  // EXPLAIN ANALYZE: how they were selected  // written by the workers, each its own rows
  // The statement's cancel flag (common/cancel.h), read on the calling thread: the
  // workers poll it between batches (a morsel of a wide cross join takes seconds).
  const std::atomic<bool>* cancel_ = nullptr;
};

}  // namespace raydb::exec::cpu
