#include "sql/parse_error.h"

namespace raydb::sql {

std::string describe(const Token& t) {
  if (t.type == TokenType::kEnd) return "end of input";
  if (t.type == TokenType::kString) return t.raw;  // already quoted
  return "'" + t.raw + "'";
}

void parse_error_at(int line, int column, const std::string& what, const std::string& detail) {
  if (detail.empty()) fail(ErrorKind::kParse, "{} at line {}, column {}", what, line, column);
  fail(ErrorKind::kParse, "{} at line {}, column {}: {}", what, line, column, detail);
}

void expected_error(const Token& found, const std::string& expected) {
  parse_error_at(found.line, found.column, "syntax error", "expected " + expected + ", found " + describe(found));
}

void not_supported_error(const Token& at, const std::string& what, const std::string& hint) {
  fail(ErrorKind::kNotImplemented, "{} is not supported{} (line {}, column {})", what, hint.empty() ? "" : "; " + hint,
       at.line, at.column);
}

}  // namespace raydb::sql
