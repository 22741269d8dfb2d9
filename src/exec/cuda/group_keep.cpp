#include "exec/cuda/group_keep.h"

#include <optional>

#include "exec/cuda/star_plan.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec::cuda {

using plan::AggFunc;
using plan::CompareOp;
using plan::Expr;
using plan::ExprKind;
using i128 = __int128;

namespace {

int scale_of(const Type& t) { return t.id == TypeId::kDecimal ? int(t.scale) : 0; }
bool exact_integer(const Type& t) {
  return t.id == TypeId::kInteger || t.id == TypeId::kBigint || t.id == TypeId::kDecimal;
}

CompareOp flipped(CompareOp op) {
  switch (op) {
    case CompareOp::kLt: return CompareOp::kGt;
    case CompareOp::kLe: return CompareOp::kGe;
    case CompareOp::kGt: return CompareOp::kLt;
    case CompareOp::kGe: return CompareOp::kLe;
    default: return op;
  }
}

i128 floor_div(i128 a, i128 b) { return a / b - ((a % b != 0 && a < 0) ? 1 : 0); }  // b > 0
i128 ceil_div(i128 a, i128 b) { return a / b + ((a % b != 0 && a > 0) ? 1 : 0); }   // b > 0

// The accumulator field(s) of aggregate a and the scale of the integer they hold, or
// nullopt when the value is not that integer (AVG, order statistics, dictionary codes).
struct Field {
  int lo = 0, hi = -1, scale = 0;
};
std::optional<Field> field_of(const plan::LogicalQuery& q, const StarPlan& sp, const std::vector<int>& lo_field,
                              const std::vector<int>& hi_field, const Expr& ref) {
  const size_t a = size_t(ref.ref_index);
  if (ref.ref_index < 0 || a >= q.aggregates.size() || a >= sp.aggs.size() || sp.aggs[a].order_stat)
    return std::nullopt;
  const plan::AggregateExpr& agg = q.aggregates[a];
  if (agg.distinct) return std::nullopt;
  if (agg.func == AggFunc::kCountStar || agg.func == AggFunc::kCount) return Field{0, -1, 0};  // row counts
  if (agg.func != AggFunc::kSum && agg.func != AggFunc::kMin && agg.func != AggFunc::kMax) return std::nullopt;
  if (!agg.arg || !exact_integer(agg.arg->type) || !exact_integer(agg.type)) return std::nullopt;
  if (scale_of(agg.arg->type) != scale_of(agg.type) || lo_field[a] < 0) return std::nullopt;
  return Field{lo_field[a], agg.func == AggFunc::kSum ? hi_field[a] : -1, scale_of(agg.arg->type)};
}

DevCmp dev_cmp(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return kCmpEq;
    case CompareOp::kNe: return kCmpNe;
    case CompareOp::kLt: return kCmpLt;
    case CompareOp::kLe: return kCmpLe;
    case CompareOp::kGt: return kCmpGt;
    default: return kCmpGe;
  }
}

// `v op c` with v at scale sv and c at scale sc, as `v op' k` over v's integers:
// exact, or nullopt when it cannot be (a term then is simply not added).
std::optional<std::pair<CompareOp, i128>> in_field_domain(CompareOp op, i128 c, int sc, int sv) {
  if (sc <= sv) {
    const i128 m = pow10_i128(sv - sc);
    i128 k;
    if (__builtin_mul_overflow(c, m, &k)) return std::nullopt;
    return std::make_pair(op, k);
  }
  // v * 10^d op c, d > 0: compare v with c / 10^d rounded the way that keeps the truth.
  const i128 m = pow10_i128(sc - sv);
  switch (op) {
    case CompareOp::kGt:
    case CompareOp::kLe: return std::make_pair(op, floor_div(c, m));
    case CompareOp::kGe:
    case CompareOp::kLt: return std::make_pair(op, ceil_div(c, m));
    default:
      if (c % m != 0) return std::nullopt;  // = never holds, <> always: left to the finisher
      return std::make_pair(op, c / m);
  }
}

// `aggregate op aggregate` over integers of one scale (TPC-H Q21's decorrelated
// EXISTS: min(c) <> max(c)): the two fields compared as they are.
std::optional<DevKeepTerm> field_term(const plan::LogicalQuery& q, const StarPlan& sp, const std::vector<int>& lo_field,
                                      const std::vector<int>& hi_field, const Expr& e) {
  const Expr& a = *e.children[0];
  const Expr& b = *e.children[1];
  if (a.kind != ExprKind::kAggregateRef || b.kind != ExprKind::kAggregateRef) return std::nullopt;
  auto fa = field_of(q, sp, lo_field, hi_field, a);
  auto fb = field_of(q, sp, lo_field, hi_field, b);
  if (!fa || !fb || fa->scale != fb->scale) return std::nullopt;
  DevKeepTerm t;
  t.lo = fa->lo;
  t.hi = fa->hi;
  t.op = dev_cmp(e.compare_op);
  t.rlo = fb->lo;
  t.rhi = fb->hi;
  return t;
}

std::optional<DevKeepTerm> term_of(const plan::LogicalQuery& q, const StarPlan& sp, const std::vector<int>& lo_field,
                                   const std::vector<int>& hi_field, const Expr& e) {
  if (e.kind != ExprKind::kCompare || e.children.size() != 2) return std::nullopt;
  if (auto t = field_term(q, sp, lo_field, hi_field, e)) return t;
  const Expr* ref = e.children[0].get();
  const Expr* con = e.children[1].get();
  CompareOp op = e.compare_op;
  if (ref->kind == ExprKind::kConstant) {
    std::swap(ref, con);
    op = flipped(op);
  }
  if (ref->kind != ExprKind::kAggregateRef || con->kind != ExprKind::kConstant) return std::nullopt;
  if (con->value.is_null() || !exact_integer(con->type)) return std::nullopt;
  auto f = field_of(q, sp, lo_field, hi_field, *ref);
  if (!f) return std::nullopt;
  auto k = in_field_domain(op, con->value.as_hugeint(), scale_of(con->type), f->scale);
  if (!k) return std::nullopt;
  DevKeepTerm t;
  t.lo = f->lo;
  t.hi = f->hi;
  t.op = dev_cmp(k->first);
  t.k_lo = int64_t(uint64_t((unsigned __int128)k->second));
  t.k_hi = int64_t(uint64_t((unsigned __int128)k->second >> 64));
  return t;
}

}  // namespace

DevGroupKeep compile_group_keep(const plan::LogicalQuery& q, const StarPlan& sp, const std::vector<int>& lo_field,
                                const std::vector<int>& hi_field) {
  DevGroupKeep keep;
  if (!q.having || q.group_keys.empty()) return keep;
  std::vector<const Expr*> conjuncts;
  if (q.having->kind == ExprKind::kAnd)
    for (auto& c : q.having->children) conjuncts.push_back(c.get());
  else
    conjuncts.push_back(q.having.get());
  for (const Expr* c : conjuncts) {
    if (keep.nterms == kMaxKeepTerms) break;
    if (auto t = term_of(q, sp, lo_field, hi_field, *c)) keep.terms[keep.nterms++] = *t;
  }
  return keep;
}

}  // namespace raydb::exec::cuda
