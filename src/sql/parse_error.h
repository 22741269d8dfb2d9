#pragma once
// Uniform kParse messages: "<what> at line L, column C[: detail]".
#include <string>

#include "common/error.h"
#include "sql/token.h"

namespace raydb::sql {

[[noreturn]] void parse_error_at(int line, int column, const std::string& what, const std::string& detail = {});
// "syntax error at line L, column C: expected X, found 'Y'".
[[noreturn]] void expected_error(const Token& found, const std::string& expected);
// Features the grammar recognizes but raydb does not run: Error(kNotImplemented) with position.
// "<what> is not supported[; hint] (line L, column C)".
[[noreturn]] void not_supported_error(const Token& at, const std::string& what, const std::string& hint = {});

}  // namespace raydb::sql
