#include "exec/index/view_advisor.h"

#include <algorithm>
#include <fmt/format.h>

#include "access/rt_view/view_layout.h"
#include "exec/core/column_predicate.h"

namespace raydb::exec {
namespace {

using rtview::AggExpr;
using rtview::AttrRef;

AttrRef attr_of(const plan::LogicalQuery& q, int t, int c) {
  return AttrRef{q.tables[size_t(t)].name, q.tables[size_t(t)].table->column(size_t(c)).name()};
}

bool same_attr(const AttrRef& a, const AttrRef& b) { return iequals(a.table, b.table) && iequals(a.column, b.column); }

bool to_input(const plan::LogicalQuery& q, const plan::Expr& e, AggExpr& out) {
  if (e.kind == plan::ExprKind::kColumnRef) {
    const AttrRef a = attr_of(q, e.table_index, e.column_index);
    out = AggExpr::col(a.column, a.table);
    return true;
  }
  if (e.kind == plan::ExprKind::kConstant && !e.value.is_null() &&
      (e.type.id == TypeId::kInteger || e.type.id == TypeId::kBigint)) {
    out = AggExpr::lit(e.value.as_int());
    return true;
  }
  if (e.kind != plan::ExprKind::kArith || e.arith_op == plan::ArithOp::kDiv || e.arith_op == plan::ArithOp::kMod)
    return false;
  AggExpr a, b;
  if (!to_input(q, *e.children[0], a) || !to_input(q, *e.children[1], b)) return false;
  const AggExpr::Op op = e.arith_op == plan::ArithOp::kAdd ? AggExpr::Op::kAdd
                         : e.arith_op == plan::ArithOp::kSub ? AggExpr::Op::kSub
                                                             : AggExpr::Op::kMul;
  out = AggExpr::binary(op, std::move(a), std::move(b));
  return true;
}

}  // namespace

std::string input_sql(const AggExpr& e) {
  switch (e.op) {
    case AggExpr::Op::kColumn: return e.column.column;
    case AggExpr::Op::kConst: return std::to_string(e.constant);
    default: break;
  }
  const char* op = e.op == AggExpr::Op::kAdd ? " + " : e.op == AggExpr::Op::kSub ? " - " : " * ";
  auto arg = [](const AggExpr& x) {
    return x.op == AggExpr::Op::kColumn || x.op == AggExpr::Op::kConst ? input_sql(x) : "(" + input_sql(x) + ")";
  };
  return arg(e.args[0]) + op + arg(e.args[1]);
}

std::string create_rt_view_sql(const rtview::ViewDefinition& d) {
  std::string s = fmt::format("CREATE RT VIEW {} AS SELECT * FROM {}", d.name, d.fact);
  for (const rtview::ViewJoin& j : d.joins) s += fmt::format(" JOIN {} ON {} = {}", j.dimension, j.fact_key, j.dim_key);
  auto list = [](const std::vector<AttrRef>& v) {
    std::string out;
    for (const AttrRef& a : v) out += (out.empty() ? "" : ", ") + a.column;
    return out;
  };
  std::string inputs;
  for (const rtview::AggInputDef& in : d.inputs) inputs += (inputs.empty() ? "" : ", ") + input_sql(in.expr);
  s += fmt::format(" WITH (filter = ({}), group = ({}), aggregate = ({}));", list(d.filters), list(d.groups), inputs);
  return s;
}

struct ViewAdvisor::Need {
  std::string fact;
  uint64_t fact_rows = 0;
  std::vector<rtview::ViewJoin> joins;
  std::vector<std::pair<AttrRef, double>> filters;
  std::vector<AttrRef> groups;
  std::vector<AggExpr> inputs;
};

std::string ViewAdvisor::add(const std::string& label, const plan::LogicalQuery& q) {
  if (!q.is_aggregate) return "the query does not aggregate";
  if (q.tables.size() < 2) return "not a join";
  // Join conjuncts col = col; the fact table is in every one of them.
  std::vector<const plan::Expr*> joins;
  std::vector<int> in_joins(q.tables.size(), 0);
  for (const plan::ExprPtr& c : q.conjuncts)
    if (c->kind == plan::ExprKind::kCompare && c->compare_op == plan::CompareOp::kEq &&
        c->children[0]->kind == plan::ExprKind::kColumnRef && c->children[1]->kind == plan::ExprKind::kColumnRef &&
        c->children[0]->table_index != c->children[1]->table_index) {
      joins.push_back(c.get());
      ++in_joins[size_t(c->children[0]->table_index)], ++in_joins[size_t(c->children[1]->table_index)];
    }
  int fact = -1;
  // With one dimension both tables qualify: the fact table is the larger.
  for (size_t t = 0; t < q.tables.size(); ++t)
    if (in_joins[t] == int(joins.size()) && joins.size() + 1 == q.tables.size() &&
        (fact < 0 || q.tables[t].table->row_count() > q.tables[size_t(fact)].table->row_count()))
      fact = int(t);
  if (fact < 0) return "not a star join (one fact table joined to each dimension once)";
  Need n;
  n.fact = q.tables[size_t(fact)].name;
  n.fact_rows = q.tables[size_t(fact)].table->row_count();
  for (const plan::Expr* j : joins) {
    const plan::Expr& f = *j->children[j->children[0]->table_index == fact ? 0 : 1];
    const plan::Expr& d = *j->children[j->children[0]->table_index == fact ? 1 : 0];
    n.joins.push_back({q.tables[size_t(d.table_index)].name, attr_of(q, f.table_index, f.column_index).column,
                       attr_of(q, d.table_index, d.column_index).column});
  }
  std::sort(n.joins.begin(), n.joins.end(), [](auto& a, auto& b) { return a.dimension < b.dimension; });
  for (const plan::ExprPtr& c : q.conjuncts) {
    if (std::find(joins.begin(), joins.end(), c.get()) != joins.end()) continue;
    auto p = ColumnPredicate::compile(*c, q);
    if (!p) return "predicate " + c->to_string() + " is not on one column";
    const Table& t = *q.tables[size_t(p->table_index())].table;
    for (size_t k = 0; k < t.column_count(); ++k)
      if (&t.column(k) == &p->column()) n.filters.push_back({attr_of(q, p->table_index(), int(k)), p->coverage()});
  }
  for (const plan::ExprPtr& g : q.group_keys) {
    if (g->kind != plan::ExprKind::kColumnRef) return "GROUP BY " + g->to_string() + " is not a column";
    n.groups.push_back(attr_of(q, g->table_index, g->column_index));
  }
  for (const plan::AggregateExpr& a : q.aggregates) {
    if (a.distinct || a.func == plan::AggFunc::kOrderStat) return a.name + " does not run on a view";
    if (a.func == plan::AggFunc::kCountStar || a.func == plan::AggFunc::kCount) continue;
    AggExpr e;
    if (!to_input(q, *a.arg, e)) return a.name + ": its argument is not an integer expression of + - *";
    n.inputs.push_back(std::move(e));
  }
  // Same fact and dimensions: one view.
  Group* g = nullptr;
  for (Group& x : groups_) {
    bool same = iequals(x.fact, n.fact) && x.joins.size() == n.joins.size();
    for (size_t i = 0; same && i < n.joins.size(); ++i)
      same = iequals(x.joins[i].dimension, n.joins[i].dimension) && iequals(x.joins[i].fact_key, n.joins[i].fact_key);
    if (same) g = &x;
  }
  if (!g) {
    groups_.push_back(Group{n.fact, n.joins, n.fact_rows, {}, {}, {}, {}, {}});
    g = &groups_.back();
  }
  const size_t before = g->queries.size();
  g->queries.push_back(label);
  for (auto& [attr, frac] : n.filters) {
    size_t i = 0;
    while (i < g->filters.size() && !same_attr(g->filters[i], attr)) ++i;
    if (i == g->filters.size()) g->filters.push_back(attr), g->fractions.emplace_back(before, 1.0);
    if (g->fractions[i].size() == before) g->fractions[i].push_back(frac);
    else g->fractions[i].back() = std::min(g->fractions[i].back(), frac);  // two predicates on one column
  }
  for (auto& f : g->fractions) f.resize(g->queries.size(), 1.0);
  for (const AttrRef& a : n.groups)
    if (std::none_of(g->groups.begin(), g->groups.end(), [&](const AttrRef& b) { return same_attr(a, b); }))
      g->groups.push_back(a);
  for (const AggExpr& e : n.inputs) {
    const std::string name = input_sql(e);
    if (std::none_of(g->inputs.begin(), g->inputs.end(), [&](const rtview::AggInputDef& d) { return d.name == name; }))
      g->inputs.push_back({name, e});
  }
  return "";
}

std::vector<ViewAdvice> ViewAdvisor::propose(const std::string& prefix) const {
  std::vector<ViewAdvice> out;
  for (const Group& g : groups_) {
    ViewAdvice a;
    a.view.name = prefix + std::to_string(out.size() + 1);
    a.view.fact = g.fact;
    a.view.joins = g.joins;
    std::vector<double> mean;
    for (const auto& f : g.fractions) {
      double s = 0;
      for (double x : f) s += x;
      mean.push_back(f.empty() ? 1.0 : s / double(f.size()));
    }
    for (uint32_t i : rtview::choose_digit_order(mean)) a.view.filters.push_back(g.filters[i]);
    a.view.groups = g.groups;
    a.view.inputs = g.inputs;
    a.queries = g.queries;
    a.rows = g.fact_rows;
    a.row_bytes = g.fact_rows * (4 * g.filters.size() + 4 + 8 * g.inputs.size());
    a.bvh_bytes = g.fact_rows * 96;  // measured on Embree at SSB SF 0.01: ~95 bytes per triangle
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace raydb::exec
