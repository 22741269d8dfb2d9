#include "exec/cuda/star_plan.h"
#include "exec/cuda/general/general_plan.h"
#include "common/int_math.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "common/expression_depth.h"
#include "exec/core/column_predicate.h"
#include "exec/core/constant_conjuncts.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/key_set_window.h"
#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/star_chain_filter.h"
#include "exec/cuda/star_cross_filters.h"
#include "plan/physical/cost_model.h"

namespace raydb::exec::cuda {

std::vector<std::pair<int64_t, int64_t>> StarFilter::value_ranges() const {
  if (!key_set) return ranges;
  const ColumnStats& s = column->stats();
  return KeySetWindow(*key_set, negated, s.min, s.max).ranges();
}

using plan::AggFunc;
using plan::Expr;
using plan::ExprKind;
using plan::LogicalQuery;

namespace {

using i128 = __int128;
constexpr i128 kI64Max = std::numeric_limits<int64_t>::max();
constexpr i128 kI64Min = std::numeric_limits<int64_t>::min();
// Dense GROUP BY slots over the fact table's keys always allowed (128 MiB per
// accumulator field); beyond it, at most 4 per fact row.
constexpr uint64_t kMaxDenseRootGroups = uint64_t(1) << 24;

bool integer_physical(const Type& t) {
  return t.id == TypeId::kInteger || t.id == TypeId::kBigint || t.id == TypeId::kDate || t.id == TypeId::kDecimal;
}

// The range of values the CPU evaluator accepts for a result of type t without an
// overflow error (expression_evaluator.cpp, arith_exact); beyond int64 the GPU
// program cannot go anyway.
std::pair<i128, i128> type_bounds(const Type& t) {
  switch (t.id) {
    case TypeId::kInteger:
    case TypeId::kDate: return {INT32_MIN, INT32_MAX};
    case TypeId::kDecimal:
      if (t.precision <= 18) return {-(pow10_i128(18) - 1), pow10_i128(18) - 1};
      return {kI64Min, kI64Max};
    default: return {kI64Min, kI64Max};
  }
}

struct Compiler {
  const LogicalQuery& q;
  int root;
  StarPlan& sp;
  std::map<const Column*, int>& col_index;
  DevAgg& agg;
  std::string why;

  int fact_col(const Expr& e) {
    const ColumnPtr& c = q.tables[size_t(root)].table->column_ptr(size_t(e.column_index));
    auto it = col_index.find(c.get());
    if (it != col_index.end()) return it->second;
    int i = int(sp.fact_columns.size());
    sp.fact_columns.push_back(c);
    col_index[c.get()] = i;
    return i;
  }
  bool emit(DevInstr ins) {
    if (agg.nins >= kMaxProgram) {
      why = "aggregate expression too long";
      return false;
    }
    agg.ins[agg.nins++] = ins;
    return true;
  }
  bool scale(int dst, i128 factor, i128& lo, i128& hi) {
    if (factor == 1) return true;
    if (dst + 1 >= kProgramRegisters) {
      why = "aggregate expression too deep";
      return false;
    }
    lo *= factor;
    hi *= factor;
    // A constant just loaded into dst is rescaled in place (DECIMAL `1 - l_discount`
    // aligns 1 to scale 2): one instruction instead of three keeps TPC-H Q1's
    // sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) within kMaxProgram.
    if (agg.nins > 0) {
      DevInstr& last = agg.ins[agg.nins - 1];
      const i128 folded = i128(last.k) * factor;
      if (last.op == kOpConst && last.dst == dst && folded >= kI64Min && folded <= kI64Max) {
        last.k = int64_t(folded);
        return true;
      }
    }
    DevInstr c;
    c.op = kOpConst;
    c.dst = uint8_t(dst + 1);
    c.k = int64_t(factor);
    DevInstr m;
    m.op = kOpMul;
    m.dst = m.a = uint8_t(dst);
    m.b = uint8_t(dst + 1);
    return emit(c) && emit(m);
  }
  // Compiles `e` into register `dst`; lo/hi bound its values (exact interval arithmetic).
  bool compile(const Expr& e, int dst, i128& lo, i128& hi) {
    ExpressionDepthGuard depth_guard;  // one level of recursion (issue 14)
    if (dst >= kProgramRegisters) {
      why = "aggregate expression too deep";
      return false;
    }
    switch (e.kind) {
      case ExprKind::kColumnRef: {
        if (e.table_index != root) {
          why = "aggregates over dimension columns";
          return false;
        }
        if (!integer_physical(e.type)) {
          why = fmt::format("aggregate over {} column {}", e.type.to_string(), e.name);
          return false;
        }
        const Column& c = q.tables[size_t(root)].table->column(size_t(e.column_index));
        lo = c.stats().min;
        hi = c.stats().max;
        if (lo > hi) lo = hi = 0;  // empty table: never evaluated
        DevInstr ins;
        ins.op = kOpLoad;
        ins.dst = uint8_t(dst);
        ins.col = fact_col(e);
        return emit(ins);
      }
      case ExprKind::kConstant: {
        if (e.value.is_null() || !(e.type.is_integral() || e.type.id == TypeId::kDecimal)) {
          why = "a non-integer constant in an aggregate";
          return false;
        }
        i128 v = e.value.as_hugeint();
        if (v > kI64Max || v < kI64Min) {
          why = "a constant beyond 64 bits";
          return false;
        }
        lo = hi = v;
        DevInstr ins;
        ins.op = kOpConst;
        ins.dst = uint8_t(dst);
        ins.k = int64_t(v);
        return emit(ins);
      }
      case ExprKind::kNegate: {
        if (!compile(*e.children[0], dst, lo, hi)) return false;
        i128 l = -hi, h = -lo;
        lo = l;
        hi = h;
        DevInstr ins;
        ins.op = kOpNeg;
        ins.dst = ins.a = uint8_t(dst);
        if (!emit(ins)) return false;
        break;
      }
      case ExprKind::kArith: {
        if (e.arith_op == plan::ArithOp::kDiv || e.arith_op == plan::ArithOp::kMod) {
          why = "division or modulo in an aggregate";
          return false;
        }
        if (e.type.id == TypeId::kDouble || !(e.children[0]->type.id != TypeId::kDouble &&
                                               e.children[1]->type.id != TypeId::kDouble)) {
          why = "DOUBLE arithmetic in an aggregate";
          return false;
        }
        auto scale_of = [](const Type& t) { return t.id == TypeId::kDecimal ? int(t.scale) : 0; };
        const bool add_like = e.arith_op != plan::ArithOp::kMul;
        const int rs = scale_of(e.type);
        i128 l1, h1, l2, h2;
        if (!compile(*e.children[0], dst, l1, h1)) return false;
        // Operands of + and - are aligned to the result scale exactly as the CPU does.
        if (add_like && !scale(dst, pow10_i128(rs - scale_of(e.children[0]->type)), l1, h1)) return false;
        if (!compile(*e.children[1], dst + 1, l2, h2)) return false;
        if (add_like && !scale(dst + 1, pow10_i128(rs - scale_of(e.children[1]->type)), l2, h2)) return false;
        for (i128 v : {l1, h1, l2, h2})
          if (v > kI64Max || v < kI64Min) {
            why = "an aggregate expression that may exceed 64 bits";
            return false;
          }
        DevInstr ins;
        ins.dst = ins.a = uint8_t(dst);
        ins.b = uint8_t(dst + 1);
        if (e.arith_op == plan::ArithOp::kAdd) {
          ins.op = kOpAdd;
          lo = l1 + l2;
          hi = h1 + h2;
        } else if (e.arith_op == plan::ArithOp::kSub) {
          ins.op = kOpSub;
          lo = l1 - h2;
          hi = h1 - l2;
        } else {
          ins.op = kOpMul;
          i128 c[4] = {l1 * l2, l1 * h2, h1 * l2, h1 * h2};
          lo = *std::min_element(c, c + 4);
          hi = *std::max_element(c, c + 4);
        }
        if (!emit(ins)) return false;
        break;
      }
      default:
        why = fmt::format("aggregate argument {}", e.to_string());
        return false;
    }
    auto [tl, th] = type_bounds(e.type);
    if (lo < tl || hi > th || lo < kI64Min || hi > kI64Max) {
      why = fmt::format("{} may overflow (bounds from column statistics)", e.to_string());
      return false;
    }
    return true;
  }
};

// `column IS NOT NULL` over a column that holds no NULL is true for every row: the
// decorrelated semi joins put it on their keys (EXISTS: outer IS NOT NULL AND outer IN
// (...)), and it kept those blocks off the star kernels.
bool true_for_every_row(const plan::Expr& e, const LogicalQuery& q) {
  if (e.kind != ExprKind::kIsNull || !e.negated || e.children.size() != 1) return false;
  const plan::Expr& c = *e.children[0];
  if (c.kind != ExprKind::kColumnRef || c.table_index < 0 || size_t(c.table_index) >= q.tables.size()) return false;
  const Table& t = *q.tables[size_t(c.table_index)].table;
  return c.column_index >= 0 && size_t(c.column_index) < t.column_count() &&
         !t.column(size_t(c.column_index)).has_nulls();
}

std::optional<std::string> compile_filters(const std::vector<plan::ExprPtr>& conjuncts, const LogicalQuery& q,
                                           std::vector<StarFilter>& out, bool& always_false,
                                           std::vector<StarTree>* trees = nullptr) {
  for (auto& c : conjuncts) {
    if (true_for_every_row(*c, q)) continue;
    // A root key set stays the set: the fact pass reads its runs (star_fact_pass.cpp).
    if (auto k = trees ? match_key_set_predicate(*c, q) : std::nullopt) {
      StarFilter f;
      f.column = q.tables[size_t(k->table)].table->column_ptr(size_t(k->column));
      const ColumnStats& s = f.column->stats();
      const KeySetWindow w(*k->set, k->negated, s.min, s.max);
      f.coverage = w.coverage();
      if (w.empty()) always_false = true;
      f.key_set = k->set;
      f.negated = k->negated;
      out.push_back(std::move(f));
      continue;
    }
    auto p = ColumnPredicate::compile(*c, q);
    if (!p) {
      // The fact table also takes boolean programs (OR/NOT across columns, semi-linear).
      auto prog = trees ? FilterProgram::compile(*c, q) : std::nullopt;
      if (!prog) return fmt::format("filter {}", c->to_string());
      StarTree t{std::move(*prog), {}, {}};
      trees->push_back(std::move(t));
      continue;
    }
    StarFilter f;
    f.column = q.tables[size_t(p->table_index())].table->column_ptr(
        size_t(q.tables[size_t(p->table_index())].table->find_column(p->column().name())));
    f.coverage = p->coverage();
    if (p->always_false()) always_false = true;
    f.ranges = std::move(*p).take_ranges();
    out.push_back(std::move(f));
  }
  std::stable_sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.coverage < b.coverage; });
  return std::nullopt;
}

// The fact kernel's limits for boolean programs (kernel_params.h); binds their columns.
template <typename FactCol>
std::optional<std::string> bind_trees(StarPlan& sp, const Table& rt, FactCol&& fact_col) {
  if (sp.fact_trees.size() > size_t(kMaxTrees)) return fmt::format("more than {} boolean fact-table filters", kMaxTrees);
  size_t leaves = 0, linears = 0;
  for (auto& t : sp.fact_trees) {
    const FilterProgram& p = t.program;
    if (p.steps().size() > size_t(kMaxTreeSteps) || p.depth() > kMaxTreeDepth)
      return fmt::format("a boolean fact-table filter of more than {} steps or depth {}", kMaxTreeSteps, kMaxTreeDepth);
    leaves += p.ranges().size();
    linears += p.linears().size();
    for (auto& r : p.ranges()) t.range_cols.push_back(fact_col(rt.column_ptr(size_t(rt.find_column(r.column().name())))));
    for (auto& l : p.linears()) {
      if (l.terms().size() > size_t(kMaxLinearTerms))
        return fmt::format("a semi-linear filter over more than {} columns", kMaxLinearTerms);
      std::vector<int> cols;
      for (auto& term : l.terms()) cols.push_back(fact_col(rt.column_ptr(size_t(term.column_index))));
      t.linear_cols.push_back(std::move(cols));
    }
  }
  if (leaves > size_t(kMaxTreeLeaves))
    return fmt::format("more than {} range predicates in boolean fact-table filters", kMaxTreeLeaves);
  if (linears > size_t(kMaxLinears)) return fmt::format("more than {} semi-linear fact-table filters", kMaxLinears);
  return std::nullopt;
}

// Join `step` (on a fact-table column, foreign key `fact_col`) as a star dimension.
std::optional<std::string> add_dimension(const plan::PhysicalPlan& plan, const plan::JoinStep& step, int fact_col,
                                         StarPlan& sp, std::vector<int>& dim_of_table,
                                         std::vector<StarDimKey>& dim_keys) {
  const LogicalQuery& q = *plan.query;
  const Expr& bk = *step.build_keys[0];
  StarDim d;
  d.table = step.build_table;
  d.key = q.tables[size_t(d.table)].table->column_ptr(size_t(bk.column_index));
  d.fact_col = fact_col;
  if (auto why = compile_filters(plan.table_filters[size_t(d.table)], q, d.filters, d.always_false)) return *why;
  if (d.filters.size() > size_t(kMaxDimFilters)) return std::string("too many filters on one dimension");
  const ColumnStats& ks = d.key->stats();
  // The span in unsigned arithmetic: max - min of two int64 may not fit int64 (exact mod 2^64 when max >= min).
  if (ks.min <= ks.max && uint64_t(ks.max) - uint64_t(ks.min) >= (uint64_t(1) << 28))
    return fmt::format("join key {} spans more than 2^28 values (hash joins are not on the GPU yet)", d.key->name());
  dim_of_table[size_t(d.table)] = int(sp.dims.size());
  dim_keys.push_back({d.table, bk.column_index, step.probe_keys[0]});
  sp.dims.push_back(std::move(d));
  return std::nullopt;
}

// dim_of_table's mark of a table folded into a dimension's filters.
constexpr int kFoldedTable = -2;

// Folds join `step`, a snowflake table that only filters the dimension probing it
// (star_chain_filter.h), into that dimension's filters: true when folded (`why` set
// when the dimension then has too many filters); false to treat it as any join.
bool fold_chain_join(const plan::PhysicalPlan& plan, const plan::JoinStep& step, StarPlan& sp,
                     std::vector<int>& dim_of_table, std::optional<std::string>& why) {
  const Expr& pk = *step.probe_keys[0];
  if (pk.kind != ExprKind::kColumnRef || pk.table_index == plan.root_table || pk.table_index < 0 ||
      dim_of_table[size_t(pk.table_index)] < 0 || dim_of_table[size_t(step.build_table)] != -1)
    return false;
  std::optional<StarFilter> f = chain_join_filter(plan, step);
  if (!f) return false;
  StarDim& d = sp.dims[size_t(dim_of_table[size_t(pk.table_index)])];
  if (f->ranges.empty()) d.always_false = true;
  d.filters.push_back(std::move(*f));
  std::stable_sort(d.filters.begin(), d.filters.end(), [](auto& a, auto& b) { return a.coverage < b.coverage; });
  if (d.filters.size() > size_t(kMaxDimFilters)) why = "too many filters on one dimension";
  dim_of_table[size_t(step.build_table)] = kFoldedTable;
  return true;
}

// Column-free conjuncts (an IN subquery without rows binds to FALSE: TPC-H Q18's
// outer block at small SF) decide once on the host whether any row can pass, as every
// backend decides them: true when none can; nullopt when one fails to evaluate.
std::optional<bool> constants_rule_out_rows(const plan::PhysicalPlan& plan) {
  try {
    return !constant_conjuncts_pass(plan);
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace

std::variant<StarPlan, std::string> analyze(const plan::PhysicalPlan& plan) {
  const LogicalQuery& q = *plan.query;
  StarPlan sp;
  if (!q.is_aggregate) return std::string("queries without GROUP BY or aggregates");
  if (q.tables.empty()) return std::string("queries without tables");
  if (q.tables.size() > 1 + size_t(kMaxJoins)) return fmt::format("more than {} joins", kMaxJoins);
  sp.root = plan.root_table;
  const size_t root = size_t(plan.root_table);
  const Table& rt = *q.tables[root].table;
  sp.root_rows = rt.row_count();
  if (sp.root_rows >= (uint64_t(1) << 32)) return std::string("tables of 2^32 rows or more");
  const std::optional<bool> ruled_out = constants_rule_out_rows(plan);
  if (!ruled_out) return std::string("constant conditions that fail to evaluate");  // the general path reports it
  sp.always_false = *ruled_out;
  std::map<const Column*, int> col_index;
  auto fact_col = [&](const ColumnPtr& c) {
    auto it = col_index.find(c.get());
    if (it != col_index.end()) return it->second;
    int i = int(sp.fact_columns.size());
    sp.fact_columns.push_back(c);
    col_index[c.get()] = i;
    return i;
  };

  // Joins: each a dimension joined to the root on one integer key.
  std::vector<int> dim_of_table(q.tables.size(), -1);
  std::vector<StarDimKey> dim_keys;
  std::vector<plan::ExprPtr> residuals;  // conditions across tables, applied below as fact filters
  for (auto& step : plan.joins) {
    if (step.build_keys.size() != 1) return std::string("joins on several keys or cross joins");
    residuals.insert(residuals.end(), step.residuals.begin(), step.residuals.end());
    const Expr& pk = *step.probe_keys[0];
    const Expr& bk = *step.build_keys[0];
    if (std::optional<std::string> why; fold_chain_join(plan, step, sp, dim_of_table, why)) {
      if (why) return *why;
      continue;
    }
    if (pk.kind != ExprKind::kColumnRef || pk.table_index != int(root))
      return std::string("joins whose probe key is not a fact-table column (snowflake or chain joins)");
    if (bk.kind != ExprKind::kColumnRef || !integer_physical(bk.type) || !integer_physical(pk.type))
      return std::string("joins on non-integer keys");
    if (pk.type.id == TypeId::kDecimal || bk.type.id == TypeId::kDecimal) return std::string("joins on decimal keys");
    if (dim_of_table[size_t(step.build_table)] != -1) return std::string("a table joined twice");
    const int fk = fact_col(rt.column_ptr(size_t(pk.column_index)));
    if (auto why = add_dimension(plan, step, fk, sp, dim_of_table, dim_keys)) return *why;
  }
  const size_t folded = size_t(std::count(dim_of_table.begin(), dim_of_table.end(), kFoldedTable));
  if (sp.dims.size() + folded + 1 != q.tables.size())
    return std::string("tables that are not joined to the fact table");

  // Root filters, with the conditions across tables (an OR across dimensions) as
  // membership sets on the foreign keys (star_cross_filters.h).
  std::vector<plan::ExprPtr> root_filters = plan.table_filters[root];
  for (auto& r : residuals) {
    FactFilter f = fact_filter_of_residual(r, q, int(root), dim_keys);
    if (auto* why = std::get_if<std::string>(&f)) return "join condition: " + *why;
    if (auto* holds = std::get_if<bool>(&f)) {
      if (!*holds) sp.always_false = true;
      continue;
    }
    // Checked here so that a reason quotes the residual, never its (long) key lists.
    const plan::ExprPtr& x = std::get<plan::ExprPtr>(f);
    if (!ColumnPredicate::compile(*x, q) && !FilterProgram::compile(*x, q))
      return fmt::format("join condition {}", r->to_string());
    root_filters.push_back(x);
  }
  if (auto why = compile_filters(root_filters, q, sp.fact_filters, sp.always_false, &sp.fact_trees)) return *why;
  sp.fact_conjuncts = root_filters;
  if (sp.fact_filters.size() > size_t(kMaxFactPreds)) return fmt::format("more than {} fact-table filters", kMaxFactPreds);
  for (auto& f : sp.fact_filters) f.fact_col = fact_col(f.column);
  if (auto why = bind_trees(sp, rt, fact_col)) return *why;

  // Group keys: columns with known ranges, packed as the CPU packs them.
  int bits = 0;
  for (size_t k = 0; k < q.group_keys.size(); k++) {
    const Expr& g = *q.group_keys[k];
    if (g.kind != ExprKind::kColumnRef) return fmt::format("GROUP BY expression {}", g.to_string());
    if (g.type.id == TypeId::kDouble) return std::string("GROUP BY a DOUBLE column");
    KeySpec s = group_key_spec(g, q);
    if (!s.has_range) {
      if (q.tables[size_t(g.table_index)].table->row_count() == 0) {
        sp.always_false = true;  // an empty table: nothing joins, no groups
        s.has_range = true;
        s.min = s.max = 0;
      } else {
        return fmt::format("GROUP BY {} without a value range", g.name);
      }
    }
    uint64_t r = value_count(s.min, s.max);
    int b = r <= 1 ? 0 : 64 - std::countl_zero(r - 1);
    sp.key_shifts.push_back(bits);
    bits += b;
    sp.key_specs.push_back(s);
    if (g.table_index == int(root)) {
      if (sp.root_group_keys.size() >= size_t(kMaxRootGroups)) return std::string("too many fact-table GROUP BY keys");
      sp.root_group_keys.push_back(int(k));
      sp.root_group_cols.push_back(fact_col(rt.column_ptr(size_t(g.column_index))));
    } else {
      int d = dim_of_table[size_t(g.table_index)];
      if (sp.dims[size_t(d)].group_keys.size() >= size_t(kMaxDimGroups))
        return std::string("too many GROUP BY keys from one dimension");
      sp.dims[size_t(d)].group_keys.push_back(int(k));
    }
  }
  if (bits > 62) return std::string("GROUP BY keys wider than 62 bits together");
  // The fused kernel keeps one dense accumulator per value combination of the fact
  // table's GROUP BY keys (star_fact_pass.cpp). Far more combinations than fact rows
  // (TPC-H q20's GROUP BY l_partkey, l_suppkey: 2*10^9 slots, 15 GiB, for 6*10^6 rows
  // at SF 1) leave it to the general path, whose hash grouping is sized by the rows.
  uint64_t dense = 1;
  for (int k : sp.root_group_keys) {
    const KeySpec& s = sp.key_specs[size_t(k)];
    if (__builtin_mul_overflow(dense, value_count(s.min, s.max), &dense)) dense = UINT64_MAX;
  }
  if (dense > std::max<uint64_t>(kMaxDenseRootGroups, 4 * sp.root_rows))
    return fmt::format("{} dense GROUP BY slots for {} fact rows", dense, sp.root_rows);

  // Aggregates.
  if (q.aggregates.size() > size_t(kMaxAggs)) return fmt::format("more than {} aggregates", kMaxAggs);
  for (auto& a : q.aggregates) {
    if (a.distinct) return std::string("DISTINCT aggregates");
    StarAgg sa;
    sa.func = a.func;
    if (a.func == AggFunc::kOrderStat) {
      const Expr& arg = *a.arg;
      if (arg.kind != ExprKind::kColumnRef || arg.table_index != int(root))
        return fmt::format("{} of anything but a fact-table column", a.name);
      if (!integer_physical(arg.type) && arg.type.id != TypeId::kVarchar)
        return fmt::format("{} over {}", a.name, arg.type.to_string());
      sa.order_stat = true;
      sa.os_col = fact_col(rt.column_ptr(size_t(arg.column_index)));
      sa.key_type = arg.type.id == TypeId::kVarchar ? orderstat::KeyType::kUInt64 : orderstat::KeyType::kInt64;
      if (arg.type.id == TypeId::kVarchar) sa.dict = rt.column(size_t(arg.column_index)).dictionary();
      sa.arg_type = arg.type;
      sa.dev.func = kAggCount;
      sp.aggs.push_back(sa);
      continue;
    }
    if (a.func == AggFunc::kCountStar) {
      sa.dev.func = kAggCount;
      sp.aggs.push_back(sa);
      continue;
    }
    const Expr& arg = *a.arg;
    if (may_be_null(arg)) return fmt::format("aggregate over a nullable expression {}", arg.to_string());
    sa.arg_type = arg.type;
    sa.kind = kind_of(arg.type);
    if (arg.kind == ExprKind::kColumnRef && arg.table_index == int(root) &&
        (arg.type.id == TypeId::kVarchar || a.func == AggFunc::kCount)) {
      // COUNT of a NOT NULL column counts rows; MIN/MAX of VARCHAR compare codes.
      if (a.func == AggFunc::kCount) {
        sa.dev.func = kAggCount;
        sp.aggs.push_back(sa);
        continue;
      }
      if (a.func != AggFunc::kMin && a.func != AggFunc::kMax) return fmt::format("{} over VARCHAR", a.name);
      sa.kind = VectorKind::kCode;
      sa.dict = rt.column(size_t(arg.column_index)).dictionary();
      sa.dev.func = a.func == AggFunc::kMin ? kAggMin : kAggMax;
      DevInstr ins;
      ins.op = kOpLoad;
      ins.col = fact_col(rt.column_ptr(size_t(arg.column_index)));
      sa.dev.ins[0] = ins;
      sa.dev.nins = 1;
      sp.aggs.push_back(sa);
      continue;
    }
    if (arg.type.id == TypeId::kDouble || arg.type.id == TypeId::kVarchar)
      return fmt::format("{} over {} (not exact on the GPU yet)", a.name, arg.type.to_string());
    Compiler c{q, int(root), sp, col_index, sa.dev, {}};
    i128 lo = 0, hi = 0;
    if (!c.compile(arg, 0, lo, hi)) return c.why;
    switch (a.func) {
      case AggFunc::kCount: sa.dev.func = kAggCount; break;
      case AggFunc::kSum:
      case AggFunc::kAvg: {
        sa.dev.func = kAggSum;
        // 64-bit sums are exact when |value| * rows cannot leave int64 (wrap-around
        // additions in any order then give the exact total); else 128 bits.
        i128 m = std::max(lo < 0 ? -lo : lo, hi < 0 ? -hi : hi);
        sa.dev.wide = m * i128(std::max<uint64_t>(sp.root_rows, 1)) > kI64Max;
        break;
      }
      case AggFunc::kMin: sa.dev.func = kAggMin; break;
      case AggFunc::kMax: sa.dev.func = kAggMax; break;
      default: return std::string("unknown aggregate");
    }
    sp.aggs.push_back(sa);
  }
  if (sp.fact_columns.size() > size_t(kMaxFactColumns))
    return fmt::format("more than {} fact-table columns", kMaxFactColumns);
  return sp;
}

std::optional<std::string> unsupported_reason(const plan::PhysicalPlan& plan) {
  auto r = analyze(plan);
  if (std::holds_alternative<StarPlan>(r)) return std::nullopt;
  // Not a star plan: the general path (general/general_plan.h) may still run it.
  auto g = general::analyze_general(plan);
  if (auto* why = std::get_if<std::string>(&g)) return *why;
  return std::nullopt;
}

}  // namespace raydb::exec::cuda

namespace raydb::exec::cuda {

double fused_pass_cost_ms(const StarPlan& star) {
  const StarPlan* sp = &star;
  // The fact kernel reads every filter column whole and any other column (join keys,
  // group keys, aggregate arguments) only in the 16-row vectors holding a selected
  // row; stored widths bound the narrowed ones from above. Dimensions are read whole.
  double selected = 1;
  for (auto& f : sp->fact_filters) selected *= std::clamp(f.coverage, 0.0, 1.0);
  const double other_share = std::min(1.0, 16.0 * selected);
  const double rows = double(sp->root_rows);
  double bytes = 0;
  for (auto& c : sp->fact_columns) {
    bool filtered = std::any_of(sp->fact_filters.begin(), sp->fact_filters.end(),
                                [&](const StarFilter& f) { return f.column == c; });
    // Boolean programs' columns: read whole too (an upper bound; they run after the
    // range conjuncts and read only vectors still holding a selected row).
    for (auto& t : sp->fact_trees) {
      for (auto& r : t.program.ranges()) filtered = filtered || &r.column() == c.get();
      for (auto& l : t.program.linears())
        for (auto& term : l.terms()) filtered = filtered || term.column == c.get();
    }
    bytes += rows * double(c->type().physical_width()) * (filtered ? 1.0 : other_share);
  }
  for (auto& d : sp->dims) {
    double w = d.key->type().physical_width();
    for (auto& f : d.filters) w += f.column->type().physical_width();
    bytes += double(d.key->size()) * w;
  }
  return plan::scan_cost_ms(plan::ExecDevice::kGpu, sp->root_rows, bytes,
                            int(sp->fact_filters.size() + sp->fact_trees.size()));
}

int number_accumulators(const StarPlan& star, std::vector<int>& lo_field, std::vector<int>& hi_field) {
  lo_field.assign(star.aggs.size(), -1);
  hi_field.assign(star.aggs.size(), -1);
  int nfields = 1;
  for (size_t a = 0; a < star.aggs.size(); a++) {
    if (star.aggs[a].dev.func == kAggCount) continue;
    lo_field[a] = nfields++;
    if (star.aggs[a].dev.wide) hi_field[a] = nfields++;
  }
  return nfields;
}

}  // namespace raydb::exec::cuda
