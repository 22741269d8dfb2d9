// Window functions in the binder. A SELECT block with f(...) OVER (...) in its select
// list or ORDER BY is split in two, the way set operations are (binder_structure.cpp):
//   - the inner block is the statement without its windows, DISTINCT, ORDER BY and
//     LIMIT: FROM, WHERE, GROUP BY, HAVING and a select list of the window-free parts
//     (the items without windows, and each window's arguments, PARTITION BY and ORDER
//     BY expressions as columns of their own). It runs as a temporary table through the
//     QueryRunner, so it takes every path a plain block takes (the CUDA backend
//     included);
//   - the outer block reads that table: its select list and ORDER BY are the original
//     ones with the window-free parts replaced by the inner columns, and each window
//     call bound to a plan::WindowExpr (LogicalQuery::windows) that the CPU backend
//     evaluates (exec/cpu/window/) before DISTINCT, ORDER BY and LIMIT.
// So windows see the rows after WHERE, GROUP BY and HAVING, as SQL defines them.
#include "common/error.h"
#include "sql/binder.h"
#include "sql/type_rules.h"

namespace raydb::sql {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

constexpr const char* kWindowInput = "\x01window_input";

bool contains_window(const AstExpr& e) {
  if (e.kind == AstKind::kFunction && e.over) return true;
  for (auto& c : e.children)
    if (contains_window(*c)) return true;
  return false;
}

// Expressions the outer block may keep as written (no column, aggregate or subquery).
bool constant_like(const AstExpr& e) {
  switch (e.kind) {
    case AstKind::kLiteral:
    case AstKind::kInterval: return true;
    case AstKind::kUnary:
    case AstKind::kCast: return constant_like(*e.children[0]);
    default: return false;
  }
}

AstPtr column_ast(const std::string& name, const AstExpr& at) {
  auto c = std::make_shared<AstExpr>();
  c->kind = AstKind::kColumn;
  c->name = name;
  c->quoted = true;
  c->line = at.line;
  c->column = at.column;
  return c;
}

// Splits one SELECT block's expressions into the inner block's columns and the outer
// block's expressions over them.
class WindowSplit {
 public:
  explicit WindowSplit(const SelectStatement& s) : s_(s) {}
  std::vector<SelectItem> inner;  // the window-free parts, each a column "\x01w<k>"

  AstPtr rewrite(const AstPtr& e) {
    if (!contains_window(*e)) return constant_like(*e) ? e : extract(e);
    auto copy = std::make_shared<AstExpr>(*e);
    if (e->kind == AstKind::kFunction && e->over) {
      for (auto& c : copy->children) {
        if (contains_window(*c))
          fail(ErrorKind::kBinder, "window function calls cannot be nested: '{}'", e->to_string());
        if (!constant_like(*c)) c = extract(c);
      }
      auto spec = std::make_shared<WindowSpecAst>(resolve(*e->over, 0));
      for (auto& p : spec->partition) p = extract_part(p, *e);
      for (auto& o : spec->order) o.expr = extract_part(o.expr, *e);
      copy->over = spec;
      return copy;
    }
    for (auto& c : copy->children) c = rewrite(c);
    return copy;
  }

 private:
  AstPtr extract(const AstPtr& e) {
    std::string name = "\x01w" + std::to_string(inner.size());
    inner.push_back({e, name});
    return column_ast(name, *e);
  }
  AstPtr extract_part(const AstPtr& e, const AstExpr& call) {
    if (contains_window(*e)) fail(ErrorKind::kBinder, "window function calls cannot be nested: '{}'", call.to_string());
    return constant_like(*e) ? e : extract(e);
  }
  // A window with its named base window (WINDOW w AS (...)) merged in, as PostgreSQL
  // does: the base gives PARTITION BY and ORDER BY; the reference may add an ORDER BY
  // the base lacks and a frame.
  WindowSpecAst resolve(const WindowSpecAst& w, int depth) const {
    if (w.base.empty()) return w;
    const WindowSpecAst* base = nullptr;
    for (auto& [name, spec] : s_.windows)
      if (iequals(name, w.base)) base = &spec;
    if (!base || depth > int(s_.windows.size()))
      fail(ErrorKind::kBinder, "window \"{}\" does not exist (line {}, column {})", w.base, w.line, w.column);
    WindowSpecAst out = resolve(*base, depth + 1);
    if (!w.partition.empty()) fail(ErrorKind::kBinder, "cannot override PARTITION BY clause of window \"{}\"", w.base);
    if (!w.order.empty()) {
      if (!out.order.empty()) fail(ErrorKind::kBinder, "cannot override ORDER BY clause of window \"{}\"", w.base);
      out.order = w.order;
    }
    if (w.has_frame) {
      if (out.has_frame) fail(ErrorKind::kBinder, "cannot copy window \"{}\" because it has a frame clause", w.base);
      out.has_frame = true;
      out.unit = w.unit;
      out.start = w.start;
      out.end = w.end;
    }
    out.base.clear();
    return out;
  }
  const SelectStatement& s_;
};

}  // namespace

bool statement_has_window(const SelectStatement& s) {
  for (auto& item : s.select)
    if (contains_window(*item.expr)) return true;
  for (auto& o : s.order_by)
    if (contains_window(*o.expr)) return true;
  return false;
}

plan::LogicalQuery Binder::bind_windowed(const SelectStatement& s) {
  if (!runner_) fail(ErrorKind::kNotImplemented, "window functions cannot run here (no connection runs subqueries)");
  WindowSplit split(s);
  SelectStatement inner = s;
  inner.with.clear();
  inner.windows.clear();
  inner.order_by.clear();
  inner.limit = inner.offset = nullptr;
  inner.distinct = false;
  inner.select.clear();
  // Outer select items: kept items refer to inner columns by position (filled below).
  struct OuterItem {
    AstPtr expr;        // a rewritten window item
    std::string alias;  // its name
    int kept = -1;      // else: index among the kept items
  };
  std::vector<OuterItem> items;
  size_t kept = 0, stars = 0;
  std::vector<std::string> names;  // output names known before binding (for ORDER BY)
  for (auto& item : s.select) {
    if (!contains_window(*item.expr)) {
      inner.select.push_back(item);
      items.push_back({nullptr, "", int(kept++)});
      if (item.expr->kind == AstKind::kStar) stars++;
      else names.push_back(!item.alias.empty() ? item.alias : item.expr->kind == AstKind::kColumn ? item.expr->name : "");
      continue;
    }
    std::string alias = item.alias.empty() ? item.expr->to_string() : item.alias;
    names.push_back(alias);
    items.push_back({split.rewrite(item.expr), alias, -1});
  }
  if (stars > 1) fail(ErrorKind::kNotImplemented, "window functions next to more than one * in the select list");
  SelectStatement outer;
  outer.distinct = s.distinct;
  outer.limit = s.limit;
  outer.offset = s.offset;
  for (auto& o : s.order_by) {
    OrderByItem item = o;
    const AstExpr& e = *o.expr;
    bool output_name = false;
    for (auto& n : names) output_name = output_name || (e.kind == AstKind::kColumn && e.qualifier.empty() && iequals(n, e.name));
    // Ordinals and output names refer to the outer select list, which keeps its order and names.
    if (!constant_like(e) && !output_name) item.expr = split.rewrite(o.expr);
    outer.order_by.push_back(std::move(item));
  }
  if (inner.select.empty() && split.inner.empty()) {  // only argument-free windows: the rows still count
    auto one = std::make_shared<AstExpr>();
    one->kind = AstKind::kLiteral;
    one->value = Value::integer(1);
    one->text = "1";
    split.inner.push_back({one, "\x01w0"});
  }
  for (auto& x : split.inner) inner.select.push_back(x);

  plan::LogicalQuery q = bind_nested(inner);
  const size_t extracted = split.inner.size(), total = q.output_names.size();
  const size_t star_columns = total - extracted - (kept - stars);
  std::vector<std::string> kept_names(q.output_names.begin(), q.output_names.begin() + long(total - extracted));
  for (size_t i = 0; i < total; i++)
    q.output_names[i] = i < total - extracted ? "\x01k" + std::to_string(i) : split.inner[i - (total - extracted)].alias;
  TempTable rows = runner_->materialize(std::move(q), "window_input", "window function input");
  ctes_.emplace_back(kWindowInput, std::move(rows));

  // Kept item k covers inner columns [first[k], first[k] + width[k]).
  size_t at = 0;
  for (size_t i = 0, k = 0; i < items.size(); i++) {
    if (items[i].kept < 0) {
      outer.select.push_back({items[i].expr, items[i].alias});
      continue;
    }
    const bool star = s.select[i].expr->kind == AstKind::kStar;
    const size_t width = star ? star_columns : 1;
    for (size_t c = at; c < at + width; c++)
      outer.select.push_back({column_ast("\x01k" + std::to_string(c), *s.select[i].expr), kept_names[c]});
    at += width;
    k++;
  }
  TableItem from;
  from.name = kWindowInput;
  from.alias = "window_input";
  outer.from.push_back(from);
  windowed_ = true;
  return bind_inlined(outer);
}

ExprPtr Binder::bind_window_call(const AstExpr& e) {
  const std::string text = e.to_string();
  const std::string& f = e.name;
  const WindowSpecAst& spec = *e.over;
  if (e.distinct) fail(ErrorKind::kNotImplemented, "DISTINCT is not implemented for window functions: '{}'", text);
  plan::WindowExpr w;
  w.name = text;
  ExpressionBinder eb = expression_binder(q_.tables.size(), nullptr, "window functions");
  std::vector<ExprPtr> args;
  for (auto& c : e.children) args.push_back(eb.bind(*c));
  auto want_args = [&](size_t lo, size_t hi) {
    if (e.star_arg || args.size() < lo || args.size() > hi)
      fail(ErrorKind::kBinder, "{} takes {} in '{}'", f,
           lo == hi ? (lo == 0 ? std::string("no arguments") : std::to_string(lo) + " argument" + (lo > 1 ? "s" : ""))
                    : std::to_string(lo) + " to " + std::to_string(hi) + " arguments",
           text);
  };
  auto constant_int = [&](size_t i, const char* what) {
    const ExprPtr& a = args[i];
    if (a->kind != ExprKind::kConstant || !(a->value.is_null() || a->type.id == TypeId::kInteger ||
                                            a->type.id == TypeId::kBigint || a->type.id == TypeId::kNull))
      fail(ErrorKind::kNotImplemented, "the {} of {} must be an integer constant in '{}'", what, f, text);
    args[i] = a->value.is_null() ? Expr::constant(Value::null(Type::bigint())) : a;
  };
  using WF = plan::WindowFunc;
  static const std::vector<std::pair<const char*, WF>> ranking = {
      {"row_number", WF::kRowNumber}, {"rank", WF::kRank}, {"dense_rank", WF::kDenseRank},
      {"percent_rank", WF::kPercentRank}, {"cume_dist", WF::kCumeDist}};
  bool known = false;
  for (auto& [name, func] : ranking)
    if (f == name) {
      known = true;
      want_args(0, 0);
      w.func = func;
      w.type = (func == WF::kPercentRank || func == WF::kCumeDist) ? Type::float64() : Type::bigint();
    }
  if (known) {
  } else if (f == "ntile") {
    want_args(1, 1);
    constant_int(0, "bucket count");
    w.func = WF::kNtile;
    w.type = Type::bigint();
  } else if (f == "lag" || f == "lead") {
    want_args(1, 3);
    w.func = f == "lag" ? WF::kLag : WF::kLead;
    if (args.size() > 1) constant_int(1, "offset");
    args[0] = args[0]->type.id == TypeId::kNull ? Expr::constant(Value::null(Type::integer())) : args[0];
    w.type = args[0]->type;
    if (args.size() > 2) {
      std::optional<Type> t = common_type(args[0]->type, args[2]->type);
      if (!t || (args[2]->type.id != TypeId::kNull && !castable(args[2]->type, *t)))
        fail(ErrorKind::kBinder, "the default of {} ({}) does not match its value ({}) in '{}'", f,
             args[2]->type.to_string(), args[0]->type.to_string(), text);
      w.type = *t;
      for (size_t i : {size_t(0), size_t(2)}) {
        if (args[i]->kind == ExprKind::kConstant && args[i]->value.is_null()) args[i] = Expr::constant(Value::null(*t));
        else if (!(args[i]->type == *t)) args[i] = Expr::cast(args[i], *t);
      }
    }
  } else if (f == "first_value" || f == "last_value" || f == "nth_value") {
    want_args(f == "nth_value" ? 2 : 1, f == "nth_value" ? 2 : 1);
    w.func = f == "first_value" ? WF::kFirstValue : f == "last_value" ? WF::kLastValue : WF::kNthValue;
    if (f == "nth_value") constant_int(1, "position");
    if (args[0]->type.id == TypeId::kNull) args[0] = Expr::constant(Value::null(Type::integer()));
    w.type = args[0]->type;
  } else if (f == "count" || f == "sum" || f == "avg" || f == "min" || f == "max") {
    w.func = WF::kAggregate;
    w.agg = f == "count" ? (e.star_arg ? plan::AggFunc::kCountStar : plan::AggFunc::kCount)
            : f == "sum" ? plan::AggFunc::kSum
            : f == "avg" ? plan::AggFunc::kAvg
            : f == "min" ? plan::AggFunc::kMin
                         : plan::AggFunc::kMax;
    if (!e.star_arg) {
      want_args(1, 1);
      if (args[0]->type.id == TypeId::kNull) args[0] = Expr::constant(Value::null(Type::integer()));
    } else if (f != "count") {
      fail(ErrorKind::kBinder, "{}(*) is not allowed; only count takes *", f);
    }
    std::optional<Type> t = aggregate_type(w.agg, args.empty() ? Type::null() : args[0]->type);
    if (!t) fail(ErrorKind::kBinder, "cannot apply {} to {} in '{}'", f, args[0]->type.to_string(), text);
    w.type = *t;
  } else {
    fail(ErrorKind::kNotImplemented,
         "{} is not supported as a window function in '{}' (window functions: row_number, rank, dense_rank, "
         "percent_rank, cume_dist, ntile, lag, lead, first_value, last_value, nth_value, count, sum, avg, min, max)",
         f, text);
  }
  w.args = std::move(args);
  for (auto& p : spec.partition) w.partition.push_back(eb.bind(*p));
  for (auto& o : spec.order) {
    plan::WindowOrderItem item;
    item.expr = eb.bind(*o.expr);
    item.descending = o.descending;
    item.nulls_first = sorts_nulls_first(o.descending, o.nulls);
    w.order.push_back(std::move(item));
  }
  bind_frame(spec, w);
  q_.windows.push_back(std::move(w));
  return Expr::window_ref(int(q_.windows.size() - 1), q_.windows.back().type, text);
}

void Binder::bind_frame(const WindowSpecAst& spec, plan::WindowExpr& w) {
  using K = plan::FrameBound::Kind;
  w.start.kind = K::kUnboundedPreceding;
  w.end.kind = K::kCurrentRow;
  if (!spec.has_frame) return;
  if (spec.unit == WindowSpecAst::Unit::kGroups)
    fail(ErrorKind::kNotImplemented, "GROUPS frames are not supported (use ROWS or RANGE)");
  w.rows = spec.unit == WindowSpecAst::Unit::kRows;
  auto bound = [&](const FrameBoundAst& b, plan::FrameBound& out, const char* which) {
    out.kind = K(int(b.kind));
    if (!b.offset) return;
    if (!w.rows)
      fail(ErrorKind::kNotImplemented,
           "RANGE with an offset PRECEDING or FOLLOWING is not supported (use ROWS, or RANGE with UNBOUNDED and CURRENT "
           "ROW)");
    std::vector<plan::TableRef> none;
    ExpressionBinder eb(none, 0, nullptr, "window frames");
    ExprPtr v = eb.bind(*b.offset);
    if (v->kind != ExprKind::kConstant || !(v->type.id == TypeId::kInteger || v->type.id == TypeId::kBigint ||
                                            v->type.id == TypeId::kNull))
      fail(ErrorKind::kBinder, "frame {} offset must be an integer constant, got '{}'", which, b.offset->to_string());
    if (v->value.is_null()) fail(ErrorKind::kExecution, "frame {} offset must not be null", which);
    if (v->value.as_int() < 0) fail(ErrorKind::kExecution, "frame {} offset must not be negative", which);
    out.offset = v->value.as_int();
  };
  bound(spec.start, w.start, "starting");
  bound(spec.end, w.end, "ending");
  if (w.start.kind == K::kUnboundedFollowing) fail(ErrorKind::kBinder, "frame start cannot be UNBOUNDED FOLLOWING");
  if (w.end.kind == K::kUnboundedPreceding) fail(ErrorKind::kBinder, "frame end cannot be UNBOUNDED PRECEDING");
  if (w.start.kind == K::kCurrentRow && w.end.kind == K::kPreceding)
    fail(ErrorKind::kBinder, "frame starting from current row cannot have preceding rows");
  if (w.start.kind == K::kFollowing && (w.end.kind == K::kPreceding || w.end.kind == K::kCurrentRow))
    fail(ErrorKind::kBinder, "frame starting from following row cannot have preceding rows");
}

}  // namespace raydb::sql
