#include "sql/statement_splitter.h"

namespace raydb::sql {

SplitScript split_statements(std::string_view text) {
  SplitScript out;
  size_t start = 0;
  bool content = false;  // something other than blanks and comments since `start`
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const char c = text[i];
    if (c == '-' && i + 1 < n && text[i + 1] == '-') {
      while (i < n && text[i] != '\n') i++;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      // Block comments do not nest (as the lexer); an unterminated one runs to the end.
      size_t e = text.find("*/", i + 2);
      i = e == std::string_view::npos ? n : e + 2;
    } else if (c == '\'' || c == '"') {
      content = true;
      i++;
      while (i < n) {  // a doubled quote is one quote inside; the scan goes on either way
        if (text[i] == c) {
          i++;
          if (i < n && text[i] == c) {
            i++;
            continue;
          }
          break;
        }
        i++;
      }
    } else if (c == ';') {
      if (content) out.statements.emplace_back(text.substr(start, i - start));
      i++;
      start = i;
      content = false;
    } else {
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') content = true;
      i++;
    }
  }
  if (content) out.rest = std::string(text.substr(start));
  return out;
}

}  // namespace raydb::sql
