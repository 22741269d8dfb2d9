#include "sql/parser.h"

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <unordered_set>

#include <fmt/format.h>

#include "common/expression_depth.h"
#include "sql/ast_nodes.h"
#include "sql/edit_distance.h"
#include "sql/lexer.h"
#include "sql/parse_error.h"

namespace raydb::sql {

namespace {

// Clauses in the order SQL requires them; used to say what may follow.
enum Clause { kAfterSelectList, kAfterFrom, kAfterWhere, kAfterGroupBy, kAfterHaving, kAfterOrderBy, kAfterLimit };

}  // namespace

bool is_reserved_word(const std::string& w) {
  static const std::unordered_set<std::string> words = {
      "select", "from",   "where",  "group",  "by",      "having", "order", "limit",  "offset", "and",
      "or",     "not",    "as",     "on",     "join",    "inner",  "left",  "right",  "full",   "outer",
      "cross",  "natural", "using", "union",  "intersect", "except", "all", "distinct", "case", "when",
      "then",   "else",   "end",    "is",     "null",    "true",   "false", "between", "in",    "like",
      "ilike",  "similar", "cast",  "asc",    "desc",    "exists", "with",  "nulls",  "window", "fetch"};
  return words.count(w) > 0;
}

Parser::Parser(std::string_view sql) : sql_(sql), tokens_(Lexer(sql).tokenize()) {}

const Token& Parser::peek(size_t ahead) const {
  size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
  return tokens_[i];
}

const Token& Parser::next() {
  const Token& t = tokens_[pos_];
  if (pos_ + 1 < tokens_.size()) pos_++;
  return t;
}

bool Parser::accept_keyword(const char* kw) {
  if (!peek().is_keyword(kw)) return false;
  next();
  return true;
}

bool Parser::accept_operator(const char* op) {
  if (!peek().is_operator(op)) return false;
  next();
  return true;
}

const Token& Parser::expect_keyword(const char* kw, const char* shown) {
  if (!peek().is_keyword(kw)) expected_error(peek(), shown);
  return next();
}

const Token& Parser::expect_operator(const char* op) {
  if (!peek().is_operator(op)) expected_error(peek(), std::string("'") + op + "'");
  return next();
}

bool Parser::at_name() const {
  const Token& t = peek();
  return t.type == TokenType::kQuotedIdentifier || (t.type == TokenType::kIdentifier && !is_reserved_word(t.text));
}

std::string Parser::expect_name(const char* what, bool* quoted) {
  if (!at_name()) expected_error(peek(), what);
  const Token& t = next();
  if (quoted) *quoted = t.type == TokenType::kQuotedIdentifier;
  return t.text;
}

bool Parser::parse_optional_alias(std::string& alias) {
  if (accept_keyword("as")) {
    // After AS any word is a name, reserved or not (as PostgreSQL allows).
    const Token& t = peek();
    if (t.type != TokenType::kIdentifier && t.type != TokenType::kQuotedIdentifier) expected_error(t, "an alias");
    alias = next().text;
    return true;
  }
  if (at_name()) {
    implicit_alias_pos_ = pos_;
    alias = next().text;
    return true;
  }
  return false;
}

Statement Parser::parse_statement() {
  Statement st;
  if (peek().is_keyword("create") && peek(1).is_keyword("rt") && peek(2).is_keyword("view")) {
    next(), next(), next();
    st.type = StatementType::kCreateRtView;
    st.create_rt_view = parse_create_rt_view();
  } else if (peek().is_keyword("drop") &&
             (peek(1).is_keyword("view") || (peek(1).is_keyword("rt") && peek(2).is_keyword("view")))) {
    next();
    const bool rt = accept_keyword("rt");
    next();
    st.type = StatementType::kDropRtView;
    st.drop_rt_view = parse_drop_rt_view();
    st.drop_rt_view.rt = rt;
  } else if (peek().is_keyword("create") && peek(1).is_keyword("table")) {
    next(), next();
    st.type = StatementType::kCreateTable;
    st.create_table = parse_create_table();
  } else if (peek().is_keyword("create") && peek(1).is_keyword("view")) {
    next(), next();
    st.type = StatementType::kCreateView;
    st.create_view = parse_create_view();
  } else if (peek().is_keyword("create")) {
    next();
    st.type = StatementType::kCreateIndex;
    if (peek().is_keyword("unique")) not_supported_error(peek(), "UNIQUE indexes");
    if (peek().is_keyword("or")) not_supported_error(peek(), "CREATE OR REPLACE", "drop it first");
    if (peek().is_keyword("temp") || peek().is_keyword("temporary")) not_supported_error(peek(), "temporary tables");
    expect_keyword("index", "INDEX, TABLE, VIEW or RT VIEW");
    st.create_index = parse_create_index();
  } else if (peek().is_keyword("drop") && peek(1).is_keyword("table")) {
    next(), next();
    st.type = StatementType::kDropTable;
    st.drop_table = parse_drop_table();
  } else if (peek().is_keyword("drop")) {
    next();
    st.type = StatementType::kDropIndex;
    expect_keyword("index", "INDEX, TABLE or VIEW");
    st.drop_index = parse_drop_index();
  } else if (peek().is_keyword("insert")) {
    next();
    expect_keyword("into", "INTO");
    st.type = StatementType::kInsert;
    st.insert = parse_insert();
  } else if (peek().is_keyword("copy")) {
    next();
    st.type = StatementType::kCopy;
    st.copy = parse_copy();
  } else if (peek().is_keyword("update") || peek().is_keyword("delete")) {
    st.type = StatementType::kModify;
    st.modify = parse_modify();
  } else if (peek().is_keyword("set") || peek().is_keyword("reset") || peek().is_keyword("show")) {
    const std::string word = next().text;
    st.type = word == "set" ? StatementType::kSet : word == "reset" ? StatementType::kReset : StatementType::kShow;
    st.setting = parse_setting(st.type);
  } else {
    if (accept_keyword("explain")) {
      st.explain = true;
      st.analyze = accept_keyword("analyze");
    }
    if (st.explain && (peek().is_keyword("create") || peek().is_keyword("drop") || peek().is_keyword("insert") ||
                       peek().is_keyword("copy") || peek().is_keyword("update") || peek().is_keyword("delete")))
      not_supported_error(peek(), "EXPLAIN of CREATE, DROP, INSERT, COPY, UPDATE or DELETE");
    st.select = parse_select();
  }
  bool had_semicolon = accept_operator(";");
  if (peek().type != TokenType::kEnd) {
    if (had_semicolon) {
      while (accept_operator(";")) {
      }
      if (peek().type != TokenType::kEnd)
        parse_error_at(peek().line, peek().column, "syntax error",
                       "only one statement is allowed, found " + describe(peek()));
    } else {
      expected_error(peek(), "end of statement");
    }
  }
  return st;
}

CreateIndexStatement Parser::parse_create_index() {
  CreateIndexStatement c;
  if (peek().is_keyword("if")) not_supported_error(peek(), "CREATE INDEX IF NOT EXISTS");
  c.name = expect_name("an index name");
  expect_keyword("on", "ON");
  c.table = expect_name("a table name");
  if (peek().is_keyword("using")) not_supported_error(peek(), "USING before the column list", "write ON t (column) USING kind");
  expect_operator("(");
  // ASC / DESC after a column (SQLite's DDL) is accepted and has no effect: raydb's
  // indexes answer lookups and ranges, never an ordered scan.
  auto direction = [this] {
    if (!accept_keyword("asc")) accept_keyword("desc");
  };
  c.column = expect_name("a column name");
  direction();
  c.columns.push_back(c.column);
  std::optional<Token> comma;  // where a second column starts: only RTSCAN takes several
  while (peek().is_operator(",")) {
    if (!comma) comma = peek();
    next();
    c.columns.push_back(expect_name("a column name"));
    direction();
  }
  expect_operator(")");
  if (accept_keyword("using")) {
    const Token& k = peek();
    if (k.type != TokenType::kIdentifier) expected_error(k, "RT, SORTED, HASH or RTSCAN");
    if (k.text != "rt" && k.text != "sorted" && k.text != "hash" && k.text != "rtscan")
      parse_error_at(k.line, k.column, "syntax error",
                     "unknown index kind '" + k.raw + "' (expected RT, SORTED, HASH or RTSCAN)");
    c.kind = next().text;
  }
  if (comma && c.kind != "rtscan")
    not_supported_error(*comma, "an index on several columns", "only USING RTSCAN indexes several columns");
  if (accept_keyword("with")) {
    expect_operator("(");
    do {
      const Token& n = peek();
      if (n.type != TokenType::kIdentifier && n.type != TokenType::kQuotedIdentifier) expected_error(n, "an option name");
      std::string name = next().text;
      expect_operator("=");
      const Token& v = peek();
      std::string value;
      bool negative = accept_operator("-");
      const Token& vt = peek();
      if (vt.type == TokenType::kInteger || vt.type == TokenType::kDecimal || vt.type == TokenType::kFloat ||
          (!negative && (vt.type == TokenType::kIdentifier || vt.type == TokenType::kString))) {
        value = (negative ? "-" : "") + next().text;
      } else {
        expected_error(negative ? vt : v, "an option value");
      }
      c.options.emplace_back(std::move(name), std::move(value));
    } while (accept_operator(","));
    expect_operator(")");
  }
  return c;
}

DropIndexStatement Parser::parse_drop_index() {
  DropIndexStatement d;
  if (peek().is_keyword("if") && peek(1).is_keyword("exists")) {
    next();
    next();
    d.if_exists = true;
  }
  d.name = expect_name("an index name");
  return d;
}

// The setting's name, and for SET its value: a word, a number (with an optional size
// suffix such as 8G), or a string literal.
SettingStatement Parser::parse_setting(StatementType type) {
  SettingStatement s;
  s.name = expect_name("setting name");
  if (type != StatementType::kSet) return s;
  if (!accept_operator("=")) expect_keyword("to", "'=' or TO");
  const Token& v = next();
  switch (v.type) {
    case TokenType::kString:
    case TokenType::kIdentifier:
    case TokenType::kQuotedIdentifier: s.value = v.text; break;
    case TokenType::kInteger:
    case TokenType::kDecimal:
      s.value = v.raw;
      if (peek().type == TokenType::kIdentifier && peek().offset == v.offset + v.raw.size()) s.value += next().raw;
      break;
    default: expected_error(v, "a setting value");
  }
  return s;
}

// A whole query: [WITH ...] set expression [ORDER BY] [LIMIT/OFFSET]. UNION and
// EXCEPT bind equally and left to right, INTERSECT tighter (SQL's precedence).
SelectStatement Parser::parse_select() {
  std::vector<CommonTableExpr> with;
  if (accept_keyword("with")) {
    if (peek().is_keyword("recursive")) not_supported_error(peek(), "WITH RECURSIVE");
    do with.push_back(parse_cte());
    while (accept_operator(","));
  }
  int clause = kAfterSelectList;
  SelectStatement s = parse_set_expression(clause);
  s.with.insert(s.with.begin(), with.begin(), with.end());
  const bool ordered = !s.order_by.empty() || s.limit || s.offset;
  if (ordered && (peek().is_keyword("order") || peek().is_keyword("limit") || peek().is_keyword("offset")))
    not_supported_error(peek(), "ORDER BY or LIMIT after a parenthesized query that has its own",
                        "move it into the parentheses or select from a derived table");
  parse_order_and_limit(s, clause);
  if (peek().is_keyword("fetch")) not_supported_error(peek(), "FETCH FIRST", "use LIMIT");
  if (!peek().is_operator(";") && peek().type != TokenType::kEnd && !(select_in_parens_ && peek().is_operator(")")))
    unexpected_after_clause(clause);
  return s;
}

CommonTableExpr Parser::parse_cte() {
  CommonTableExpr c;
  c.line = peek().line;
  c.column = peek().column;
  c.name = expect_name("a common table expression name");
  if (accept_operator("(")) {
    do c.column_aliases.push_back(expect_name("a column name"));
    while (accept_operator(","));
    expect_operator(")");
  }
  expect_keyword("as", "AS");
  if (peek().is_keyword("materialized") || peek().is_keyword("not")) not_supported_error(peek(), "[NOT] MATERIALIZED");
  c.select = std::make_shared<const SelectStatement>(parse_parenthesized_query());
  return c;
}

SelectStatement Parser::parse_parenthesized_query() {
  expect_operator("(");
  const bool outer = select_in_parens_;
  select_in_parens_ = true;
  if (!peek().is_keyword("select") && !peek().is_keyword("with") && !peek().is_operator("("))
    expected_error(peek(), "SELECT");
  SelectStatement s = parse_select();
  select_in_parens_ = outer;
  expect_operator(")");
  return s;
}

namespace {
SelectStatement set_operation(SetOp op, bool all, SelectStatement l, SelectStatement r, const Token& at) {
  SelectStatement s;
  s.set_op = op;
  s.set_all = all;
  s.set_line = at.line;
  s.set_column = at.column;
  s.left = std::make_shared<const SelectStatement>(std::move(l));
  s.right = std::make_shared<const SelectStatement>(std::move(r));
  return s;
}
}  // namespace

SelectStatement Parser::parse_set_expression(int& clause) {
  SelectStatement s = parse_set_term(clause);
  while (peek().is_keyword("union") || peek().is_keyword("except")) {
    const Token& at = next();
    const bool all = accept_keyword("all");
    if (!all) accept_keyword("distinct");
    SelectStatement r = parse_set_term(clause);
    s = set_operation(at.text == "union" ? SetOp::kUnion : SetOp::kExcept, all, std::move(s), std::move(r), at);
  }
  return s;
}

SelectStatement Parser::parse_set_term(int& clause) {
  SelectStatement s = parse_set_operand(clause);
  while (peek().is_keyword("intersect")) {
    const Token& at = next();
    const bool all = accept_keyword("all");
    if (!all) accept_keyword("distinct");
    SelectStatement r = parse_set_operand(clause);
    s = set_operation(SetOp::kIntersect, all, std::move(s), std::move(r), at);
  }
  return s;
}

SelectStatement Parser::parse_set_operand(int& clause) {
  if (peek().is_operator("(")) {
    clause = kAfterHaving;
    return parse_parenthesized_query();
  }
  return parse_select_core(clause);
}

SelectStatement Parser::parse_select_core(int& clause) {
  SelectStatement s;
  expect_keyword("select", "SELECT");
  if (accept_keyword("distinct")) {
    s.distinct = true;
    if (peek().is_keyword("on")) not_supported_error(peek(), "DISTINCT ON");
  } else {
    accept_keyword("all");
  }
  parse_select_list(s);
  clause = kAfterSelectList;
  if (accept_keyword("from")) {
    parse_from(s);
    clause = kAfterFrom;
  }
  if (clause <= kAfterFrom && accept_keyword("where")) {
    s.where = parse_expr();
    clause = kAfterWhere;
  }
  if (clause <= kAfterWhere && peek().is_keyword("group")) {
    next();
    expect_keyword("by", "BY");
    do s.group_by.push_back(parse_expr());
    while (accept_operator(","));
    clause = kAfterGroupBy;
  }
  if (clause <= kAfterGroupBy && accept_keyword("having")) {
    s.having = parse_expr();
    clause = kAfterHaving;
  }
  if (clause <= kAfterHaving && accept_keyword("window")) parse_window_clause(s);
  return s;
}

void Parser::parse_order_and_limit(SelectStatement& s, int& clause) {
  if (clause <= kAfterHaving && peek().is_keyword("order")) {
    next();
    expect_keyword("by", "BY");
    parse_order_by(s);
    clause = kAfterOrderBy;
  }
  // LIMIT and OFFSET in either order, each at most once (as PostgreSQL accepts).
  bool seen_limit = false;
  for (;;) {
    if (!seen_limit && accept_keyword("limit")) {
      seen_limit = true;
      if (peek().is_keyword("all")) {
        next();
        s.limit = nullptr;
      } else {
        s.limit = parse_expr();
      }
      clause = kAfterLimit;
    } else if (!s.offset && accept_keyword("offset")) {
      s.offset = parse_expr();
      if (!accept_keyword("rows")) accept_keyword("row");
      clause = kAfterLimit;
    } else {
      break;
    }
  }
}

void Parser::unexpected_after_clause(int clause) {
  static const std::pair<const char*, const char*> clauses[] = {
      {"from", "FROM"}, {"where", "WHERE"}, {"group", "GROUP BY"}, {"having", "HAVING"},
      {"order", "ORDER BY"}, {"limit", "LIMIT"}};
  // What may come next: FROM after the select list, else the clauses after the last one seen.
  std::vector<const char*> words;
  std::vector<std::string> shown;
  size_t first = clause == kAfterSelectList ? 0 : size_t(clause);
  size_t last = clause == kAfterSelectList ? 1 : std::size(clauses);
  for (size_t i = first; i < last; i++) {
    words.push_back(clauses[i].first);
    shown.push_back(clauses[i].second);
  }
  if (clause != kAfterSelectList) shown.push_back("end of statement");
  std::string expected;
  for (size_t i = 0; i < shown.size(); i++)
    expected += (i == 0 ? "" : i + 1 == shown.size() ? " or " : ", ") + shown[i];
  // "select x FORM t" reads FORM as an alias of x; point at it when it looks like
  // the keyword the user meant and the token after it does not.
  auto near_keyword = [&](const std::string& w) {
    for (auto* k : words)
      if (w.size() >= 3 && edit_distance(w, k) <= 2) return true;
    return false;
  };
  if (implicit_alias_pos_ + 1 == pos_) {
    const Token& alias = tokens_[implicit_alias_pos_];
    if (near_keyword(alias.text) && !near_keyword(peek().text)) expected_error(alias, expected);
  }
  expected_error(peek(), expected);
}

void Parser::parse_select_list(SelectStatement& s) {
  do {
    SelectItem item;
    const Token& t = peek();
    if (t.is_operator("*")) {
      next();
      item.expr = node(AstKind::kStar, t);
    } else {
      item.expr = parse_expr();
      if (item.expr->kind != AstKind::kStar) parse_optional_alias(item.alias);
    }
    s.select.push_back(std::move(item));
  } while (accept_operator(","));
}

TableItem Parser::parse_table_item() {
  TableItem t;
  const Token& at = peek();
  t.line = at.line;
  t.column = at.column;
  if (at.is_operator("(")) {
    if (!peek(1).is_keyword("select") && !peek(1).is_keyword("with") && !peek(1).is_operator("("))
      not_supported_error(at, "a parenthesized join in FROM");
    t.subquery = std::make_shared<const SelectStatement>(parse_parenthesized_query());
    if (!parse_optional_alias(t.alias)) t.alias = "unnamed_subquery";  // PostgreSQL 16's name
    if (accept_operator("(")) {
      do t.column_aliases.push_back(expect_name("a column name"));
      while (accept_operator(","));
      expect_operator(")");
    }
    return t;
  }
  t.name = expect_name("a table name");
  if (accept_operator("(")) {  // a table function over file names: read_parquet('x.parquet')
    t.function = true;
    do {
      const Token& arg = peek();
      if (arg.type != TokenType::kString) expected_error(arg, "a file name in quotes");
      t.function_args.push_back(next().text);
    } while (accept_operator(","));
    expect_operator(")");
    if (!parse_optional_alias(t.alias)) t.alias = t.name;
    if (accept_operator("(")) {
      do t.column_aliases.push_back(expect_name("a column name"));
      while (accept_operator(","));
      expect_operator(")");
    }
    return t;
  }
  if (peek().is_operator(".")) not_supported_error(peek(), "a schema-qualified table name");
  parse_optional_alias(t.alias);
  return t;
}

// A table item, or a parenthesized join of inner and cross joins, `(a CROSS JOIN b)`,
// whose items join the enclosing list as written without parentheses (inner joins
// associate; ON conditions keep their order). A parenthesized outer join is taken the
// same way only as FROM's first item (`FROM (a LEFT JOIN b ON c), x`: joins associate
// to the left, so the parentheses change nothing); after other items they would
// (`x, (a RIGHT JOIN b ON c)` is not `(x, a) RIGHT JOIN b`), and it is refused there.
std::vector<TableItem> Parser::parse_table_items(bool first) {
  const Token& at = peek();
  if (!at.is_operator("(") || peek(1).is_keyword("select") || peek(1).is_keyword("with") || peek(1).is_operator("("))
    return {parse_table_item()};
  next();
  SelectStatement group;
  parse_from(group);
  for (const TableItem& t : group.from)
    if (t.join != TableItem::Join::kInner && !first)
      not_supported_error(at, "a parenthesized outer join after other FROM items");
  expect_operator(")");
  if (at_name() || peek().is_keyword("as")) not_supported_error(peek(), "an alias for a parenthesized join");
  return group.from;
}

void Parser::parse_from(SelectStatement& s) {
  auto append = [&s](std::vector<TableItem> items) {
    for (auto& t : items) s.from.push_back(std::move(t));
  };
  append(parse_table_items(true));
  for (;;) {
    if (accept_operator(",")) {
      append(parse_table_items());
      continue;
    }
    const Token& at = peek();
    if (at.is_keyword("left") || at.is_keyword("right") || at.is_keyword("full")) {
      const std::string word = next().text;
      accept_keyword("outer");
      expect_keyword("join", "JOIN");
      TableItem t = parse_table_item();
      if (peek().is_keyword("using")) not_supported_error(peek(), "JOIN ... USING", "write JOIN ... ON");
      expect_keyword("on", "ON");
      t.on = parse_expr();
      t.join = word == "left" ? TableItem::Join::kLeft : word == "right" ? TableItem::Join::kRight : TableItem::Join::kFull;
      s.from.push_back(std::move(t));
      continue;
    }
    if (at.is_keyword("natural")) not_supported_error(at, "NATURAL JOIN");
    if (accept_keyword("cross")) {
      expect_keyword("join", "JOIN");
      append(parse_table_items());
      if (peek().is_keyword("on") || peek().is_keyword("using"))
        parse_error_at(peek().line, peek().column, "syntax error",
                       "CROSS JOIN does not take an ON or USING clause (write JOIN ... ON)");
      continue;
    }
    bool inner = accept_keyword("inner");
    if (inner || peek().is_keyword("join")) {
      expect_keyword("join", "JOIN");
      std::vector<TableItem> items = parse_table_items();
      if (peek().is_keyword("using")) not_supported_error(peek(), "JOIN ... USING", "write JOIN ... ON");
      expect_keyword("on", "ON");
      AstPtr on = parse_expr();
      // The ON of a parenthesized join's last item sees every table before it, as this ON does.
      TableItem& last = items.back();
      if (last.on) {
        auto both = node(AstKind::kBinary, peek());
        both->op = "and";
        both->children = {last.on, on};
        on = both;
      }
      last.on = on;
      append(std::move(items));
      continue;
    }
    return;
  }
}

void Parser::parse_order_by(SelectStatement& s) {
  do {
    OrderByItem item;
    item.expr = parse_expr();
    if (accept_keyword("desc")) {
      item.descending = true;
    } else {
      accept_keyword("asc");
    }
    item.nulls = accept_nulls_order();
    s.order_by.push_back(std::move(item));
  } while (accept_operator(","));
}

int Parser::accept_nulls_order() {
  if (!accept_keyword("nulls")) return 0;
  if (accept_keyword("first")) return 1;
  expect_keyword("last", "FIRST or LAST");
  return 2;
}

namespace {

// One level of nesting (parentheses, function arguments, CASE, NOT, unary minus):
// bounded, so deep nesting is a parse error, not a stack overflow (issue 14). Chains
// of binary operators are loops below, not nesting.
class NestingLevel {
 public:
  NestingLevel(int& depth, const Token& at) : depth_(depth) {
    if (++depth_ > kMaxExpressionNesting) {
      --depth_;
      parse_error_at(at.line, at.column, fmt::format("expression too deeply nested (limit {})", kMaxExpressionNesting));
    }
  }
  ~NestingLevel() { --depth_; }

 private:
  int& depth_;
};

}  // namespace

AstPtr Parser::parse_expr() {
  NestingLevel level(nesting_, peek());
  return parse_or();
}

AstPtr Parser::parse_or() {
  AstPtr e = parse_and();
  while (accept_keyword("or")) e = binary("or", e, parse_and());
  return e;
}

AstPtr Parser::parse_and() {
  AstPtr e = parse_not();
  while (accept_keyword("and")) e = binary("and", e, parse_not());
  return e;
}

AstPtr Parser::parse_not() {
  if (peek().is_keyword("not")) {
    const Token& t = next();
    auto e = node(AstKind::kUnary, t);
    e->op = "not";
    NestingLevel level(nesting_, t);
    e->children = {parse_not()};
    return e;
  }
  return parse_predicate();
}

AstPtr Parser::parse_predicate() {
  AstPtr left = parse_concat();
  const Token& t = peek();
  static const char* const comparisons[] = {"=", "<>", "!=", "<", "<=", ">", ">="};
  for (const char* op : comparisons) {
    if (t.is_operator(op)) {
      next();
      AstPtr right = parse_concat();
      auto e = binary(std::string(op) == "!=" ? "<>" : op, left, right);
      // a = b = c is ambiguous in SQL; PostgreSQL rejects it too.
      for (const char* op2 : comparisons)
        if (peek().is_operator(op2)) expected_error(peek(), "AND, OR or the end of the expression");
      return e;
    }
  }
  if (t.is_keyword("is")) {
    next();
    auto e = node(AstKind::kIsNull, *left);
    e->negated = accept_keyword("not");
    if (peek().is_keyword("true") || peek().is_keyword("false") || peek().is_keyword("distinct"))
      not_supported_error(peek(), "IS [NOT] TRUE/FALSE/DISTINCT FROM");
    expect_keyword("null", "NULL");
    e->children = {left};
    return e;
  }
  bool negated = false;
  if (t.is_keyword("not") &&
      (peek(1).is_keyword("between") || peek(1).is_keyword("in") || peek(1).is_keyword("like") ||
       peek(1).is_keyword("ilike"))) {
    next();
    negated = true;
  }
  if (peek().is_keyword("similar")) not_supported_error(peek(), "SIMILAR TO");
  if (accept_keyword("between")) {
    auto e = node(AstKind::kBetween, *left);
    e->negated = negated;
    if (peek().is_keyword("symmetric")) not_supported_error(peek(), "BETWEEN SYMMETRIC");
    AstPtr lo = parse_concat();
    expect_keyword("and", "AND");
    AstPtr hi = parse_concat();
    e->children = {left, lo, hi};
    return e;
  }
  if (accept_keyword("in")) {
    auto e = node(AstKind::kInList, *left);
    e->negated = negated;
    if (peek().is_operator("(") && (peek(1).is_keyword("select") || peek(1).is_keyword("with"))) {
      const size_t begin = peek().offset;
      e->subquery = std::make_shared<const SelectStatement>(parse_parenthesized_query());
      e->text = sql_.substr(begin, tokens_[pos_ - 1].offset + 1 - begin);
      e->children = {left};
      return e;
    }
    expect_operator("(");
    e->children.push_back(left);
    do e->children.push_back(parse_expr());
    while (accept_operator(","));
    expect_operator(")");
    return e;
  }
  if (peek().is_keyword("like") || peek().is_keyword("ilike")) {
    auto e = node(AstKind::kLike, *left);
    e->op = next().text;  // "like" or "ilike"
    e->negated = negated;
    e->children = {left, parse_concat()};
    if (peek().is_keyword("escape")) not_supported_error(peek(), "LIKE ... ESCAPE");
    return e;
  }
  return left;
}

// || binds looser than + and - and tighter than comparisons, as in PostgreSQL.
AstPtr Parser::parse_concat() {
  AstPtr e = parse_additive();
  while (accept_operator("||")) e = binary("||", e, parse_additive());
  return e;
}

AstPtr Parser::parse_additive() {
  AstPtr e = parse_multiplicative();
  for (;;) {
    if (accept_operator("+")) {
      e = binary("+", e, parse_multiplicative());
    } else if (accept_operator("-")) {
      e = binary("-", e, parse_multiplicative());
    } else {
      return e;
    }
  }
}

AstPtr Parser::parse_multiplicative() {
  AstPtr e = parse_unary();
  for (;;) {
    const Token& t = peek();
    if (t.is_operator("*") || t.is_operator("/") || t.is_operator("%")) {
      std::string op = next().text;
      e = binary(op, e, parse_unary());
    } else {
      return e;
    }
  }
}

AstPtr Parser::parse_unary() {
  const Token& t = peek();
  if (t.is_operator("-") || t.is_operator("+")) {
    next();
    const Token& n = peek();
    bool number = n.type == TokenType::kInteger || n.type == TokenType::kDecimal || n.type == TokenType::kFloat;
    // A signed numeric literal is one literal, so -2147483648 is an INTEGER and
    // -9223372036854775808 a valid BIGINT. A following :: still applies to it.
    if (number && !peek(1).is_operator("::")) {
      next();
      AstPtr lit = parse_number(n, t.text == "-");
      lit->line = t.line;
      lit->column = t.column;
      return lit;
    }
    NestingLevel level(nesting_, t);
    AstPtr operand = parse_unary();
    if (t.text == "+") return operand;
    auto e = node(AstKind::kUnary, t);
    e->op = "-";
    e->children = {operand};
    return e;
  }
  return parse_postfix();
}

AstPtr Parser::parse_postfix() {
  AstPtr e = parse_primary();
  while (peek().is_operator("::")) {
    next();
    auto c = node(AstKind::kCast, *e);
    c->cast_type = parse_type_name();
    c->children = {e};
    e = c;
  }
  return e;
}

AstPtr Parser::parse_number(const Token& t, bool negative) {
  std::string text = (negative ? "-" : "") + t.raw;
  switch (t.type) {
    case TokenType::kInteger: {
      // Accumulate in 128 bits; anything beyond 2^63 is out of range either way.
      unsigned __int128 v = 0;
      for (char c : t.text) {
        v = v * 10 + unsigned(c - '0');
        if (v > (unsigned __int128)1 << 64) break;
      }
      __int128 s = negative ? -__int128(v) : __int128(v);
      if (s >= INT32_MIN && s <= INT32_MAX) return literal(t, Value::integer(int32_t(s)), text);
      if (s >= INT64_MIN && s <= INT64_MAX) return literal(t, Value::bigint(int64_t(s)), text);
      parse_error_at(t.line, t.column, "integer literal out of range",
                     text + " does not fit in a BIGINT (64-bit signed integer)");
    }
    case TokenType::kDecimal: {
      std::string_view digits = t.text;
      auto dot = digits.find('.');
      int scale = int(digits.size() - dot - 1);
      std::string_view ip = digits.substr(0, dot);
      while (!ip.empty() && ip.front() == '0') ip.remove_prefix(1);
      int precision = std::max<int>(1, int(ip.size()) + scale);
      int64_t scaled = 0;
      // More than 18 digits do not fit DECIMAL's int64; such literals become DOUBLE (as in DuckDB).
      if (precision <= 18 && parse_decimal(t.text, precision, scale, scaled))
        return literal(t, Value::decimal(negative ? -scaled : scaled, precision, scale), text);
      return literal(t, Value::float64(std::strtod(text.c_str(), nullptr)), text);
    }
    case TokenType::kFloat: {
      errno = 0;
      double d = std::strtod(text.c_str(), nullptr);
      if (errno == ERANGE && (d > 1 || d < -1))
        parse_error_at(t.line, t.column, "numeric literal out of range", text + " does not fit in a DOUBLE");
      return literal(t, Value::float64(d), text);
    }
    default: expected_error(t, "a number");
  }
}

AstPtr Parser::parse_primary() {
  const Token& t = peek();
  switch (t.type) {
    case TokenType::kInteger:
    case TokenType::kDecimal:
    case TokenType::kFloat: next(); return parse_number(t, false);
    case TokenType::kString: next(); return literal(t, Value::varchar(t.text), t.raw);
    case TokenType::kQuotedIdentifier: break;
    case TokenType::kEnd: expected_error(t, "an expression");
    case TokenType::kOperator:
      if (t.is_operator("(")) {
        if (peek(1).is_keyword("select") || peek(1).is_keyword("with")) return parse_subquery(t, "");
        next();
        AstPtr e = parse_expr();
        expect_operator(")");
        return e;
      }
      if (t.is_operator("[")) {  // [a, b, ...]: DuckDB's list, a list_value call
        next();
        auto e = node(AstKind::kFunction, t);
        e->name = "list_value";
        if (!peek().is_operator("]")) {
          do e->children.push_back(parse_expr());
          while (accept_operator(","));
        }
        expect_operator("]");
        return e;
      }
      expected_error(t, "an expression");
    case TokenType::kIdentifier:
      if (t.text == "null") return next(), literal(t, Value::null(), "NULL");
      if (t.text == "true") return next(), literal(t, Value::boolean(true), "true");
      if (t.text == "false") return next(), literal(t, Value::boolean(false), "false");
      if (t.text == "case") return next(), parse_case(t);
      if (t.text == "exists" && peek(1).is_operator("(")) {
        next();
        return parse_subquery(peek(), "exists");
      }
      if (t.text == "cast") {
        next();
        expect_operator("(");
        auto e = node(AstKind::kCast, t);
        e->children = {parse_expr()};
        expect_keyword("as", "AS");
        e->cast_type = parse_type_name();
        expect_operator(")");
        return e;
      }
      if (t.text == "date" && peek(1).type == TokenType::kString) {
        next();
        const Token& s = next();
        int32_t days = 0;
        if (!parse_date(s.text, days))
          parse_error_at(s.line, s.column, "invalid DATE literal", s.raw + " is not a date in the form YYYY-MM-DD");
        return literal(t, Value::date(days), "DATE " + s.raw);
      }
      if (t.text == "interval" && (peek(1).type == TokenType::kString || peek(1).type == TokenType::kInteger))
        return next(), parse_interval(t);
      if (t.text == "extract" && peek(1).is_operator("(")) return next(), parse_extract(t);
      if (t.text == "timestamp" && peek(1).type == TokenType::kString) {
        next();
        const Token& s = next();
        int64_t micros = 0;
        if (!parse_timestamp(s.text, micros))
          parse_error_at(s.line, s.column, "invalid TIMESTAMP literal",
                         s.raw + " is not a timestamp in the form YYYY-MM-DD HH:MM:SS[.ffffff] (years 1-9999)");
        return literal(t, Value::timestamp(micros), "TIMESTAMP " + s.raw);
      }
      if (t.text == "time" && peek(1).type == TokenType::kString) not_supported_error(t, "the time type");
      if (is_reserved_word(t.text)) expected_error(t, "an expression");
      break;
  }
  // A name: column, qualified column, qualifier.* or function call.
  const Token& name_tok = next();
  if (name_tok.type == TokenType::kIdentifier && peek().is_operator("(")) return parse_function(name_tok);
  if (accept_operator(".")) {
    if (peek().is_operator("*")) {
      next();
      auto e = node(AstKind::kStar, name_tok);
      e->qualifier = name_tok.text;
      return e;
    }
    auto e = node(AstKind::kColumn, name_tok);
    e->qualifier = name_tok.text;
    e->name = expect_name("a column name", &e->quoted);
    return e;
  }
  auto e = node(AstKind::kColumn, name_tok);
  e->name = name_tok.text;
  e->quoted = name_tok.type == TokenType::kQuotedIdentifier;
  return e;
}

// (SELECT ...) at `open`, as a value or (op "exists") as EXISTS's argument.
AstPtr Parser::parse_subquery(const Token& open, const char* op) {
  auto e = node(AstKind::kSubquery, open);
  e->op = op;
  const size_t begin = open.offset;
  e->subquery = std::make_shared<const SelectStatement>(parse_parenthesized_query());
  e->text = sql_.substr(begin, tokens_[pos_ - 1].offset + 1 - begin);
  return e;
}

AstPtr Parser::parse_function(const Token& name) {
  if (name.text == "substring" || name.text == "position" || name.text == "trim")
    if (AstPtr special = parse_sql_function(name)) return special;
  auto e = node(AstKind::kFunction, name);
  e->name = name.text;
  expect_operator("(");
  if (peek().is_operator("*")) {
    next();
    e->star_arg = true;
    expect_operator(")");
    if (peek().is_keyword("over")) e->over = parse_over();
    return e;
  }
  if (accept_keyword("distinct")) {
    e->distinct = true;
    if (peek().is_operator("*")) expected_error(peek(), "an expression");
  } else {
    accept_keyword("all");
  }
  if (!peek().is_operator(")")) {
    do e->children.push_back(parse_expr());
    while (accept_operator(","));
  } else if (e->distinct) {
    expected_error(peek(), "an expression");
  }
  if (peek().is_keyword("order")) not_supported_error(peek(), "ORDER BY inside an aggregate");
  expect_operator(")");
  if (peek().is_keyword("within") && peek(1).is_keyword("group")) {  // percentile_disc(q) WITHIN GROUP (ORDER BY x)
    next();
    next();
    expect_operator("(");
    expect_keyword("order", "ORDER");
    expect_keyword("by", "BY");
    e->children.push_back(parse_expr());
    e->within_group = true;
    if (accept_keyword("desc")) e->within_desc = true;
    else accept_keyword("asc");
    expect_operator(")");
  }
  if (peek().is_keyword("over")) e->over = parse_over();
  if (peek().is_keyword("filter")) not_supported_error(peek(), "FILTER on aggregates");
  return e;
}

AstPtr Parser::parse_case(const Token& start) {
  auto e = node(AstKind::kCase, start);
  if (!peek().is_keyword("when") && !peek().is_keyword("else") && !peek().is_keyword("end")) {
    e->has_operand = true;
    e->children.push_back(parse_expr());
  }
  if (!peek().is_keyword("when")) expected_error(peek(), "WHEN");
  while (accept_keyword("when")) {
    e->children.push_back(parse_expr());
    expect_keyword("then", "THEN");
    e->children.push_back(parse_expr());
  }
  if (accept_keyword("else")) {
    e->has_else = true;
    e->children.push_back(parse_expr());
  }
  expect_keyword("end", "END");
  return e;
}

Type Parser::parse_type_name() {
  const Token& t = peek();
  if (t.type != TokenType::kIdentifier) expected_error(t, "a type name");
  next();
  std::string text = t.text;
  if (text == "double" && accept_keyword("precision")) text = "double";
  if (text == "character" && accept_keyword("varying")) text = "varchar";
  if (text == "character") text = "char";
  if (accept_operator("(")) {
    text += "(";
    for (;;) {
      const Token& n = peek();
      if (n.type != TokenType::kInteger) expected_error(n, "an integer");
      text += next().text;
      if (accept_operator(",")) {
        text += ",";
        continue;
      }
      expect_operator(")");
      break;
    }
    text += ")";
  }
  try {
    return Type::parse(text);
  } catch (const Error& err) {
    parse_error_at(t.line, t.column, "syntax error", err.what());
  }
}

}  // namespace raydb::sql
