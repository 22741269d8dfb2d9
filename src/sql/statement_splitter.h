#pragma once
// Splits a script (shell input, `raydb query -f`) into statements at ';' outside
// string literals, quoted identifiers and comments, as the lexer reads them. The
// parser still takes one statement at a time; this only finds the boundaries.
#include <string>
#include <string_view>
#include <vector>

namespace raydb::sql {

struct SplitScript {
  std::vector<std::string> statements;  // complete ones, in order, without their ';'
  std::string rest;  // text after the last ';' (a statement still being typed); empty
                     // when it holds only blanks and comments
};

// Statements holding only blanks and comments (`-- note;`, `;;`) are dropped: no-ops.
SplitScript split_statements(std::string_view text);

}  // namespace raydb::sql
