#pragma once
// Tokens of the SQL lexer. Keywords are not a separate kind: the parser decides by
// context, so words like `date` stay usable as table and column names.
#include <cstdint>
#include <string>

namespace raydb::sql {

enum class TokenType {
  kIdentifier,        // unquoted word; `text` is lower-cased
  kQuotedIdentifier,  // "double quoted"; `text` is the content, case kept, "" unescaped
  kInteger,           // digits only
  kDecimal,           // digits with a '.', no exponent
  kFloat,             // with an exponent (1e3, 2.5E-1)
  kString,            // 'single quoted'; `text` is the content, '' unescaped
  kOperator,          // punctuation and operators: ( ) [ ] , . ; * + - / % = <> != < <= > >= ::
  kEnd,               // end of input
};

struct Token {
  TokenType type = TokenType::kEnd;
  std::string text;  // normalized (see TokenType)
  std::string raw;   // exactly as written, for error messages
  int line = 1;    // 1-based
  int column = 1;  // 1-based, in bytes
  size_t offset = 0;

  bool is_operator(const char* op) const { return type == TokenType::kOperator && text == op; }
  // Keywords are matched on unquoted identifiers only, case-insensitively (text is lower case).
  bool is_keyword(const char* lower_kw) const { return type == TokenType::kIdentifier && text == lower_kw; }
};

// How a token is shown in error messages: 'text', or "end of input".
std::string describe(const Token& t);

}  // namespace raydb::sql
