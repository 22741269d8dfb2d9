#include "exec/cpu/column_order_stats.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "exec/core/order_statistics/order_statistics.h"

namespace raydb::exec::cpu {

namespace {

using orderstat::KeyType;

// Grouped selection keeps up to one 256-counter histogram per (group, rank) and thread
// in a pass (a median's two ranks nearly always share one). Up to about 2,000 groups
// of a median (4,096 pairs, 8 MiB per thread at worst) that beats scattering the rows
// into per-group segments; at 5,000 groups and beyond the segments win (measured on
// SSB SF 1, docs/benchmarks/order-statistics.md).
constexpr uint64_t kMaxHistograms = 4096;

// The key of a stored column's values (order_key.h), read in place; false for types
// without one.
bool stored_key_type(TypeId id, KeyType* kt) {
  switch (id) {
    case TypeId::kInteger:
    case TypeId::kDate: *kt = KeyType::kInt32; return true;
    case TypeId::kVarchar: *kt = KeyType::kUInt32; return true;  // codes >= 0, in string order
    case TypeId::kBigint:
    case TypeId::kDecimal: *kt = KeyType::kInt64; return true;
    case TypeId::kDouble: *kt = KeyType::kDouble; return true;
    default: return false;
  }
}

// The column's verified min/max bound every key; DOUBLE statistics say nothing of NaN,
// so its range is measured over the counting rows instead.
void promise_range(const Column& col, orderstat::ColumnInput& in, int threads) {
  const ColumnStats& st = col.stats();
  if (in.type == KeyType::kDouble || st.min > st.max) return orderstat::promise_key_range(in, threads);
  switch (in.type) {
    case KeyType::kInt32:
      in.key_lo = orderstat::int32_key(int32_t(st.min));
      in.key_hi = orderstat::int32_key(int32_t(st.max));
      break;
    case KeyType::kUInt32:
      in.key_lo = uint64_t(uint32_t(st.min));
      in.key_hi = uint64_t(uint32_t(st.max));
      break;
    case KeyType::kInt64:
      in.key_lo = orderstat::int64_key(st.min);
      in.key_hi = orderstat::int64_key(st.max);
      break;
    default: break;
  }
}

}  // namespace

ColumnOrderStats::ColumnOrderStats(const plan::LogicalQuery& q, int root, bool root_rows_once, CpuOrderStats mode)
    : q_(q), root_(root), mode_(mode), in_place_(q.aggregates.size(), false) {
  if (!root_rows_once || mode == CpuOrderStats::kCollect) return;
  for (size_t a = 0; a < q.aggregates.size(); a++) {
    const plan::AggregateExpr& agg = q.aggregates[a];
    if (agg.func != plan::AggFunc::kOrderStat || agg.distinct || !agg.arg) continue;
    const plan::Expr& e = *agg.arg;
    if (e.kind != plan::ExprKind::kColumnRef || e.table_index != root) continue;
    const Column& col = q.tables[size_t(root)].table->column(size_t(e.column_index));
    KeyType kt;
    // The argument's type is the column's (no BOOLEAN reading, no NULL-aware wrapper).
    if (col.has_nulls() || !(col.type() == e.type) || !stored_key_type(col.type().id, &kt)) continue;
    in_place_[a] = true;
    any_ = true;
  }
}

std::string ColumnOrderStats::select_into(const RowGroups& rows, const std::vector<uint64_t>& counts,
                                   AggregateStates& states, const std::vector<uint32_t>& gids, int threads) const {
  // Aggregates over the same column share their passes.
  std::map<int, std::vector<size_t>> by_column;
  for (size_t a = 0; a < in_place_.size(); a++)
    if (in_place_[a]) by_column[q_.aggregates[a].arg->column_index].push_back(a);
  const uint64_t present = uint64_t(std::count_if(counts.begin(), counts.end(), [](uint64_t c) { return c > 0; }));
  std::string note;
  for (const auto& [column, aggs] : by_column) {
    const Column& col = q_.tables[size_t(root_)].table->column(size_t(column));
    orderstat::ColumnInput in;
    stored_key_type(col.type().id, &in.type);
    in.values = col.type().id == TypeId::kDouble ? static_cast<const void*>(col.data<double>())
                : orderstat::key_bits(in.type) == 32 ? static_cast<const void*>(col.data<int32_t>())
                                                     : static_cast<const void*>(col.data<int64_t>());
    in.n = rows.rows();
    in.select = rows.select();
    in.group_ids = rows.gids();
    in.groups = uint32_t(counts.size());
    promise_range(col, in, threads);
    std::vector<orderstat::RankSpec> specs;
    std::vector<std::vector<int64_t>> ks(aggs.size());  // k per group, for a k given by an expression
    for (size_t j = 0; j < aggs.size(); j++) {
      const plan::AggregateExpr& agg = q_.aggregates[aggs[j]];
      specs.push_back(order_stat_rank_spec(agg.order_stat));
      if (agg.order_stat.k_expr) {
        ks[j] = states.k_of_groups(*agg.order_stat.k_expr, gids);
        specs.back().k_per_group = ks[j].data();
      }
    }
    orderstat::SelectOptions options;
    options.threads = threads;
    // Few groups: per-group histograms (2 ranks per spec); many: segments.
    const bool few = mode_ == CpuOrderStats::kAuto ? present * 2 * specs.size() <= kMaxHistograms
                                                   : mode_ == CpuOrderStats::kHistograms;
    options.group_mode = few ? orderstat::GroupMode::kHistograms : orderstat::GroupMode::kSegments;
    const orderstat::OrderStats r = orderstat::order_statistics(in, specs, counts, options);
    note += fmt::format("{}{} of column {} in place ({} groups, {})", note.empty() ? "order statistics: " : "; ",
                        aggs.size(), col.name(), present,
                        options.group_mode == orderstat::GroupMode::kHistograms ? "per-group histograms"
                                                                                : "segmented select");
    for (size_t j = 0; j < aggs.size(); j++) {
      std::vector<orderstat::OrderStat> values(counts.size());
      for (uint32_t g = 0; g < counts.size(); g++) values[g] = r.at(g, uint32_t(j));
      states.load_order_stat(aggs[j], std::move(values), in.type, col.dictionary());
    }
  }
  return note;
}

}  // namespace raydb::exec::cpu
