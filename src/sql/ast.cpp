#include "sql/ast.h"

#include <fmt/format.h>

#include "common/expression_depth.h"

namespace raydb::sql {

namespace {

// Binding strength, higher binds tighter; decides where to_string needs parentheses.
int precedence(const AstExpr& e) {
  switch (e.kind) {
    case AstKind::kBinary:
      if (e.op == "or") return 1;
      if (e.op == "and") return 2;
      if (e.op == "||") return 5;
      if (e.op == "+" || e.op == "-") return 6;
      if (e.op == "*" || e.op == "/" || e.op == "%") return 7;
      return 4;  // comparisons
    case AstKind::kUnary: return e.op == "not" ? 3 : 8;
    case AstKind::kBetween:
    case AstKind::kInList:
    case AstKind::kLike:
    case AstKind::kIsNull: return 4;
    default: return 10;  // primaries
  }
}

std::string quote_ident(const std::string& name, bool quoted) {
  if (!quoted) return name;
  std::string s = "\"";
  for (char c : name) s += c == '"' ? std::string("\"\"") : std::string(1, c);
  return s + "\"";
}

// Child text, parenthesized when it binds looser than its parent requires.
std::string operand(const AstExpr& child, int min_prec) {
  std::string s = child.to_string();
  return precedence(child) < min_prec ? "(" + s + ")" : s;
}

}  // namespace

std::string AstExpr::to_string() const {
  ExpressionDepthGuard depth_guard;  // one level of recursion (issue 14)
  switch (kind) {
    case AstKind::kColumn: return (qualifier.empty() ? "" : qualifier + ".") + quote_ident(name, quoted);
    case AstKind::kStar: return qualifier.empty() ? "*" : qualifier + ".*";
    case AstKind::kLiteral: return text;
    case AstKind::kUnary:
      if (op == "not") return "NOT " + operand(*children[0], 3);
      return op + operand(*children[0], 8);
    case AstKind::kBinary: {
      int p = precedence(*this);
      std::string o = op == "and" ? "AND" : op == "or" ? "OR" : op;
      // Left-associative: the right operand needs parentheses at equal precedence.
      return operand(*children[0], p) + " " + o + " " + operand(*children[1], p + 1);
    }
    case AstKind::kBetween:
      return fmt::format("{} {}BETWEEN {} AND {}", operand(*children[0], 5), negated ? "NOT " : "",
                         operand(*children[1], 5), operand(*children[2], 5));
    case AstKind::kInList: {
      if (subquery) return operand(*children[0], 5) + (negated ? " NOT IN " : " IN ") + text;
      std::string s = operand(*children[0], 5) + (negated ? " NOT IN (" : " IN (");
      for (size_t i = 1; i < children.size(); i++) s += (i > 1 ? ", " : "") + children[i]->to_string();
      return s + ")";
    }
    case AstKind::kLike: {
      const std::string word = op == "ilike" ? "ILIKE " : "LIKE ";
      return operand(*children[0], 5) + (negated ? " NOT " : " ") + word + operand(*children[1], 5);
    }
    case AstKind::kIsNull: return operand(*children[0], 5) + (negated ? " IS NOT NULL" : " IS NULL");
    case AstKind::kFunction: {
      if (star_arg) return name + "(*)" + (over ? " OVER " + over->to_string() : "");
      if (name == "list_value") {  // written [a, b, ...]
        std::string s = "[";
        for (size_t i = 0; i < children.size(); i++) s += (i ? ", " : "") + children[i]->to_string();
        return s + "]";
      }
      if (name == "extract" && children.size() == 2)
        return "extract(" + children[0]->value.to_string() + " FROM " + children[1]->to_string() + ")";
      std::string s = name + "(" + (distinct ? "DISTINCT " : "");
      const size_t args = children.size() - (within_group ? 1 : 0);
      for (size_t i = 0; i < args; i++) s += (i ? ", " : "") + children[i]->to_string();
      s += ")";
      if (within_group)
        s += " WITHIN GROUP (ORDER BY " + children.back()->to_string() + (within_desc ? " DESC)" : ")");
      if (over) s += " OVER " + over->to_string();
      return s;
    }
    case AstKind::kCase: {
      std::string s = "CASE";
      size_t i = 0;
      if (has_operand) s += " " + children[i++]->to_string();
      size_t end = children.size() - (has_else ? 1 : 0);
      for (; i + 1 < end; i += 2)
        s += " WHEN " + children[i]->to_string() + " THEN " + children[i + 1]->to_string();
      if (has_else) s += " ELSE " + children.back()->to_string();
      return s + " END";
    }
    case AstKind::kCast: return "CAST(" + children[0]->to_string() + " AS " + cast_type.to_string() + ")";
    case AstKind::kInterval: return "INTERVAL '" + value.to_string() + "' " + name;
    case AstKind::kSubquery:  // text: the parenthesized query as written
      return op == "exists" ? (negated ? "NOT EXISTS " : "EXISTS ") + text : text;
  }
  return "?";
}

std::string WindowSpecAst::to_string() const {
  if (partition.empty() && order.empty() && !has_frame && !base.empty()) return base;
  std::string s = "(";
  auto sep = [&s] {
    if (s.size() > 1) s += " ";
  };
  if (!base.empty()) s += base;
  if (!partition.empty()) {
    sep();
    s += "PARTITION BY ";
    for (size_t i = 0; i < partition.size(); i++) s += (i ? ", " : "") + partition[i]->to_string();
  }
  if (!order.empty()) {
    sep();
    s += "ORDER BY ";
    for (size_t i = 0; i < order.size(); i++) {
      s += (i ? ", " : "") + order[i].expr->to_string() + (order[i].descending ? " DESC" : "");
      if (order[i].nulls) s += order[i].nulls == 1 ? " NULLS FIRST" : " NULLS LAST";
    }
  }
  if (has_frame) {
    sep();
    auto bound = [](const FrameBoundAst& b) -> std::string {
      switch (b.kind) {
        case FrameBoundAst::Kind::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
        case FrameBoundAst::Kind::kPreceding: return b.offset->to_string() + " PRECEDING";
        case FrameBoundAst::Kind::kCurrentRow: return "CURRENT ROW";
        case FrameBoundAst::Kind::kFollowing: return b.offset->to_string() + " FOLLOWING";
        case FrameBoundAst::Kind::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
      }
      return "?";
    };
    s += unit == Unit::kRows ? "ROWS" : unit == Unit::kRange ? "RANGE" : "GROUPS";
    s += " BETWEEN " + bound(start) + " AND " + bound(end);
  }
  return s + ")";
}

AstExpr::~AstExpr() {
  // Children whose last owner is this tree are taken apart here, one at a time.
  std::vector<AstPtr> pending = std::move(children);
  while (!pending.empty()) {
    AstPtr c = std::move(pending.back());
    pending.pop_back();
    if (c && c.use_count() == 1)
      for (AstPtr& g : c->children) pending.push_back(std::move(g));
  }
}

}  // namespace raydb::sql
