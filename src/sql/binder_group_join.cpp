// A grouped LEFT JOIN that only counts the right side's rows, with the count pushed
// below the join (TPC-H Q13's group-join):
//
//   SELECT g..., count(r.x) FROM L LEFT JOIN R r ON lkey = r.k AND <R-only> GROUP BY g...
// becomes
//   SELECT g..., CAST(coalesce(sum(p.n), 0) AS BIGINT)
//   FROM L LEFT JOIN (SELECT r.k AS k, count(r.x) AS n FROM R r WHERE <R-only>
//                     GROUP BY r.k) p ON lkey = p.k GROUP BY g...
//
// Why it is exact: the original join repeats each L row once per matching R row (once,
// R's columns NULL, when none match), so count(r.x) of a group is the sum over its L
// rows of how many matching R rows have a non-NULL x; p holds exactly that per key (one
// row per key, so the new join keeps each L row once), an L row without a match adds
// nothing, and a group whose rows all lack one counts 0 (coalesce), never NULL. A NULL
// k forms a group of p that matches nothing, as NULL keys match nothing in ON.
//
// Only then: two FROM items, the second a stored table LEFT JOINed on one equality of
// an L expression with an R column plus conditions on R alone; GROUP BY present; no
// WHERE, subquery, window, * or DISTINCT aggregate; every aggregate is count(<R column>)
// and nothing else reads R. Other aggregates would see the L rows repeated, so they keep
// the plain outer join. Why: the outer join materializes one row per matching pair
// (Q13 at SF 20: 30 M orders) and the grouped R has one row per key (2 M customers).
#include "common/error.h"
#include "sql/ast_nodes.h"
#include "sql/binder.h"
#include "sql/expression_binder.h"

namespace raydb::sql {

namespace {

constexpr const char* kAlias = "\x01groupjoin";
constexpr const char* kKey = "\x01k";

AstPtr function(const std::string& name, std::vector<AstPtr> args, const AstExpr& at) {
  auto e = node(AstKind::kFunction, at);
  e->name = name;
  e->children = std::move(args);
  return e;
}

// The pieces of the statement the rewrite reads; valid once `fits` is true.
class GroupJoinShape {
 public:
  GroupJoinShape(const SelectStatement& s, const Table& right) : s_(s), right_(right) {
    ralias_ = s.from[1].alias.empty() ? s.from[1].name : s.from[1].alias;
  }

  // Whether the ON condition splits into the key equality and R-only terms.
  bool split_on() {
    std::vector<AstPtr> terms;
    split_and(s_.from[1].on, terms);
    for (const AstPtr& t : terms) {
      bool any_r = false, any_other = false;
      if (!sides(*t, any_r, any_other)) return false;
      if (any_r && !any_other) {
        ronly_.push_back(t);
        continue;
      }
      if (lkey_ || t->kind != AstKind::kBinary || t->op != "=") return false;
      for (int side = 0; side < 2; side++) {
        const AstPtr& r = t->children[size_t(side)];
        const AstPtr& l = t->children[size_t(1 - side)];
        bool lr = false, lo = false;
        if (r->kind == AstKind::kColumn && reads_r(*r) && sides(*l, lr, lo) && !lr && lo) {
          lkey_ = l, rkey_ = r;
          break;
        }
      }
      if (!lkey_) return false;
    }
    return lkey_ != nullptr;
  }

  // e with every count(<R column>) replaced; null when e reads R otherwise or holds
  // another aggregate, a subquery, a window or *.
  AstPtr replace(const AstPtr& e) {
    if (!e) return e;
    if (e->subquery || e->over || e->kind == AstKind::kStar) return nullptr;
    if (e->kind == AstKind::kColumn) return reads_r(*e) ? nullptr : e;
    if (e->kind == AstKind::kFunction && e->name == "count" && !e->distinct && !e->star_arg && !e->within_group &&
        e->children.size() == 1 && e->children[0]->kind == AstKind::kColumn && reads_r(*e->children[0]))
      return count_of(*e);
    if (e->kind == AstKind::kFunction) {
      AstExpr shallow = *e;
      shallow.children.clear();
      if (contains_aggregate(shallow)) return nullptr;
    }
    auto out = std::make_shared<AstExpr>(*e);
    for (auto& c : out->children)
      if (!(c = replace(c))) return nullptr;
    return out;
  }

  // SELECT r.k AS k, count(r.x) AS n1, ... FROM R r WHERE <R-only> GROUP BY r.k.
  std::shared_ptr<SelectStatement> per_key() const {
    auto p = std::make_shared<SelectStatement>();
    TableItem r = s_.from[1];
    r.on = nullptr;
    r.join = TableItem::Join::kInner;
    p->from = {r};
    p->select.push_back({rkey_, kKey});
    for (size_t i = 0; i < counts_.size(); i++) p->select.push_back({counts_[i], count_name(i)});
    for (const AstPtr& t : ronly_) p->where = p->where ? binary("and", p->where, t) : t;
    p->group_by = {rkey_};
    return p;
  }

  const AstPtr& lkey() const { return lkey_; }
  bool counted() const { return !counts_.empty(); }

 private:
  static std::string count_name(size_t i) { return "\x01n" + std::to_string(i); }

  bool reads_r(const AstExpr& c) const {
    if (!c.qualifier.empty()) return iequals(c.qualifier, ralias_);
    return right_.find_column(c.name) >= 0;
  }

  // Whether e is plain (no subquery, window or *); any_r / any_other: it reads R's
  // columns / other columns.
  bool sides(const AstExpr& e, bool& any_r, bool& any_other) const {
    if (e.subquery || e.over || e.kind == AstKind::kStar) return false;
    if (e.kind == AstKind::kColumn) (reads_r(e) ? any_r : any_other) = true;
    for (auto& c : e.children)
      if (!sides(*c, any_r, any_other)) return false;
    return true;
  }

  // CAST(coalesce(sum(p.n_i), 0) AS BIGINT) for count(r.x); one n_i per distinct count.
  AstPtr count_of(const AstExpr& e) {
    size_t i = 0;
    while (i < counts_.size() && counts_[i]->to_string() != e.to_string()) i++;
    if (i == counts_.size()) counts_.push_back(std::make_shared<AstExpr>(e));
    auto zero = node(AstKind::kLiteral, e);
    zero->value = Value::bigint(0);
    zero->text = "0";
    AstPtr sum = function("sum", {col(kAlias, count_name(i), e)}, e);
    auto cast = node(AstKind::kCast, e);
    cast->cast_type = Type::bigint();
    cast->children = {function("coalesce", {sum, zero}, e)};
    return cast;
  }

  const SelectStatement& s_;
  const Table& right_;
  std::string ralias_;
  AstPtr lkey_, rkey_;
  std::vector<AstPtr> ronly_, counts_;
};

}  // namespace

SelectStatement Binder::pre_aggregate_outer_join(const SelectStatement& s) {
  if (!runner_ || s.from.size() != 2 || s.group_by.empty() || s.where || !s.windows.empty()) return s;
  const TableItem& l = s.from[0];
  const TableItem& r = s.from[1];
  if (l.join != TableItem::Join::kInner || l.on || r.join != TableItem::Join::kLeft || !r.on) return s;
  if (r.subquery || r.function || !r.column_aliases.empty() || find_cte(r.name)) return s;
  if (views_ && views_(r.name)) return s;
  const TablePtr right = resolve_(r.name);
  if (!right) return s;
  GroupJoinShape shape(s, *right);
  if (!shape.split_on()) return s;

  SelectStatement out = s;
  for (auto& item : out.select) {
    AstPtr e = shape.replace(item.expr);
    if (!e) return s;
    if (e != item.expr && item.alias.empty()) item.alias = item.expr->to_string();  // the output keeps its name
    item.expr = e;
  }
  for (auto& g : out.group_by)
    if (!(g = shape.replace(g))) return s;
  if (out.having && !(out.having = shape.replace(out.having))) return s;
  for (auto& o : out.order_by)
    if (!(o.expr = shape.replace(o.expr))) return s;
  if (!shape.counted()) return s;

  TableItem p;
  p.alias = kAlias;
  p.subquery = shape.per_key();
  p.join = TableItem::Join::kLeft;
  p.line = r.line, p.column = r.column;
  p.on = binary("=", shape.lkey(), col(kAlias, kKey, *shape.lkey()));
  out.from[1] = p;
  return out;
}

}  // namespace raydb::sql
