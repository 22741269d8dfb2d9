#include "exec/index/view_matcher.h"

#include <algorithm>
#include <optional>

#include "common/error.h"
#include "exec/core/column_predicate.h"

namespace raydb::exec {
namespace {

using rtview::AggExpr;
using rtview::CodeInterval;
using rtview::ViewDefinition;

// The matching state: which view table (0 the fact, 1 + j dimension j) each query table is.
struct Slots {
  const plan::LogicalQuery& q;
  const ViewDefinition& def;
  std::vector<int> slot;  // per query table

  const std::string& slot_table(int s) const { return s == 0 ? def.fact : def.joins[size_t(s - 1)].dimension; }
  // Whether query column (t, c) is the view attribute `a`.
  bool is_attr(int t, int c, const rtview::AttrRef& a) const {
    const std::string& col = q.tables[size_t(t)].table->column(size_t(c)).name();
    if (!iequals(col, a.column)) return false;
    // CREATE RT VIEW qualifies every attribute with its table; an unqualified one
    // (hand-built definitions) matches by column name, as SSB's names are unique.
    return a.table.empty() || iequals(a.table, slot_table(slot[size_t(t)]));
  }
};

std::optional<std::string> map_tables(Slots& m) {
  const plan::LogicalQuery& q = m.q;
  m.slot.assign(q.tables.size(), -1);
  std::vector<bool> used(m.def.joins.size() + 1, false);
  for (size_t t = 0; t < q.tables.size(); ++t) {
    for (size_t s = 0; s <= m.def.joins.size() && m.slot[t] < 0; ++s)
      if (!used[s] && iequals(q.tables[t].name, m.slot_table(int(s)))) m.slot[t] = int(s), used[s] = true;
    if (m.slot[t] < 0) return "table " + q.tables[t].name + " is not in the view (or appears twice)";
  }
  if (!used[0]) return "the query does not read the view's fact table " + m.def.fact;
  return std::nullopt;
}

// A conjunct `fact.fk = dim.key` of the view's joins: the dimension's slot, else -1.
int join_of(const Slots& m, const plan::Expr& e) {
  if (e.kind != plan::ExprKind::kCompare || e.compare_op != plan::CompareOp::kEq) return -1;
  const plan::Expr& a = *e.children[0];
  const plan::Expr& b = *e.children[1];
  if (a.kind != plan::ExprKind::kColumnRef || b.kind != plan::ExprKind::kColumnRef) return -1;
  for (int flip = 0; flip < 2; ++flip) {
    const plan::Expr& f = flip ? b : a;
    const plan::Expr& d = flip ? a : b;
    const int fs = m.slot[size_t(f.table_index)], ds = m.slot[size_t(d.table_index)];
    if (fs != 0 || ds <= 0) continue;
    const rtview::ViewJoin& j = m.def.joins[size_t(ds - 1)];
    if (iequals(m.q.tables[size_t(f.table_index)].table->column(size_t(f.column_index)).name(), j.fact_key) &&
        iequals(m.q.tables[size_t(d.table_index)].table->column(size_t(d.column_index)).name(), j.dim_key))
      return ds;
  }
  return -1;
}

std::vector<CodeInterval> intersect(const std::vector<CodeInterval>& a, const std::vector<CodeInterval>& b) {
  std::vector<CodeInterval> out;
  for (const CodeInterval& x : a)
    for (const CodeInterval& y : b) {
      const uint32_t lo = std::max(x.lo, y.lo), hi = std::min(x.hi, y.hi);
      if (lo <= hi) out.push_back({lo, hi});
    }
  return out;
}

// The stored-value ranges of a predicate on query column `col` as the view
// attribute's codes: integers shift by the domain's minimum; strings go through the
// strings themselves (the view keeps its own copy of the dictionary).
std::vector<CodeInterval> to_codes(const ColumnPredicate& p, const rtview::AttrDomain& d) {
  std::vector<CodeInterval> out;
  for (auto [lo, hi] : p.ranges()) {
    if (d.type.id == TypeId::kVarchar) {
      const Dictionary* qd = p.column().dictionary();
      if (!qd || !d.dict || lo > hi || hi < 0 || lo >= int64_t(qd->size())) continue;
      const uint32_t a = d.dict->lower_bound(qd->at(uint32_t(std::max<int64_t>(lo, 0))));
      const uint32_t b = d.dict->upper_bound(qd->at(uint32_t(std::min<int64_t>(hi, int64_t(qd->size()) - 1))));
      if (a < b) out.push_back({a, b - 1});
    } else if (auto c = d.int_range(lo, hi)) {
      out.push_back({c->first, c->second});
    }
  }
  return out;
}

// Whether query expression `e` is the view's aggregate input expression `x`.
bool same_input(const Slots& m, const plan::Expr& e, const AggExpr& x) {
  switch (x.op) {
    case AggExpr::Op::kColumn:
      return e.kind == plan::ExprKind::kColumnRef && m.is_attr(e.table_index, e.column_index, x.column);
    case AggExpr::Op::kConst:
      return e.kind == plan::ExprKind::kConstant && !e.value.is_null() && e.type.id != TypeId::kDouble &&
             e.type.id != TypeId::kDecimal && e.type.id != TypeId::kVarchar && e.value.as_int() == x.constant;
    default: break;
  }
  if (e.kind != plan::ExprKind::kArith || e.children.size() != 2) return false;
  const plan::ArithOp want = x.op == AggExpr::Op::kAdd ? plan::ArithOp::kAdd
                             : x.op == AggExpr::Op::kSub ? plan::ArithOp::kSub
                                                         : plan::ArithOp::kMul;
  if (e.arith_op != want) return false;
  if (same_input(m, *e.children[0], x.args[0]) && same_input(m, *e.children[1], x.args[1])) return true;
  return want != plan::ArithOp::kSub && same_input(m, *e.children[0], x.args[1]) &&
         same_input(m, *e.children[1], x.args[0]);
}

// Integer arithmetic the view evaluates exactly on stored integers: integer types
// anywhere; DECIMAL and DATE only as a bare column (scales would differ otherwise).
bool exact_input_type(const plan::Expr& e) {
  const TypeId id = e.type.id;
  if (id == TypeId::kInteger || id == TypeId::kBigint || id == TypeId::kHugeint) {
    for (auto& c : e.children)
      if (!exact_input_type(*c)) return false;
    return true;
  }
  return (id == TypeId::kDecimal || id == TypeId::kDate) && e.kind == plan::ExprKind::kColumnRef;
}

std::optional<std::string> match_conjuncts(const Slots& m, const rtview::ViewRows& rows, rtview::ViewRequest& r) {
  std::vector<bool> joined(m.def.joins.size() + 1, false);
  std::vector<std::optional<std::vector<CodeInterval>>> allowed(rows.filter_domains.size());
  for (const plan::ExprPtr& c : m.q.conjuncts) {
    if (int j = join_of(m, *c); j > 0) {
      joined[size_t(j)] = true;
      continue;
    }
    const uint64_t used = plan::tables_used(*c);
    std::optional<ColumnPredicate> p;
    if (used != 0 && (used & (used - 1)) == 0) p = ColumnPredicate::compile(*c, m.q);
    if (!p) return "predicate " + c->to_string() + " is not a view join or a predicate on one column";
    int col = -1;
    const Table& t = *m.q.tables[size_t(p->table_index())].table;
    for (size_t k = 0; k < t.column_count(); ++k)
      if (&t.column(k) == &p->column()) col = int(k);
    size_t attr = 0;
    while (attr < m.def.filters.size() && !m.is_attr(p->table_index(), col, m.def.filters[attr])) ++attr;
    if (attr == m.def.filters.size()) return "predicate " + c->to_string() + " is not on a filter attribute";
    std::vector<CodeInterval> codes = to_codes(*p, rows.filter_domains[attr]);
    allowed[attr] = allowed[attr] ? intersect(*allowed[attr], codes) : codes;
  }
  for (size_t t = 0; t < m.q.tables.size(); ++t)
    if (m.slot[t] > 0 && !joined[size_t(m.slot[t])])
      return "table " + m.q.tables[t].name + " is not joined on the view's key";
  for (size_t a = 0; a < allowed.size(); ++a)
    if (allowed[a]) r.filters.push_back({uint32_t(a), *allowed[a]});
  return std::nullopt;
}

std::optional<std::string> match_aggregates(const Slots& m, rtview::ViewRequest& r, std::vector<int>& request_agg) {
  if (!m.q.is_aggregate) return std::string("the query does not aggregate");
  for (const plan::ExprPtr& g : m.q.group_keys) {
    size_t attr = 0;
    while (g->kind == plan::ExprKind::kColumnRef && attr < m.def.groups.size() &&
           !m.is_attr(g->table_index, g->column_index, m.def.groups[attr]))
      ++attr;
    if (g->kind != plan::ExprKind::kColumnRef || attr == m.def.groups.size())
      return "GROUP BY " + g->to_string() + " is not a group attribute";
    if (std::find(r.group_by.begin(), r.group_by.end(), uint32_t(attr)) != r.group_by.end())
      return "GROUP BY " + g->to_string() + " appears twice";
    r.group_by.push_back(uint32_t(attr));
  }
  for (const plan::AggregateExpr& a : m.q.aggregates) {
    if (a.distinct) return a.name + ": DISTINCT aggregates do not run on a view";
    if (a.func == plan::AggFunc::kCountStar || (a.func == plan::AggFunc::kCount && a.arg &&
                                                a.arg->kind == plan::ExprKind::kColumnRef)) {
      request_agg.push_back(-1);  // columns are NOT NULL: COUNT(col) is the row count
      continue;
    }
    if (a.func != plan::AggFunc::kSum && a.func != plan::AggFunc::kAvg && a.func != plan::AggFunc::kMin &&
        a.func != plan::AggFunc::kMax)
      return a.name + " is not COUNT, SUM, AVG, MIN or MAX of an aggregate input";
    size_t in = 0;
    while (in < m.def.inputs.size() && !same_input(m, *a.arg, m.def.inputs[in].expr)) ++in;
    if (in == m.def.inputs.size()) return a.name + ": its argument is not an aggregate input of the view";
    if (!exact_input_type(*a.arg)) return a.name + ": its argument's type is not exact on a view";
    const rtview::AggKind k = a.func == plan::AggFunc::kMin ? rtview::AggKind::kMin
                              : a.func == plan::AggFunc::kMax ? rtview::AggKind::kMax
                                                              : rtview::AggKind::kSum;  // AVG = SUM / count
    request_agg.push_back(int(r.aggregates.size()));
    r.aggregates.push_back({k, uint32_t(in)});
  }
  return std::nullopt;
}

}  // namespace

std::variant<ViewMatch, std::string> match_view(const plan::LogicalQuery& q, const std::shared_ptr<const CatalogView>& view) {
  const ViewDefinition& def = view->definition();
  Slots m{q, def, {}};
  if (auto why = map_tables(m)) return *why;
  ViewMatch out;
  out.view = view;
  if (auto why = match_aggregates(m, out.request, out.request_agg)) return *why;
  // A query over fewer dimensions than the view sees fact rows the view's inner join
  // may have dropped: only when the view kept every fact row is that the same.
  size_t fact = 0;
  while (m.slot[fact] != 0) ++fact;
  if (q.tables.size() < def.joins.size() + 1 && view->entry().rows != q.tables[fact].table->row_count())
    return "the query joins fewer dimensions and the view dropped fact rows without partners";
  out.rows = view->rows();
  if (auto why = match_conjuncts(m, *out.rows, out.request)) return *why;
  return out;
}

}  // namespace raydb::exec
