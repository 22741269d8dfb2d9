// Window syntax: f(...) OVER (...) / OVER name, and the WINDOW clause of a SELECT block.
//   OVER ( [base_window] [PARTITION BY e, ...] [ORDER BY e [ASC|DESC] [NULLS FIRST|LAST], ...]
//          [ROWS|RANGE|GROUPS {start | BETWEEN start AND end}] )
#include "sql/parse_error.h"
#include "sql/parser.h"

namespace raydb::sql {

FrameBoundAst Parser::parse_frame_bound() {
  FrameBoundAst b;
  const Token& at = peek();
  if (accept_keyword("unbounded")) {
    if (accept_keyword("preceding")) {
      b.kind = FrameBoundAst::Kind::kUnboundedPreceding;
    } else {
      expect_keyword("following", "PRECEDING or FOLLOWING");
      b.kind = FrameBoundAst::Kind::kUnboundedFollowing;
    }
    return b;
  }
  if (peek().is_keyword("current")) {
    next();
    expect_keyword("row", "ROW");
    b.kind = FrameBoundAst::Kind::kCurrentRow;
    return b;
  }
  if (at.type == TokenType::kEnd || at.is_operator(")")) expected_error(at, "a frame bound");
  b.offset = parse_additive();
  if (accept_keyword("preceding")) {
    b.kind = FrameBoundAst::Kind::kPreceding;
  } else {
    expect_keyword("following", "PRECEDING or FOLLOWING");
    b.kind = FrameBoundAst::Kind::kFollowing;
  }
  return b;
}

WindowSpecAst Parser::parse_window_body() {
  WindowSpecAst w;
  const Token& open = expect_operator("(");
  w.line = open.line;
  w.column = open.column;
  if (at_name() && !peek().is_keyword("partition") && !peek().is_keyword("order") && !peek().is_keyword("rows") &&
      !peek().is_keyword("range") && !peek().is_keyword("groups"))
    w.base = expect_name("a window name");
  if (peek().is_keyword("partition")) {
    next();
    expect_keyword("by", "BY");
    do w.partition.push_back(parse_expr());
    while (accept_operator(","));
  }
  if (peek().is_keyword("order")) {
    next();
    expect_keyword("by", "BY");
    do {
      WindowSpecAst::Order o;
      o.expr = parse_expr();
      if (accept_keyword("desc")) o.descending = true;
      else accept_keyword("asc");
      o.nulls = accept_nulls_order();
      w.order.push_back(std::move(o));
    } while (accept_operator(","));
  }
  if (peek().is_keyword("rows") || peek().is_keyword("range") || peek().is_keyword("groups")) {
    const std::string unit = next().text;
    w.has_frame = true;
    w.unit = unit == "rows" ? WindowSpecAst::Unit::kRows
             : unit == "range" ? WindowSpecAst::Unit::kRange
                               : WindowSpecAst::Unit::kGroups;
    if (accept_keyword("between")) {
      w.start = parse_frame_bound();
      expect_keyword("and", "AND");
      w.end = parse_frame_bound();
    } else {
      w.start = parse_frame_bound();
      w.end.kind = FrameBoundAst::Kind::kCurrentRow;
    }
    if (peek().is_keyword("exclude")) not_supported_error(peek(), "EXCLUDE in window frames");
  }
  expect_operator(")");
  return w;
}

std::shared_ptr<const WindowSpecAst> Parser::parse_over() {
  const Token& at = next();  // OVER
  if (peek().is_operator("(")) return std::make_shared<const WindowSpecAst>(parse_window_body());
  auto w = std::make_shared<WindowSpecAst>();
  w->line = at.line;
  w->column = at.column;
  w->base = expect_name("a window name or '('");
  return w;
}

void Parser::parse_window_clause(SelectStatement& s) {
  do {
    std::string name = expect_name("a window name");
    expect_keyword("as", "AS");
    WindowSpecAst w = parse_window_body();
    s.windows.emplace_back(std::move(name), std::move(w));
  } while (accept_operator(","));
}

}  // namespace raydb::sql
