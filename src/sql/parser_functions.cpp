// The SQL-standard spellings of some scalar functions and INTERVAL literals. Each
// becomes an ordinary kFunction node (or kInterval), so the binder sees one form:
//   EXTRACT(field FROM x)              -> extract('field', x)
//   SUBSTRING(s FROM a [FOR b])         -> substring(s, a[, b])   (FOR b alone: from 1)
//   POSITION(x IN s)                    -> position(x, s)
//   TRIM([LEADING|TRAILING|BOTH] [c] FROM s) -> ltrim/rtrim/btrim(s[, c])
//   INTERVAL 'n' unit [(p)], INTERVAL 'n unit', INTERVAL n unit
#include <cerrno>
#include <cstdlib>

#include "sql/ast_nodes.h"
#include "sql/parse_error.h"
#include "sql/parser.h"

namespace raydb::sql {

namespace {

// day(s), month(s), year(s), week(s), hour(s), minute(s), second(s) -> (unit,
// multiplier); false when unknown.
bool interval_unit(std::string word, std::string& unit, int64_t& factor) {
  for (auto& c : word) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (!word.empty() && word.back() == 's') word.pop_back();
  factor = 1;
  if (word == "day" || word == "month" || word == "year" || word == "hour" || word == "minute" || word == "second")
    unit = word;
  else if (word == "week") unit = "day", factor = 7;
  else return false;
  return true;
}

}  // namespace

AstPtr Parser::parse_extract(const Token& start) {
  expect_operator("(");
  const Token& f = peek();
  if (f.type != TokenType::kIdentifier && f.type != TokenType::kString) expected_error(f, "a date field (year, month, day, ...)");
  next();
  auto e = node(AstKind::kFunction, start);
  e->name = "extract";
  e->children.push_back(literal(f, Value::varchar(f.text), "'" + f.text + "'"));
  expect_keyword("from", "FROM");
  e->children.push_back(parse_expr());
  expect_operator(")");
  return e;
}

AstPtr Parser::parse_interval(const Token& start) {
  const Token& v = next();
  std::string text = v.text, unit_word;
  // 'n unit' in one string.
  if (auto sp = text.find_first_of(" \t"); v.type == TokenType::kString && sp != std::string::npos) {
    unit_word = text.substr(text.find_first_not_of(" \t", sp) == std::string::npos ? sp : text.find_first_not_of(" \t", sp));
    text = text.substr(0, sp);
  } else {
    const Token& u = peek();
    if (u.type != TokenType::kIdentifier) expected_error(u, "an interval unit (SECOND, MINUTE, HOUR, DAY, MONTH or YEAR)");
    unit_word = next().text;
    if (accept_operator("(")) {  // DAY (3): a field precision, which does not change the value
      if (peek().type != TokenType::kInteger) expected_error(peek(), "an integer");
      next();
      expect_operator(")");
    }
  }
  auto e = node(AstKind::kInterval, start);
  int64_t factor = 1;
  if (!interval_unit(unit_word, e->name, factor))
    parse_error_at(v.line, v.column, "invalid INTERVAL", "unit '" + unit_word + "' (supported: SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, YEAR)");
  errno = 0;
  char* end = nullptr;
  const long long n = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || n > INT32_MAX || n < INT32_MIN)
    parse_error_at(v.line, v.column, "invalid INTERVAL", "'" + text + "' is not a whole number of " + e->name + "s");
  e->value = Value::bigint(n * factor);
  return e;
}

AstPtr Parser::parse_sql_function(const Token& name) {
  const size_t saved = pos_;
  expect_operator("(");
  auto e = node(AstKind::kFunction, name);
  e->name = name.text;
  if (name.text == "position") {
    AstPtr needle = parse_concat();  // below IN, so IN is the separator
    if (!accept_keyword("in")) {
      pos_ = saved;
      return nullptr;
    }
    e->children = {needle, parse_concat()};
    expect_operator(")");
    return e;
  }
  if (name.text == "substring") {
    AstPtr s = parse_expr();
    if (!peek().is_keyword("from") && !peek().is_keyword("for")) {
      pos_ = saved;
      return nullptr;
    }
    e->children = {s};
    if (accept_keyword("from")) e->children.push_back(parse_expr());
    else e->children.push_back(literal(name, Value::integer(1), "1"));
    if (accept_keyword("for")) e->children.push_back(parse_expr());
    expect_operator(")");
    return e;
  }
  // trim
  e->name = "btrim";
  if (accept_keyword("leading")) e->name = "ltrim";
  else if (accept_keyword("trailing")) e->name = "rtrim";
  else accept_keyword("both");
  AstPtr chars;
  if (!accept_keyword("from")) {
    AstPtr first = parse_expr();
    if (accept_keyword("from")) {
      chars = first;
    } else {  // TRIM(s) or TRIM(s, chars)
      e->children.push_back(first);
      if (accept_operator(",")) e->children.push_back(parse_expr());
      expect_operator(")");
      return e;
    }
  }
  e->children.push_back(parse_expr());
  if (chars) e->children.push_back(chars);
  expect_operator(")");
  return e;
}

}  // namespace raydb::sql
