#include "exec/index/view_advisor.h"

#include <algorithm>
#include <map>
#include <unordered_set>
#include <fmt/format.h>

#include "access/rt_view/view_layout.h"
#include "exec/core/column_predicate.h"
#include "rt/mapping/view_aggregate.h"

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

namespace {

// A GROUP BY column with its table (for the group-tuple bound).
struct GroupCol {
  AttrRef attr;
  const Table* table = nullptr;
  int column = -1;
};

bool integer_coded(const Type& t) {
  return t.id == TypeId::kInteger || t.id == TypeId::kBigint || t.id == TypeId::kDate || t.id == TypeId::kDecimal ||
         t.id == TypeId::kVarchar || t.id == TypeId::kBoolean;
}

// Why a view cannot take column `c` as a filter or group attribute ("" when it can):
// rtview::materialize_view codes integer-coded columns with at most 2^23 values.
std::string attribute_problem(const Column& c) {
  if (!integer_coded(c.type())) return c.name() + " has type " + c.type().to_string() + ", views take integer-coded columns";
  if (c.type().id == TypeId::kVarchar) return "";
  const ColumnStats& st = c.stats();
  if (st.min <= st.max && st.max - st.min >= int64_t{rt::mapping::kViewZLimit})
    return fmt::format("{} spans {} values, more than the 2^23 codes a view takes", c.name(), st.max - st.min + 1);
  return "";
}

// Distinct tuples of `cols` in table t: exact for tables up to 2^23 rows (dimensions)
// when the columns' ranges combine into 64 bits, else the product of the ranges (at
// most the rows).
uint64_t distinct_tuples(const Table& t, const std::vector<int>& cols) {
  const uint64_t rows = t.row_count();
  std::vector<int64_t> mins;
  std::vector<uint64_t> radix;
  unsigned __int128 product = 1;
  for (int c : cols) {
    const Column& col = t.column(size_t(c));
    const ColumnStats& st = col.stats();
    const uint64_t k = col.type().id == TypeId::kVarchar ? (col.dictionary() ? col.dictionary()->size() : 1)
                       : st.min <= st.max                ? uint64_t(st.max - st.min) + 1
                                                         : 1;
    mins.push_back(col.type().id == TypeId::kVarchar || st.min > st.max ? 0 : st.min);
    radix.push_back(std::max<uint64_t>(k, 1));
    product *= radix.back();
    if (product > (uint64_t{1} << 62)) product = uint64_t{1} << 62;  // keys below would not fit 64 bits
  }
  if (product <= 1 || rows == 0) return std::min<uint64_t>(rows, 1);
  if (product < (uint64_t{1} << 62) && rows <= (uint64_t{1} << 23)) {
    std::unordered_set<uint64_t> seen;
    for (uint64_t r = 0; r < rows; ++r) {
      uint64_t key = 0;
      for (size_t k = 0; k < cols.size(); ++k)
        key = key * radix[k] + uint64_t(t.column(size_t(cols[k])).get_int(r) - mins[k]);
      seen.insert(key);
    }
    return seen.size();
  }
  return std::min<uint64_t>(uint64_t(product), rows);
}

bool same_family(const std::string& fact, const std::vector<rtview::ViewJoin>& a, const std::string& fact2,
                 const std::vector<rtview::ViewJoin>& b) {
  bool same = iequals(fact, fact2) && a.size() == b.size();
  for (size_t i = 0; same && i < a.size(); ++i)
    same = iequals(a[i].dimension, b[i].dimension) && iequals(a[i].fact_key, b[i].fact_key);
  return same;
}

}  // namespace

struct ViewAdvisor::Need {
  std::string label;
  std::string fact;
  uint64_t fact_rows = 0;
  std::vector<rtview::ViewJoin> joins;
  std::vector<std::pair<AttrRef, double>> filters;
  std::vector<GroupCol> groups;
  std::vector<AggExpr> inputs;
};

// A proposed view: the queries it serves and the union of their group columns and inputs.
struct ViewAdvisor::Group {
  std::vector<size_t> needs;
  std::vector<GroupCol> groups;
  std::vector<std::string> inputs;  // input_sql of each
  uint64_t bound = 0;
};

namespace {

// The group-tuple bound of a set of group columns: the product over their tables.
uint64_t group_bound(const std::vector<GroupCol>& groups, uint64_t fact_rows) {
  std::map<const Table*, std::vector<int>> by_table;
  for (const GroupCol& g : groups) by_table[g.table].push_back(g.column);
  unsigned __int128 b = fact_rows == 0 ? 0 : 1;
  for (auto& [t, cols] : by_table) {
    b *= distinct_tuples(*t, cols);
    if (b > fact_rows) return fact_rows;
  }
  return uint64_t(b);
}

void add_group_cols(std::vector<GroupCol>& into, const std::vector<GroupCol>& more) {
  for (const GroupCol& a : more)
    if (std::none_of(into.begin(), into.end(), [&](const GroupCol& b) { return same_attr(a.attr, b.attr); }))
      into.push_back(a);
}

}  // namespace

ViewAdvisor::ViewAdvisor(AdviseLimits limits) : limits_(limits) {
  if (limits_.group_limit == 0) limits_.group_limit = rt::mapping::kViewGroupLimit;
}
ViewAdvisor::~ViewAdvisor() = default;

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
  n.label = label;
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
    if (std::string why = attribute_problem(p->column()); !why.empty()) return "filter " + why;
    const Table& t = *q.tables[size_t(p->table_index())].table;
    for (size_t k = 0; k < t.column_count(); ++k)
      if (&t.column(k) == &p->column()) n.filters.push_back({attr_of(q, p->table_index(), int(k)), p->coverage()});
  }
  for (const plan::ExprPtr& g : q.group_keys) {
    if (g->kind != plan::ExprKind::kColumnRef) return "GROUP BY " + g->to_string() + " is not a column";
    const Table& t = *q.tables[size_t(g->table_index)].table;
    if (std::string why = attribute_problem(t.column(size_t(g->column_index))); !why.empty()) return "GROUP BY " + why;
    n.groups.push_back({attr_of(q, g->table_index, g->column_index), &t, g->column_index});
  }
  for (const plan::AggregateExpr& a : q.aggregates) {
    if (a.distinct || a.func == plan::AggFunc::kOrderStat) return a.name + " does not run on a view";
    if (a.func == plan::AggFunc::kCountStar || a.func == plan::AggFunc::kCount) continue;
    AggExpr e;
    if (!to_input(q, *a.arg, e)) return a.name + ": its argument is not an integer expression of + - *";
    if (std::none_of(n.inputs.begin(), n.inputs.end(), [&](const AggExpr& x) { return input_sql(x) == input_sql(e); }))
      n.inputs.push_back(std::move(e));
  }
  if (n.inputs.size() > rt::mapping::kViewMaxInputs)
    return fmt::format("{} aggregate inputs, more than the {} a view takes", n.inputs.size(), rt::mapping::kViewMaxInputs);
  needs_.push_back(std::move(n));
  return "";
}

// Whether `n` can join view `g`: the union's group tuples stay below the limit and
// its inputs fit the launch. Sets g's union when it can.
bool ViewAdvisor::fits(const Group& g, const Need& n, std::string* why) const {
  std::vector<GroupCol> groups = g.groups;
  add_group_cols(groups, n.groups);
  std::vector<std::string> inputs = g.inputs;
  for (const AggExpr& e : n.inputs)
    if (std::find(inputs.begin(), inputs.end(), input_sql(e)) == inputs.end()) inputs.push_back(input_sql(e));
  const uint64_t bound = group_bound(groups, n.fact_rows);
  if (bound >= limits_.group_limit) {
    if (why) *why = fmt::format("up to {} group tuples, more than the {} a view takes", bound, limits_.group_limit);
    return false;
  }
  if (inputs.size() > rt::mapping::kViewMaxInputs) {
    if (why) *why = fmt::format("{} aggregate inputs, more than the {} a view takes", inputs.size(), rt::mapping::kViewMaxInputs);
    return false;
  }
  const uint64_t bytes = n.fact_rows * (4 * 8 + 4 + 8 * inputs.size()) + n.fact_rows * 96;
  if (limits_.max_view_bytes != 0 && bytes > limits_.max_view_bytes) {
    if (why) *why = fmt::format("a view of its rows would take ~{:.1f} MiB, more than the limit", bytes / 1048576.0);
    return false;
  }
  return true;
}

AdviseResult ViewAdvisor::propose(const std::string& prefix) const {
  AdviseResult res;
  std::vector<Group> views;
  for (size_t i = 0; i < needs_.size(); ++i) {
    const Need& n = needs_[i];
    Group* into = nullptr;
    for (Group& g : views) {
      const Need& first = needs_[g.needs[0]];
      if (same_family(first.fact, first.joins, n.fact, n.joins) && fits(g, n, nullptr)) {
        into = &g;
        break;
      }
    }
    if (!into) {
      std::string why;
      if (!fits(Group{}, n, &why)) {
        res.not_covered.push_back(n.label + ": its own view would have " + why);
        continue;
      }
      views.push_back(Group{});
      into = &views.back();
    }
    into->needs.push_back(i);
    add_group_cols(into->groups, n.groups);
    for (const AggExpr& e : n.inputs)
      if (std::find(into->inputs.begin(), into->inputs.end(), input_sql(e)) == into->inputs.end())
        into->inputs.push_back(input_sql(e));
    into->bound = group_bound(into->groups, n.fact_rows);
  }
  for (const Group& g : views) res.views.push_back(advice_of(g, prefix + std::to_string(res.views.size() + 1)));
  return res;
}

ViewAdvice ViewAdvisor::advice_of(const Group& g, const std::string& name) const {
  const Need& first = needs_[g.needs[0]];
  ViewAdvice a;
  a.view.name = name;
  a.view.fact = first.fact;
  a.view.joins = first.joins;
  std::vector<AttrRef> filters;
  std::vector<std::vector<double>> fractions;  // per filter: allowed fraction in each query (absent: 1)
  for (size_t q = 0; q < g.needs.size(); ++q) {
    const Need& n = needs_[g.needs[q]];
    a.queries.push_back(n.label);
    for (auto& [attr, frac] : n.filters) {
      size_t i = 0;
      while (i < filters.size() && !same_attr(filters[i], attr)) ++i;
      if (i == filters.size()) filters.push_back(attr), fractions.emplace_back(g.needs.size(), 1.0);
      fractions[i][q] = std::min(fractions[i][q], frac);  // two predicates on one column: the narrower
    }
    for (const AggExpr& e : n.inputs)
      if (std::none_of(a.view.inputs.begin(), a.view.inputs.end(),
                       [&](const rtview::AggInputDef& d) { return d.name == input_sql(e); }))
        a.view.inputs.push_back({input_sql(e), e});
  }
  std::vector<double> mean;
  for (const auto& f : fractions) {
    double s = 0;
    for (double x : f) s += x;
    mean.push_back(f.empty() ? 1.0 : s / double(f.size()));
  }
  for (uint32_t i : rtview::choose_digit_order(mean)) a.view.filters.push_back(filters[i]);
  for (const GroupCol& c : g.groups) a.view.groups.push_back(c.attr);
  a.rows = first.fact_rows;
  a.row_bytes = first.fact_rows * (4 * filters.size() + 4 + 8 * a.view.inputs.size());
  a.bvh_bytes = first.fact_rows * 96;  // measured on Embree at SSB SF 0.01: ~95 bytes per triangle
  a.group_bound = g.bound;
  return a;
}

}  // namespace raydb::exec
