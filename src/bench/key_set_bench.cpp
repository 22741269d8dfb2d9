#include "bench/key_set_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "common/error.h"
#include "exec/core/column_predicate.h"
#include "exec/core/key_set_window.h"
#include "exec/cuda/fact_set.h"
#include "exec/cuda/key_set_fact_set.h"
#include "exec/cuda/star_plan.h"
#include "plan/logical/key_set.h"
#include "plan/physical/physical_planner.h"
#include "sql/key_set_builder.h"
#include "sql/temp_table.h"
#include "storage/column.h"
#include "storage/table.h"

namespace raydb::bench {

namespace {

using plan::Expr;
using plan::KeySet;

// TPC-H's order keys: 8 used of every 32 (dbgen's sparse keys), 1-based.
int64_t order_key(uint64_t i) { return int64_t((i / 8) * 32 + i % 8 + 1); }

// About `keys` of the `orders` order keys, each drawn with the same chance, ascending
// (a grouped block result comes in key order).
std::vector<int64_t> sample_keys(uint64_t orders, uint64_t keys, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint64_t threshold = uint64_t(double(keys) / double(orders) * 18446744073709551615.0);
  std::vector<int64_t> out;
  out.reserve(size_t(keys + keys / 8));
  for (uint64_t i = 0; i < orders; i++)
    if (rng() < threshold) out.push_back(order_key(i));
  return out;
}

// `reps` timed runs of `step`: median, min and max in ms on one line.
void time_step(const char* name, int reps, const std::function<void()>& step) {
  std::vector<double> ms;
  for (int i = 0; i < reps; i++) {
    const auto t0 = std::chrono::steady_clock::now();
    step();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%-36s median %9.3f ms  min %9.3f  max %9.3f\n", name, ms[ms.size() / 2], ms.front(), ms.back());
  std::fflush(stdout);
}

// `select count(*) from lineitem l1 where <conjuncts>` over the one-column table.
plan::LogicalQuery count_query(const TablePtr& table, std::vector<plan::ExprPtr> conjuncts) {
  plan::LogicalQuery q;
  q.tables.push_back({table->name(), "l1", table});
  q.conjuncts = std::move(conjuncts);
  q.is_aggregate = true;
  plan::AggregateExpr count{plan::AggFunc::kCountStar, nullptr, false, {}, Type::bigint(), "count_star()"};
  q.aggregates.push_back(count);
  q.select.push_back(Expr::aggregate_ref(0, Type::bigint(), "count_star()"));
  q.output_names.push_back("n");
  return q;
}

// The star kernel's stored ranges of a fact filter in offset mode (stored = value - the
// column's min, as DeviceColumn::stored_ranges maps a column the device holds as offsets).
exec::cuda::StoredRanges offset_ranges(const exec::cuda::StarFilter& f,
                                       const std::vector<std::pair<int64_t, int64_t>>& ranges) {
  const ColumnStats& s = f.column->stats();
  exec::cuda::StoredRanges out;
  out.reserve(ranges.size());
  for (auto [lo, hi] : ranges) {
    lo = std::max(lo, s.min);
    hi = std::min(hi, s.max);
    if (lo <= hi) out.emplace_back(uint64_t(lo - s.min), uint64_t(hi - s.min));
  }
  return out;
}

size_t set_bytes(const exec::cuda::FactSet& set) {
  return set.bits.size() * 4 + set.pairs.size() * 8 + (set.hash ? set.hash->table.size() * 8 : 0);
}

// One fact filter's host steps on the star path, the path before key sets were read in
// place (the filter's value ranges, their stored ranges merged, the fact set built from
// them) and the path after (the set's window over the column, the bitmap from its runs
// into fresh memory and into memory already mapped, as the star pass fills its pinned
// staging), in one run; fails when the sets differ.
void time_fact_set(const exec::cuda::StarFilter& f, size_t i, int reps) {
  const std::string tag = "filter " + std::to_string(i) + ": ";
  std::vector<std::pair<int64_t, int64_t>> ranges;
  exec::cuda::StoredRanges sr;
  exec::cuda::FactSet before;
  time_step((tag + "before: value ranges").c_str(), reps, [&] { ranges = f.value_ranges(); });
  time_step((tag + "before: stored+merge").c_str(), reps, [&] { sr = exec::cuda::merged(offset_ranges(f, ranges)); });
  if (sr.empty()) {
    std::printf("  filter %zu: no ranges\n", i);
    return;
  }
  time_step((tag + "before: fact set").c_str(), reps, [&] { before = exec::cuda::build_fact_set(sr); });
  std::printf("  filter %zu: %zu ranges, %zu set bytes\n", i, sr.size(), set_bytes(before));
  if (!f.key_set) return;
  const ColumnStats& s = f.column->stats();
  bool pays = false;
  time_step((tag + "after: window").c_str(), reps, [&] {
    const exec::KeySetWindow w(*f.key_set, f.negated, s.min, s.max);
    pays = !w.empty() && exec::cuda::key_set_bitmap_pays(w);
  });
  if (!pays) {
    std::printf("  filter %zu: no bitmap from the key set (ranges as before)\n", i);
    return;
  }
  const exec::KeySetWindow w(*f.key_set, f.negated, s.min, s.max);
  exec::cuda::FactSet after;
  time_step((tag + "after: bitmap (fresh memory)").c_str(), reps,
            [&] { after = exec::cuda::key_set_bitmap(w, s.min); });
  // As the star pass fills it: into memory already mapped (its pinned upload staging).
  std::vector<uint32_t> staging(after.bits.size());
  time_step((tag + "after: bitmap (into staging)").c_str(), reps,
            [&] { exec::cuda::fill_key_set_bitmap(w, staging.data()); });
  if (before.kind != exec::cuda::FactSet::Kind::kBitmap || after.lo != before.lo || after.span != before.span ||
      after.bits != before.bits || !std::equal(staging.begin(), staging.end(), before.bits.begin()))
    fail(ErrorKind::kInternal, "bench keysets: the key set's bitmap differs from the ranges' fact set");
}

}  // namespace

void run_key_set_bench(const KeySetBenchOptions& o) {
  if (o.orders == 0 || o.keys == 0 || o.keys > o.orders || o.reps < 1)
    fail(ErrorKind::kInvalidInput, "bench keysets needs 0 < --keys <= --orders and --reps >= 1");
  ColumnBuilder b("l_orderkey", Type::integer());
  b.reserve(o.orders);
  for (uint64_t i = 0; i < o.orders; i++) b.append_int(order_key(i));
  const TablePtr table = std::make_shared<const Table>("lineitem", std::vector<ColumnPtr>{b.finish()});
  const std::vector<int64_t> in_words = sample_keys(o.orders, o.keys, o.seed);
  const std::vector<int64_t> not_words = sample_keys(o.orders, o.keys * 94 / 100, o.seed + 1);
  std::printf("keysets: %llu order keys in [1, %lld], sets of %zu and %zu keys, %d reps\n",
              (unsigned long long)o.orders, (long long)order_key(o.orders - 1), in_words.size(), not_words.size(),
              o.reps);

  sql::TempTable kept;
  time_step("result -> temp table", o.reps, [&] {
    sql::TempTableBuilder t("subquery", {"k"}, {Type::integer()}, "subquery");
    t.reserve(in_words.size());
    t.append_ints(0, in_words.data(), {}, in_words.size());
    kept = t.finish();
    if (kept.rows() != in_words.size()) fail(ErrorKind::kInternal, "bench keysets: rows lost");
  });
  plan::KeySetPtr in_set, not_set;
  // As the binder builds it: the kept column's words read, then the set made.
  time_step("key set (read + make)", o.reps, [&] {
    sql::KeySetScope fresh;  // no set kept from the last rep
    in_set = sql::key_set_of_column(kept);
  });
  if (!in_set || in_set->size() != in_words.size()) fail(ErrorKind::kInternal, "bench keysets: key set lost keys");
  not_set = KeySet::make(Type::integer(), not_words, false);

  const plan::ExprPtr key = Expr::column(0, 0, Type::integer(), "l_orderkey");
  const plan::ExprPtr in = Expr::in_key_set(key, in_set, false);
  const plan::ExprPtr not_in = Expr::logical_not(Expr::in_key_set(key, not_set, false));
  const plan::LogicalQuery q = count_query(table, {in, not_in});
  size_t in_ranges = 0, not_ranges = 0;
  time_step("predicate IN", o.reps, [&] { in_ranges = exec::ColumnPredicate::compile(*in, q)->ranges().size(); });
  time_step("predicate NOT IN", o.reps,
            [&] { not_ranges = exec::ColumnPredicate::compile(*not_in, q)->ranges().size(); });
  std::printf("  ranges: IN %zu, NOT IN %zu\n", in_ranges, not_ranges);

  std::optional<exec::cuda::StarPlan> sp;
  time_step("plan + star analysis", o.reps, [&] {
    const plan::PhysicalPlan physical = plan::plan_query(std::make_shared<const plan::LogicalQuery>(q), {});
    auto a = exec::cuda::analyze(physical);
    if (auto* why = std::get_if<std::string>(&a)) fail(ErrorKind::kInternal, "bench keysets: not a star plan: {}", *why);
    sp = std::move(std::get<exec::cuda::StarPlan>(a));
  });
  for (size_t i = 0; i < sp->fact_filters.size(); i++) time_fact_set(sp->fact_filters[i], i, o.reps);
}

}  // namespace raydb::bench
